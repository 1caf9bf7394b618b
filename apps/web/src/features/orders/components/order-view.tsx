import { type OrderHistoryItem, type OrderStatusName, orderNumber } from '@store/contract';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { NotFoundView } from '../../../components/ui/not-found-view.tsx';
import { isNotFound } from '../../../lib/api-client.ts';
import { formatDateTime, formatPrice } from '../../../lib/format.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { PROFILE_PATH } from '../../auth/private-paths.ts';
import { PurchasedProductCard } from '../../payments/components/purchased-product.tsx';
import { downloadReceipt } from '../api/download-receipt.ts';
import { useOrder } from '../api/get-order.ts';
import { useOrderCodes } from '../api/get-order-codes.ts';
import { OrderNumber, OrderStatusBadge } from './order-status.tsx';
import styles from './orders.module.css';

/** Orders whose codes were handed out (or refunded for want of them): the delivery call shows them. */
const DELIVERED: readonly OrderStatusName[] = ['fulfilled', 'partially_refunded', 'refunded'];

function ReceiptButton({ order }: { order: OrderHistoryItem }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  async function download() {
    setState('busy');
    try {
      await downloadReceipt(order.id, `receipt-${orderNumber(order.id)}.pdf`);
      setState('idle');
    } catch {
      setState('failed');
    }
  }
  return (
    <>
      <button
        type="button"
        className={styles.primary}
        disabled={state === 'busy'}
        onClick={() => void download()}
        data-testid="receipt-download"
      >
        {state === 'busy' ? t('orders.receiptBusy') : t('orders.receipt')}
      </button>
      <p className={styles.note} role="alert">
        {state === 'failed' ? t('orders.receiptFailed') : ''}
      </p>
    </>
  );
}

/** The codes of a paid order, as the purchases show them: hidden until asked for, each reveal recorded. */
function OrderCodes({ order }: { order: OrderHistoryItem }) {
  const { t } = useTranslation();
  const delivered = DELIVERED.includes(order.status);
  const delivery = useOrderCodes(order.id, delivered);
  return (
    <section className={styles.section} aria-labelledby="order-codes" data-testid="order-codes">
      <h2 id="order-codes" className={styles.cardTitle}>
        {t('orders.codes')}
      </h2>
      {!delivered ? (
        <p className={styles.muted}>{t('orders.codesWaiting')}</p>
      ) : delivery.isError ? (
        <p className={styles.note} role="alert">
          {t('orders.codesFailed')}
        </p>
      ) : !delivery.data ? (
        <p className={styles.muted}>{t('orders.codesLoading')}</p>
      ) : (
        delivery.data.products.map((product) => <PurchasedProductCard key={product.line_id} product={product} />)
      )}
    </section>
  );
}

/**
 * /profile?order={id}: one of the customer's orders, what it was and what became of it, its receipt
 * once paid and its codes once delivered. Anyone else's order is the 404 page.
 */
export function OrderView({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const query = useOrder(orderId);
  const number = orderNumber(orderId);
  useDocumentTitle(t('orders.number', { number }));
  if (isNotFound(query.error)) return <NotFoundView />;
  const order = query.data?.order;
  const price = (minor: number) => formatPrice(minor / 100, order?.currency ?? 'BRL', locale);

  return (
    <div className={styles.page} data-testid="order-page">
      <Link className={styles.back} to={PROFILE_PATH}>
        {t('orders.back')}
      </Link>
      <div className={styles.orderHead}>
        <h1 className={styles.pageTitle}>
          <OrderNumber orderId={orderId} />
        </h1>
        {order && <OrderStatusBadge status={order.status} />}
      </div>
      {query.isError ? (
        <p className={styles.note} role="alert">
          {t('orders.failed')}
        </p>
      ) : !order ? (
        <p className={styles.muted}>{t('orders.loading')}</p>
      ) : (
        <>
          <section className={styles.card} aria-labelledby="order-details">
            <h2 id="order-details" className={styles.cardTitle}>
              {t('orders.details')}
            </h2>
            <dl className={styles.facts}>
              <dt>{t('orders.createdAt')}</dt>
              <dd>{formatDateTime(order.created_at, locale)}</dd>
              {order.paid_at && (
                <>
                  <dt>{t('orders.paidAt')}</dt>
                  <dd>{formatDateTime(order.paid_at, locale)}</dd>
                </>
              )}
              <dt>{t('orders.methodLabel')}</dt>
              <dd>{order.method ? t(`orders.method.${order.method}`) : t('orders.noMethod')}</dd>
              {order.promo_code && (
                <>
                  <dt>{t('orders.promo')}</dt>
                  <dd>{order.promo_code}</dd>
                </>
              )}
            </dl>
          </section>
          <section className={styles.card} aria-labelledby="order-lines">
            <h2 id="order-lines" className={styles.cardTitle}>
              {t('orders.lines')}
            </h2>
            <ul className={styles.lines}>
              {order.type === 'balance' ? (
                <li className={styles.line}>
                  <span className={styles.lineName}>{t('orders.topUp')}</span>
                  <span className={styles.lineAmount}>{price(order.total_minor)}</span>
                </li>
              ) : (
                order.lines.map((line) => (
                  <li className={styles.line} key={`${line.product_id}:${line.name}`} data-testid="order-line">
                    <span className={styles.lineName}>
                      {line.name}
                      <br />
                      <span className={styles.muted}>
                        {t('orders.unitPrice', { quantity: line.quantity, price: price(line.unit_price_minor) })}
                      </span>
                    </span>
                    <span className={styles.lineAmount}>{price(line.unit_price_minor * line.quantity)}</span>
                  </li>
                ))
              )}
            </ul>
            <dl className={styles.sums}>
              {order.discount_minor > 0 && (
                <>
                  <dt>{t('orders.subtotal')}</dt>
                  <dd>{price(order.subtotal_minor)}</dd>
                  <dt>{t('orders.discount', { code: order.promo_code ?? '' })}</dt>
                  <dd>−{price(order.discount_minor)}</dd>
                </>
              )}
              <dt className={styles.strong}>{t('orders.total')}</dt>
              <dd className={styles.strong} data-testid="order-page-total">
                {price(order.total_minor)}
              </dd>
              {order.paid_minor !== null && (
                <>
                  <dt>{t('orders.paid')}</dt>
                  <dd>{formatPrice(order.paid_minor / 100, order.paid_currency ?? order.currency, locale)}</dd>
                </>
              )}
              {order.refunded_minor > 0 && (
                <>
                  <dt>{t('orders.refunded')}</dt>
                  <dd>{price(order.refunded_minor)}</dd>
                </>
              )}
            </dl>
            {order.receipt ? <ReceiptButton order={order} /> : <p className={styles.muted}>{t('orders.noReceipt')}</p>}
          </section>
          {order.receipt && <OrderCodes order={order} />}
        </>
      )}
    </div>
  );
}
