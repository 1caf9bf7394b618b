/** A product's rating as shoppers see it: the average of its reviews to one decimal, and how many. */
export interface RatingSummary {
  /** 1.0 to 5.0; null while the product has no reviews. */
  average: number | null;
  count: number;
}

/**
 * The average of `count` ratings that add up to `sum`, in tenths, rounded half up as PostgreSQL's
 * ROUND(numeric, 1) does (89 over 20 is 4.45, shown 4.5); 0 without ratings. Worked out from whole
 * numbers, so no binary fraction tips a half the wrong way.
 */
export function ratingTenths(count: number, sum: number): number {
  return count > 0 ? Math.round((sum * 10) / count) : 0;
}

export function ratingSummary(count: number, sum: number): RatingSummary {
  return { average: count > 0 ? ratingTenths(count, sum) / 10 : null, count };
}
