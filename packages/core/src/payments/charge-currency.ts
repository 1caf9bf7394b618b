import {
  CARD_CHARGE_METHODS,
  type CardChargeMethod,
  CHARGE_RATE_MAX_AGE_MS,
  CHARGE_RATE_UNAVAILABLE,
  type Charge,
  convertToCharge,
  RAIL_CURRENCY,
  STORE_CURRENCY,
} from '@store/contract';
import { type Queryable, qb } from '@store/db';
import { plainDecimal } from '../display/display-rates.ts';
import { ValidationError } from '../shared/errors.ts';

/**
 * What a payment is charged in (docs/currency.md, "What a payment is charged in"). The order, the
 * ledger and the balance stay in BRL; a payment is charged in its rail's currency (Pix BRL, SBP RUB,
 * UPI INR; the card paths as configured), converted from the order's BRL total at the operator's rate
 * (`display_rates`), which the payment locks when it is opened. Callbacks are checked against that
 * charge, what the provider says it gave back is turned back into BRL by the payment's own
 * proportion, and refunds the store asks for go to the provider in the charge's currency.
 */

/** The rails a payment can be charged on: the card paths, and the instant transfers. */
export type ChargeRail = CardChargeMethod | keyof typeof RAIL_CURRENCY;

export interface ChargeConfig {
  /** The currency of each card path; BRL unless configured (`PAYMENTS_CHARGE_CURRENCY`). */
  cardCurrencies: Record<CardChargeMethod, string>;
  /** A rate older than this refuses the payment rather than charging at it. */
  rateMaxAgeMs: number;
}

export const DEFAULT_CHARGE_CONFIG: ChargeConfig = {
  cardCurrencies: { widget: STORE_CURRENCY, hosted_page: STORE_CURRENCY, card: STORE_CURRENCY },
  rateMaxAgeMs: CHARGE_RATE_MAX_AGE_MS,
};

/**
 * `PAYMENTS_CHARGE_CURRENCY`: "widget=RUB,hosted_page=RUB" sets those card paths' currency; the rest
 * keep BRL. Throws on a path it does not know or a currency that is not three letters.
 */
export function parseCardCurrencies(text: string | undefined): Record<CardChargeMethod, string> {
  const currencies = { ...DEFAULT_CHARGE_CONFIG.cardCurrencies };
  for (const part of (text ?? '').split(',').map((item) => item.trim())) {
    if (!part) continue;
    const [method, currency] = part.split('=').map((item) => item.trim());
    if (!CARD_CHARGE_METHODS.includes(method as CardChargeMethod) || !currency || !/^[A-Za-z]{3}$/.test(currency)) {
      throw new Error(`not a card path and its currency: "${part}" (say widget=RUB, hosted_page=BRL or card=BRL)`);
    }
    currencies[method as CardChargeMethod] = currency.toUpperCase();
  }
  return currencies;
}

/** The currency a payment on `rail` is charged in. */
export function chargeCurrencyOf(rail: ChargeRail, config: ChargeConfig): string {
  return rail in RAIL_CURRENCY
    ? RAIL_CURRENCY[rail as keyof typeof RAIL_CURRENCY]
    : config.cardCurrencies[rail as CardChargeMethod];
}

/** A payment's charge, as the store locked it and keeps it on the payment. */
/**
 * The payment columns that hold its locked charge, as both inserts of a payment write them: the one
 * the store opens (payment-attempts.ts) and the one it records for a payment it never started
 * (payment-event-sql.ts). One list keeps the two in step.
 */
export const CHARGE_COLUMNS = [
  'charge_minor',
  'charge_currency',
  'charge_rate',
  'charge_rate_set_at',
  'charge_locked_at',
] as const;

export interface LockedCharge {
  chargeMinor: number;
  currency: string;
  /** BRL per unit, a plain decimal ("0.057"); "1" for BRL. */
  rate: string;
  /** When the operator set the rate; null for BRL. */
  rateSetAt: Date | null;
  lockedAt: Date;
}

/**
 * The charge of `storeMinor` BRL in `currency`, at the operator's rate now: BRL as it is, another
 * currency converted (half up to its minor unit). A currency without a rate, or whose rate is older
 * than the limit, is a 422 on `currency` (`validation.chargeRateUnavailable`): the payment is not
 * opened rather than charged at a stale rate.
 */
export async function lockCharge(
  sql: Queryable,
  input: { storeMinor: number; currency: string; now: Date; rateMaxAgeMs: number },
): Promise<LockedCharge> {
  const { storeMinor, currency, now } = input;
  if (currency === STORE_CURRENCY) {
    return { chargeMinor: storeMinor, currency, rate: '1', rateSetAt: null, lockedAt: now };
  }
  const [row] = await sql.query(
    qb
      .selectFrom('display_rates')
      .select((eb) => [eb.cast<string>('brl_per_unit', 'text').as('rate'), 'set_at as setAt'])
      .where('currency', '=', currency),
  );
  const fresh = row && now.getTime() - row.setAt.getTime() <= input.rateMaxAgeMs;
  const chargeMinor = fresh ? convertToCharge(storeMinor, plainDecimal(row.rate)) : undefined;
  if (!row || !fresh || !chargeMinor) {
    throw new ValidationError(
      { currency: [CHARGE_RATE_UNAVAILABLE] },
      row
        ? `This way of paying is not available now: the store’s ${currency} rate is out of date. Choose another.`
        : `This way of paying is not available now: the store has no ${currency} rate. Choose another.`,
      { currency },
    );
  }
  return { chargeMinor, currency, rate: plainDecimal(row.rate), rateSetAt: row.setAt, lockedAt: now };
}

/** The charge as the payment calls answer it. */
export function chargeAnswer(charge: LockedCharge, store: { amountMinor: number; currency: string }): Charge {
  return {
    amount_minor: charge.chargeMinor,
    currency: charge.currency,
    store_amount_minor: store.amountMinor,
    store_currency: store.currency,
    rate: charge.rate,
    rate_set_at: charge.rateSetAt?.toISOString() ?? null,
    locked_at: charge.lockedAt.toISOString(),
  };
}

/** `a * b / c` rounded half up, exactly, for non-negative safe integers. */
function proportion(a: number, b: number, c: number): number {
  const twice = BigInt(a) * BigInt(b) * 2n + BigInt(c);
  return Number(twice / (BigInt(c) * 2n));
}

/**
 * A part of a payment's charge (what the provider says it refunded or lost to a chargeback) in the
 * store's BRL: by the payment's own proportion, half up, so that the whole charge is the whole BRL
 * amount exactly, whatever the rate's digits.
 */
export function toStoreMinor(chargePart: number, payment: { amountMinor: number; chargeMinor: number }): number {
  if (payment.chargeMinor === payment.amountMinor || chargePart === 0) return chargePart;
  if (chargePart >= payment.chargeMinor) return payment.amountMinor;
  return proportion(chargePart, payment.amountMinor, payment.chargeMinor);
}

/** A part of a payment's BRL amount (a refund the store asks for) in the charge's currency, as above. */
export function toChargeMinor(storePart: number, payment: { amountMinor: number; chargeMinor: number }): number {
  if (payment.chargeMinor === payment.amountMinor || storePart === 0) return storePart;
  if (storePart >= payment.amountMinor) return payment.chargeMinor;
  return proportion(storePart, payment.chargeMinor, payment.amountMinor);
}
