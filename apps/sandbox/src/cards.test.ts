import { describe, expect, it } from 'vitest';
import { cardBrand, isExpired, passesLuhn, scenarioFor, TEST_CARDS } from './cards.ts';

describe('cards', () => {
  it('checks the Luhn digit', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('79927398713')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(passesLuhn('79927398710')).toBe(false);
    expect(passesLuhn('4242 4242')).toBe(false);
  });

  it('has Luhn-valid test cards only', () => {
    for (const number of Object.keys(TEST_CARDS)) expect(passesLuhn(number), number).toBe(true);
  });

  it('gives each test card its scenario and any other number success', () => {
    expect(scenarioFor('4000000000000002')).toBe('decline');
    expect(scenarioFor('4000008400001629')).toBe('3ds_then_decline');
    expect(scenarioFor('5555555555554444')).toBe('succeed');
  });

  it('names the brand with credit-card-type', () => {
    expect(cardBrand('2200000000000004')).toBe('mir');
    expect(cardBrand('5555555555554444')).toBe('mastercard');
    expect(cardBrand('378282246310005')).toBe('american-express');
  });

  it('keeps a card good through its expiry month', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    expect(isExpired(11, 2026, now)).toBe(false);
    expect(isExpired(10, 2026, now)).toBe(true);
    expect(isExpired(1, 2027, now)).toBe(false);
    expect(isExpired(12, 2025, now)).toBe(true);
  });
});
