import { describe, expect, it } from 'vitest';
import { discountPercent, minorToDisplay, wholeToMinor } from './money.ts';

describe('money', () => {
  it('renders minor units for display without float drift', () => {
    expect(minorToDisplay(1999)).toBe(19.99);
    expect(minorToDisplay(10)).toBe(0.1);
    expect(minorToDisplay(123456789)).toBe(1234567.89);
    expect(minorToDisplay(5000, 0)).toBe(5000);
  });

  it('turns whole units into minor units and refuses fractions', () => {
    expect(wholeToMinor(150)).toBe(15000);
    expect(() => wholeToMinor(1.5)).toThrow(RangeError);
  });

  it('rounds a discount down and ignores a non-discount', () => {
    expect(discountPercent(8700, 10000)).toBe(13);
    expect(discountPercent(6667, 10000)).toBe(33);
    expect(discountPercent(10000, null)).toBe(0);
    expect(discountPercent(10000, 9000)).toBe(0);
  });
});
