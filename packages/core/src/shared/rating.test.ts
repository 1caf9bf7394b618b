import { describe, expect, it } from 'vitest';
import { ratingSummary, ratingTenths } from './rating.ts';

describe('rating', () => {
  it('averages to one decimal, a half rounded up as PostgreSQL rounds it', () => {
    expect(ratingSummary(3, 14)).toEqual({ average: 4.7, count: 3 });
    expect(ratingSummary(20, 89)).toEqual({ average: 4.5, count: 20 });
    expect(ratingSummary(40, 178)).toEqual({ average: 4.5, count: 40 });
    expect(ratingSummary(20, 91)).toEqual({ average: 4.6, count: 20 });
    expect(ratingSummary(6, 29)).toEqual({ average: 4.8, count: 6 });
    expect(ratingTenths(1, 5)).toBe(50);
    expect(ratingTenths(9, 9)).toBe(10);
  });

  it('has no average without reviews, rather than zero stars', () => {
    expect(ratingSummary(0, 0)).toEqual({ average: null, count: 0 });
    expect(ratingTenths(0, 0)).toBe(0);
  });
});
