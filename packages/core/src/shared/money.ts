/**
 * Money is integer minor units in core. These helpers are the only place that turns minor units into
 * a display number, and they never feed a result back into arithmetic.
 */
export function minorToDisplay(minor: number, minorUnits = 2): number {
  return Number((minor / 10 ** minorUnits).toFixed(minorUnits));
}

export function wholeToMinor(whole: number, minorUnits = 2): number {
  if (!Number.isSafeInteger(whole)) throw new RangeError(`not a whole amount: ${whole}`);
  return whole * 10 ** minorUnits;
}

/** Percent off, rounded down, so that a shown "-13%" is never more than the real discount. */
export function discountPercent(priceMinor: number, oldPriceMinor: number | null): number {
  if (oldPriceMinor === null || oldPriceMinor <= priceMinor || oldPriceMinor <= 0) return 0;
  return Math.floor(((oldPriceMinor - priceMinor) * 100) / oldPriceMinor);
}
