import { STORE_CURRENCY } from '@store/contract';
import { formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useBasket } from '../../basket/hooks/use-basket.ts';
import { basketTotals, usePromo } from '../../basket/promo-store.ts';
import type { PaymentMode } from '../payment-ui-store.ts';
import styles from './qr-dialog.module.css';

/** "To pay: BRL 59.90": what a payment dialog charges. */
export function AmountDueLine({ minor, currency }: { minor: number; currency: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <p className={styles.due} data-testid="amount-due">
      {t('qr.amountDue', { amount: formatPrice(minor / 100, currency, locale) })}
    </p>
  );
}

/**
 * What a payment dialog is about to charge, before it makes the order: the basket's price with its
 * promo code, or the top-up's amount.
 */
export function AmountDue({ mode, amount }: { mode: PaymentMode; amount?: number | undefined }) {
  const { payMinor } = basketTotals(useBasket(), usePromo());
  const minor = mode === 'balance' ? Math.round((amount ?? 0) * 100) : payMinor;
  return minor > 0 ? <AmountDueLine minor={minor} currency={STORE_CURRENCY} /> : null;
}
