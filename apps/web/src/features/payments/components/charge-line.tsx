import { CHARGE_RATE_UNAVAILABLE, type Charge, convertToCharge, STORE_CURRENCY } from '@store/contract';
import { ApiError } from '../../../lib/api-client.ts';
import { displayRate } from '../../../lib/display-rate.ts';
import { formatNumber, formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import styles from './qr-dialog.module.css';

/**
 * "23 Nov": the day the rate was set, as lib/rate-date.ts writes it; not imported from there, which
 * would make that module a chunk of its own listed on every page's first load.
 */
function rateDay(iso: string | null, locale: string): string {
  const date = new Date(iso ?? '');
  return Number.isNaN(date.getTime())
    ? ''
    : new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' }).format(date);
}

/** "1 755,36 ₽", "₹1 562.50": an amount charged in another currency, to the minor unit. */
function chargeAmount(minor: number, currency: string, locale: string): string {
  return formatNumber(minor / 100, locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
}

/** The store has no current rate for the method's currency: the method is refused, and says so. */
export const isRateRefusal = (error: unknown) =>
  error instanceof ApiError && (error.fieldErrors.currency ?? []).includes(CHARGE_RATE_UNAVAILABLE);

/** The refusal, in the dialog of the method refused: another method is the way on. */
export function RateRefusal() {
  const { t } = useTranslation();
  return (
    <p className={styles.charge} role="alert" data-testid="charge-refused">
      {t('payment.charge.refused')}
    </p>
  );
}

/**
 * What a payment in another currency than BRL charges (docs/currency.md, "What a payment is charged
 * in"): "You pay ₹1 562.50: BRL 100.00 at the store's rate of 23 Nov." With the payment's own charge,
 * the exact amount the provider was asked for; before it, the same conversion of the store's total at
 * the rate the page holds for the language, or, without one, which currency it will be.
 */
export function ChargeLine({
  charge,
  currency,
  storeMinor,
}: {
  charge?: Charge | undefined;
  currency: string;
  storeMinor: number;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (currency === STORE_CURRENCY) return null;
  const rate = displayRate(locale);
  const known =
    charge ??
    (rate?.currency === currency && storeMinor > 0
      ? { amount_minor: convertToCharge(storeMinor, rate.rate), rate_set_at: rate.set_at }
      : undefined);
  return (
    <p className={styles.charge} data-testid="charge-line" data-exact={charge ? 'true' : undefined}>
      {known?.amount_minor !== undefined
        ? t('payment.charge.converted', {
            charge: chargeAmount(known.amount_minor, currency, locale),
            store: formatPrice(storeMinor / 100, STORE_CURRENCY, locale),
            date: rateDay(known.rate_set_at, locale),
          })
        : t('payment.charge.atRate', { currency })}
    </p>
  );
}
