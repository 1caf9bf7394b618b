import { STORE_DISPLAY_RATE } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { approxPrice, displayRate, rememberDisplayRate } from './display-rate.ts';

const RUB = { currency: 'RUB', rate: '0.057', set_at: '2026-11-23T10:00:00.000Z' };
const INR = { currency: 'INR', rate: '0.064', set_at: '2026-11-23T10:00:00.000Z' };

describe('display rates', () => {
  it('remembers the rate an answer carries for the language it was asked in', () => {
    rememberDisplayRate('ru', { result: [], display: RUB });
    rememberDisplayRate('hi', { display: INR });
    // Answers without a rate (categories, a profile) change nothing.
    rememberDisplayRate('ru', [{ id: 'steam' }]);
    rememberDisplayRate('ru', null);
    expect(displayRate('ru')).toEqual(RUB);
    expect(displayRate('hi')).toEqual(INR);
  });

  it('writes a price in the language currency, rounded up to whole units, marked as approximate', () => {
    rememberDisplayRate('ru', { display: RUB });
    rememberDisplayRate('hi', { display: INR });
    // BRL 100.00 at 0.057: 1754.39 roubles; BRL 12 345.67 at 0.064: 192 901.09 rupees (Hindi groups lakhs).
    expect(approxPrice(10_000, 'ru')).toMatch(/^≈\s1\s755\s₽$/);
    expect(approxPrice(1_234_567, 'hi')).toMatch(/^≈\s₹1\s92\s902$/);
    expect(approxPrice(null, 'ru')).toBeUndefined();
  });

  it('shows BRL as it is: for Portuguese and English, a language without an answer yet, and a stale rate', () => {
    rememberDisplayRate('pt-BR', { display: STORE_DISPLAY_RATE });
    expect(displayRate('pt-BR')).toBeUndefined();
    expect(approxPrice(10_000, 'pt-BR')).toBeUndefined();
    expect(approxPrice(10_000, 'en')).toBeUndefined();
    // The API sends BRL once the RUB rate is older than 7 days: the next answer stops the conversion.
    rememberDisplayRate('ru', { display: STORE_DISPLAY_RATE });
    expect(approxPrice(10_000, 'ru')).toBeUndefined();
  });
});
