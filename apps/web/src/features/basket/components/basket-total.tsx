import { ProductListResponseSchema, STORE_CURRENCY } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';
import { approxPrice, displayRate } from '../../../lib/display-rate.ts';
import { formatPrice } from '../../../lib/format.ts';
import { formatRateDate } from '../../../lib/rate-date.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { BasketLine } from '../basket-store.ts';
import { type AppliedPromo, basketTotals } from '../promo-store.ts';
import styles from './basket-total.module.css';

/**
 * Makes sure the display rate of `locale` is known, and re-renders when it arrives. Every answer with
 * prices brings the rate of its language, but after a language switch nothing the basket or the
 * checkout shows is asked for again: the first page of the popular products in that language brings
 * it, once per language a visit uses (the rate is remembered as any answer's is).
 */
function useDisplayRateOf(locale: string) {
  useQuery({
    queryKey: ['display-rate', locale],
    queryFn: ({ signal }) =>
      apiGet('/popular-products', ProductListResponseSchema, { params: { page: 1, lang: locale }, signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * The total; with a promo code, the applied state: the original struck through and the discounted
 * total, recomputed from the lines on every change. In a language with a display rate, what is charged
 * in BRL and about how much that is in the language's currency.
 */
export function BasketTotal({
  lines,
  promo,
  label,
}: {
  lines: readonly BasketLine[];
  promo: AppliedPromo | null;
  label?: string;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  useDisplayRateOf(locale);
  const { totalMinor, payMinor } = basketTotals(lines, promo);
  const price = (minor: number) => formatPrice(minor / 100, STORE_CURRENCY, locale);
  const rate = displayRate(locale);
  const approx = approxPrice(payMinor, locale);
  return (
    <div className={styles.total}>
      <span>{label ?? t('basket.total')}</span>
      <span className={styles.amounts}>
        {promo && (
          <s className={styles.original} data-testid="basket-total-original">
            <span className="visually-hidden">{t('promo.originalTotal')} </span>
            {price(totalMinor)}
          </s>
        )}
        <strong data-testid="basket-total">{price(payMinor)}</strong>
      </span>
      {rate && approx && (
        <p className={styles.approx} data-testid="basket-total-approx">
          {t('basket.approxTotal', {
            price: price(payMinor),
            approx,
            date: formatRateDate(rate.set_at, locale),
          })}
        </p>
      )}
    </div>
  );
}
