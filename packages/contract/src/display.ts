import * as z from 'zod/mini';
import { STORE_CURRENCY } from './limits.ts';

/**
 * Prices in the shopper's currency (docs/currency.md). The store prices, charges and keeps balances in
 * BRL only; a price is shown converted at the operator's rate, marked as approximate, and what is
 * charged is always the BRL amount.
 */

/** The currency each interface language shows prices in; English keeps the store's own. */
export const DISPLAY_CURRENCY_BY_LOCALE = { 'pt-BR': 'BRL', en: 'BRL', ru: 'RUB', hi: 'INR' } as const;

/** A rate older than this is not shown: prices fall back to BRL rather than to a wrong figure. */
export const DISPLAY_RATE_MAX_AGE_MS = 7 * 24 * 3_600_000;

/** Digits after the point a rate may have (the table's DECIMAL(14,6)). */
export const DISPLAY_RATE_DECIMALS = 6;

/** A rate as the operator writes and the API sends it: BRL per unit, a plain decimal ("0.057"). */
export const DISPLAY_RATE_PATTERN = /^(0|[1-9]\d{0,7})(\.\d{1,6})?$/;

/**
 * The rate a response's prices are shown at: `currency`, `rate` in BRL per unit (a decimal string,
 * exact) and when the operator set it. BRL itself, the fallback for a missing or stale rate, is rate
 * "1" with `set_at` null: prices are shown as they are.
 */
export const DisplayRateSchema = z.object({
  currency: z.string(),
  rate: z.string(),
  set_at: z.nullable(z.string()),
});
export type DisplayRate = z.infer<typeof DisplayRateSchema>;

/** Prices as they are, in BRL. */
export const STORE_DISPLAY_RATE: DisplayRate = { currency: STORE_CURRENCY, rate: '1', set_at: null };

/** The rate in millionths of a BRL per unit, an integer; undefined when it is not a rate above zero. */
export function rateMicros(rate: string): number | undefined {
  const match = DISPLAY_RATE_PATTERN.exec(rate);
  if (!match) return undefined;
  const fraction = (match[2] ?? '.').slice(1).padEnd(DISPLAY_RATE_DECIMALS, '0');
  const micros = Number(match[1]) * 1_000_000 + Number(fraction);
  return micros > 0 ? micros : undefined;
}

/**
 * A price of `minor` BRL cents in whole units of the rate's currency, rounded up, in integer
 * arithmetic: units = ceil(minor * 10 000 / micros), micros being the rate in millionths of a BRL
 * (a cent is 10 000 of them). A rate has at most 6 decimals, so `rate * 1e6` rounds to its micros
 * exactly; and the quotient of two safe integers is correctly rounded, so it is a whole number
 * exactly when the division is, and rounding it up is exact. Undefined for a rate that is not one or
 * an amount that is not whole cents (the caller shows the BRL price then).
 */
export function convertMinorToWhole(minor: number, rate: string): number | undefined {
  const micros = Math.round(Number(rate) * 1e6);
  return micros > 0 && minor >= 0 && Number.isSafeInteger(minor * 1e4) && Number.isInteger(minor)
    ? Math.ceil((minor * 1e4) / micros)
    : undefined;
}
