import { describe, expect, it } from 'vitest';
import { detectCardType } from './card-type.ts';

describe('detectCardType', () => {
  it('names the four brands from the first 8 digits', () => {
    expect(detectCardType('42424242')).toBe('Visa');
    expect(detectCardType('51051051')).toBe('MasterCard');
    // Mastercard's 2-series and Mir's 2200-2204 sit side by side.
    expect(detectCardType('22210000')).toBe('MasterCard');
    expect(detectCardType('22001234')).toBe('Mir');
    expect(detectCardType('22041234')).toBe('Mir');
    expect(detectCardType('37828224')).toBe('AmericanExpress');
    expect(detectCardType('34000000')).toBe('AmericanExpress');
  });

  it('is null for other brands and unknown prefixes', () => {
    expect(detectCardType('62000000')).toBeNull(); // UnionPay
    expect(detectCardType('35280000')).toBeNull(); // JCB
    expect(detectCardType('99999999')).toBeNull();
  });
});
