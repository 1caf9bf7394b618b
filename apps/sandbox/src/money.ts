/**
 * Amounts on this provider's wire: integer minor units in the server API, decimal strings with two
 * places ("150.00") in the widget and hosted-page requests. The store has its own copy of these two
 * functions (packages/core/src/payments/amounts.ts): the sandbox stands for an outside provider and
 * shares no code with the store at run time.
 */
const DECIMAL_AMOUNT = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

export const DECIMAL_AMOUNT_PATTERN = DECIMAL_AMOUNT;

/** Currencies the sandbox takes; each has two minor digits. */
export const CURRENCIES = ['RUB', 'BRL', 'INR', 'USD', 'EUR'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** The most one payment may be: 10 billion in minor units, far above any basket. */
export const AMOUNT_MAX_MINOR = 10_000_000_000;

export function minorToDecimalString(minor: number): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`not an amount in minor units: ${minor}`);
  return `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

export function decimalStringToMinor(value: string): number | null {
  const match = DECIMAL_AMOUNT.exec(value);
  if (!match) return null;
  const minor = Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
  return Number.isSafeInteger(minor) ? minor : null;
}
