import { describe, expect, it } from 'vitest';
import { decimalStringToMinor, minorToDecimalString } from './amounts.ts';

describe('decimal amounts', () => {
  it('writes minor units with two places', () => {
    expect(minorToDecimalString(0)).toBe('0.00');
    expect(minorToDecimalString(5)).toBe('0.05');
    expect(minorToDecimalString(15_050)).toBe('150.50');
    expect(minorToDecimalString(123_456_789_01)).toBe('123456789.01');
  });

  it('refuses negative and fractional minor units', () => {
    expect(() => minorToDecimalString(-1)).toThrow(RangeError);
    expect(() => minorToDecimalString(1.5)).toThrow(RangeError);
  });

  it('reads whole, one-place and two-place amounts without a float', () => {
    expect(decimalStringToMinor('150')).toBe(15_000);
    expect(decimalStringToMinor('150.5')).toBe(15_050);
    expect(decimalStringToMinor('0.29')).toBe(29);
    // 0.29 * 100 is 28.999999999999996 in floating point; the string path never goes there.
    expect(decimalStringToMinor('1.15')).toBe(115);
  });

  it('reads nothing else', () => {
    for (const value of ['', '-1', '1.234', '1e3', ' 1', '1,50', '.5', 'NaN']) {
      expect(decimalStringToMinor(value), value).toBeNull();
    }
  });
});
