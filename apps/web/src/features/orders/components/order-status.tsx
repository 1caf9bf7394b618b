import type { OrderStatusName } from '@store/contract';
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
