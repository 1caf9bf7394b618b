/**
 * Amounts on the wire of card providers are decimal strings with two places ("150.00"). These turn
 * integer minor units into such strings and back without passing through a float.
 */
const DECIMAL_AMOUNT = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

export function minorToDecimalString(minor: number): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`not an amount in minor units: ${minor}`);
  return `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

/** "150", "150.5" and "150.50" are 15050; anything else (signs, exponents, three places) is null. */
export function decimalStringToMinor(value: string): number | null {
  const match = DECIMAL_AMOUNT.exec(value);
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '0').padEnd(2, '0'));
  const minor = whole * 100 + fraction;
  return Number.isSafeInteger(minor) ? minor : null;
}
