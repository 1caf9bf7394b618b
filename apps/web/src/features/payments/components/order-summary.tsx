import { type OrderSummary, orderNumber } from '@store/contract';
import { formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import styles from './order-page.module.css';

/** The order's number, state and total, as the confirmation and failure pages head them. */
export function OrderSummaryLine({ order }: { order: OrderSummary }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <p className={styles.muted} data-testid="order-summary">
      {t('orderPage.order', { id: orderNumber(order.id) })} · {t(`orderPage.status.${order.status}`)} ·{' '}
      {t('orderPage.total', { amount: formatPrice(order.total, order.currency, locale) })}
    </p>
  );
}
