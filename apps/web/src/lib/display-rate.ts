import { convertMinorToWhole, type DisplayRate } from '@store/contract';
import { formatNumber } from './format.ts';

/**
 * The rate prices are shown at, by interface language, as the API last sent it: every call with
 * prices carries the rate of its `?lang=`, and it is remembered here before the answer reaches the
 * screen that draws those prices. Prices stay in BRL everywhere else; this only turns one into an
 * approximate figure in the language's currency.
 */
const rates = new Map<unknown, DisplayRate>();

/** Remembers the rate an answer with prices carries (`display`) for the language it was asked in. */
export const rememberDisplayRate = (lang: unknown, answer: unknown) =>
  (answer as { display?: DisplayRate } | null)?.display &&
  rates.set(lang, (answer as { display: DisplayRate }).display);

/**
 * The rate of `lang` when it converts, else undefined: prices are shown as they are. BRL, the store's
 * own currency and the fallback for a missing or stale rate, is the one sent without `set_at`.
 */
export function displayRate(lang: string): DisplayRate | undefined {
  const rate = rates.get(lang);
  return rate?.set_at ? rate : undefined;
}

/**
 * "≈ 1 755 ₽", "≈ ₹1 936": `minor` BRL cents in the currency of `lang`, rounded up to whole units,
 * marked as approximate; undefined when the language shows BRL or has no rate.
 */
export function approxPrice(minor: number | null | undefined, lang: string): string | undefined {
  const rate = displayRate(lang);
  const whole = rate && minor != null ? convertMinorToWhole(minor, rate.rate) : undefined;
  return rate && whole !== undefined
    ? `≈\u00a0${formatNumber(whole, lang, { style: 'currency', currency: rate.currency, currencyDisplay: 'narrowSymbol', maximumFractionDigits: 0 })}`
    : undefined;
}
