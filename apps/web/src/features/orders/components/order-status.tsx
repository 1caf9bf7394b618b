import { type OrderStatusName, orderNumber } from '@store/contract';
import { useTranslation } from '../../../lib/use-translation.tsx';
import styles from './orders.module.css';

const TONE: Record<OrderStatusName, 'good' | 'bad' | 'waiting'> = {
  created: 'waiting',
  pending: 'waiting',
  paid: 'good',
  fulfilled: 'good',
  partially_refunded: 'waiting',
  refunded: 'bad',
  failed: 'bad',
  cancelled: 'bad',
  expired: 'bad',
};

/** An order's status in words, its colour only a second cue (the word says it all). */
export function OrderStatusBadge({ status }: { status: OrderStatusName }) {
  const { t } = useTranslation();
  return (
    <span className={`${styles.status} ${styles[TONE[status]]}`} data-testid="order-status" data-status={status}>
      {t(`orders.status.${status}`)}
    </span>
  );
}

/**
 * "Order 3F2A1B9C" in the page's language, the number marked as not to be translated: it is a code,
 * the same in every language (a translator, or a check of the page's language, leaves it alone).
 */
export function OrderNumber({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const [before = '', after = ''] = t('orders.number', { number: '\u0000' }).split('\u0000');
  return (
    <>
      {before}
      <span translate="no">{orderNumber(orderId)}</span>
      {after}
    </>
  );
}
