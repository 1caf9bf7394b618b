import type { OrderHistoryItem } from '@store/contract';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatDateTime, formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { PROFILE_PATH } from '../../auth/private-paths.ts';
import { useOrders } from '../api/get-orders.ts';
import { OrderNumber, OrderStatusBadge } from './order-status.tsx';
import styles from './orders.module.css';

/** The address of an order's page in the profile (the receipt email links there too). */
export const orderPath = (orderId: string) => `${PROFILE_PATH}?order=${orderId}`;

function OrderCard({ order }: { order: OrderHistoryItem }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const what =
    order.type === 'balance'
      ? t('orders.topUp')
      : order.lines.map((line) => `${line.name} × ${line.quantity}`).join(', ');
  return (
    <li className={styles.order} data-testid="order-card" data-order-id={order.id}>
      <div className={styles.orderHead}>
        <h3 className={styles.orderTitle}>
          <Link className={styles.orderLink} to={orderPath(order.id)}>
            <OrderNumber orderId={order.id} />
          </Link>
        </h3>
        <OrderStatusBadge status={order.status} />
      </div>
      <p className={styles.muted}>
        {formatDateTime(order.created_at, locale)}
        {order.method && ` · ${t(`orders.method.${order.method}`)}`}
      </p>
      {what && <p className={styles.muted}>{what}</p>}
      <p className={styles.total} data-testid="order-total">
        {formatPrice(order.total_minor / 100, order.currency, locale)}
      </p>
    </li>
  );
}

/**
 * The profile's order history: every order of the customer's, newest first, paid or not, each
 * opening its own page (its codes and its receipt). Pages are kept in the section, not the address:
 * the purchases below page by the address.
 */
export function OrderHistory() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const orders = useOrders(page);
  const data = orders.data;

  return (
    <section className={styles.section} aria-labelledby="orders-title" data-testid="order-history">
      <h2 id="orders-title" className={styles.title}>
        {t('orders.title')}
      </h2>
      {orders.isError && !data ? (
        <p className={styles.note} role="alert">
          {t('orders.failed')}
        </p>
      ) : !data ? (
        <p className={styles.muted}>{t('orders.loading')}</p>
      ) : data.orders.length === 0 ? (
        <p className={styles.muted} data-testid="orders-empty">
          {t('orders.empty')}
        </p>
      ) : (
        <>
          <ul className={styles.list}>
            {data.orders.map((order) => (
              <OrderCard key={order.id} order={order} />
            ))}
          </ul>
          {data.pages > 1 && (
            <nav className={styles.pager} aria-label={t('orders.pages')}>
              <button type="button" className={styles.button} disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t('purchases.previous')}
              </button>
              <span className={styles.muted} aria-live="polite">
                {t('purchases.page', { page: data.page, pages: data.pages })}
              </span>
              <button
                type="button"
                className={styles.button}
                disabled={page >= data.pages}
                onClick={() => setPage(page + 1)}
              >
                {t('purchases.next')}
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
