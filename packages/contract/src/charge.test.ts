import { describe, expect, it } from 'vitest';
import { convertToCharge } from './payments.ts';

describe('convertToCharge: BRL cents to the charge currency’s minor units, half up', () => {
  it('rounds a half up and anything less down', () => {
    // 29.90 BRL at 0.16 BRL per unit is 186.875 units: 18 687.5 minor units, so 18 688.
    expect(convertToCharge(2_990, '0.16')).toBe(18_688);
    // 29.90 BRL at 0.057 is 52 456.14... minor units.
    expect(convertToCharge(2_990, '0.057')).toBe(52_456);
    // 0.01 BRL at 0.064 is 15.625 paise; 0.03 BRL at 0.064 is 46.875; 10.00 BRL at 0.3 is 3 333.33...
    expect(convertToCharge(1, '0.064')).toBe(16);
    expect(convertToCharge(3, '0.064')).toBe(47);
    expect(convertToCharge(1_000, '0.3')).toBe(3_333);
    // 1.00 BRL at 0.8: 125 exactly.
    expect(convertToCharge(100, '0.8')).toBe(125);
  });

  it('is exact where a float is not', () => {
    // 100.00 BRL at 0.064 is 156 250 paise exactly; the float quotient is 156249.99999999997.
    expect(convertToCharge(10_000, '0.064')).toBe(156_250);
    expect(convertToCharge(123_456_789, '0.000001')).toBe(123_456_789_000_000);
  });

  it('refuses what is not a rate or an amount', () => {
    expect(convertToCharge(100, '0')).toBeUndefined();
    expect(convertToCharge(100, '-1')).toBeUndefined();
    expect(convertToCharge(100, '1e3')).toBeUndefined();
    expect(convertToCharge(1.5, '0.057')).toBeUndefined();
    expect(convertToCharge(-1, '0.057')).toBeUndefined();
  });
});
