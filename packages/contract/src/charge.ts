import * as z from 'zod/mini';
import { rateMicros } from './display.ts';
import { STORE_CURRENCY } from './limits.ts';

/**
 * What a payment is charged in (docs/currency.md, "What a payment is charged in"). The order, the
 * ledger and the balance stay in BRL; each payment is charged in its rail's currency, converted from
 * the order's BRL total at the operator's rate, which the payment locks when it is opened.
 */

/** The currencies the instant-transfer rails settle in: nothing else can be charged on them. */
export const RAIL_CURRENCY = { pix: 'BRL', sbp: 'RUB', upi: 'INR' } as const;

/** The card paths, whose currency is the store's configuration (`PAYMENTS_CHARGE_CURRENCY`). */
export const CARD_CHARGE_METHODS = ['widget', 'hosted_page', 'card'] as const;
export type CardChargeMethod = (typeof CARD_CHARGE_METHODS)[number];

/** A payment is not charged at a rate older than this (the server's `PAYMENTS_RATE_MAX_AGE_HOURS`). */
export const CHARGE_RATE_MAX_AGE_MS = 48 * 3_600_000;

/**
 * `minor` BRL cents in minor units of a currency at `rate` (BRL per unit, at most 6 decimals), rounded
 * half up to the minor unit: charge = floor((2 * minor * 10^6 + micros) / (2 * micros)), micros being
 * the rate in millionths of a BRL, in exact integer arithmetic. Every currency charged has two minor
 * digits, as BRL has. Undefined for a rate that is not one, or an amount that is not whole cents.
 */
export function convertToCharge(minor: number, rate: string): number | undefined {
  const micros = rateMicros(rate);
  if (micros === undefined || !Number.isSafeInteger(minor) || minor < 0) return undefined;
  const twice = BigInt(micros) * 2n;
  const charge = (BigInt(minor) * 2_000_000n + BigInt(micros)) / twice;
  return charge <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(charge) : undefined;
}

/**
 * What a payment is charged, in every answer that opens one: `amount_minor` in `currency` (what the
 * provider is asked for and the payer's bank shows), the order's BRL amount it stands for, the rate
 * (BRL per unit, "1" for BRL) and when the operator set it (null for BRL), and when the payment locked
 * it.
 */
export const ChargeSchema = z.object({
  amount_minor: z.int(),
  currency: z.string(),
  store_amount_minor: z.int(),
  store_currency: z.string(),
  rate: z.string(),
  rate_set_at: z.nullable(z.string()),
  locked_at: z.string(),
});
export type Charge = z.infer<typeof ChargeSchema>;

/** Whether a charge is in the store's own currency: no conversion to state. */
export const isStoreCharge = (charge: Pick<Charge, 'currency'>) => charge.currency === STORE_CURRENCY;

/** The instant-transfer methods offered to shoppers of each language: the one their bank uses. */
export type InstantMethod = keyof typeof RAIL_CURRENCY;
export const INSTANT_METHODS_BY_LOCALE: Record<string, readonly InstantMethod[]> = {
  'pt-BR': ['pix'],
  ru: ['sbp'],
  hi: ['upi'],
  // English is the language of shoppers from anywhere: every rail the provider offers.
  en: ['pix', 'sbp', 'upi'],
};
export const instantMethodsFor = (locale: string): readonly InstantMethod[] =>
  INSTANT_METHODS_BY_LOCALE[locale] ?? ['pix', 'sbp', 'upi'];
