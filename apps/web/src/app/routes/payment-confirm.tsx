import { useEffect } from 'react';
import { Link, Navigate, useParams } from 'react-router-dom';
import { NotFoundView } from '../../components/ui/not-found-view.tsx';
import { useSession } from '../../features/auth/hooks/use-session.ts';
import { PROFILE_PATH } from '../../features/auth/private-paths.ts';
import { useOrderDelivery } from '../../features/payments/api/get-order-delivery.ts';
import { usePaymentStatus } from '../../features/payments/api/get-payment-status.ts';
import styles from '../../features/payments/components/order-page.module.css';
import { OrderSummaryLine } from '../../features/payments/components/order-summary.tsx';
import { PurchasedProductCard } from '../../features/payments/components/purchased-product.tsx';
import { reportDeliveredPurchase } from '../../features/payments/purchase-analytics.ts';
import { isNotFound } from '../../lib/api-client.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useTranslation } from '../../lib/use-translation.tsx';

/**
 * /payment-confirm/{orderId}: the order's status is polled every second while the payment is `init`;
 * once it is paid, what was bought, with its codes. The purchase is reported to analytics once per
 * order, however often the page is reloaded.
 */
export function PaymentConfirmPage() {
  const { t } = useTranslation();
  const { orderId = '' } = useParams();
  const { token } = useSession();
  const status = usePaymentStatus(orderId, Boolean(token));
  const value = status.data?.status;
  const settled = value !== undefined && value !== 'init';
  const delivery = useOrderDelivery(orderId, Boolean(token) && settled && value !== 'error');
  useDocumentTitle(t('orderPage.confirmTitle'));

  const data = delivery.data;
  useEffect(() => {
    if (!data) return;
    reportDeliveredPurchase(data);
  }, [data]);

  if (!token) return <Navigate to="/" replace />;
  if (isNotFound(status.error) || isNotFound(delivery.error) || status.error) return <NotFoundView />;
  if (value === 'error') return <Navigate to={`/payment-error/${orderId}`} replace />;

  return (
    <div className={styles.page} data-testid="payment-confirm-page">
      <h1 className={styles.title}>{t('orderPage.confirmTitle')}</h1>
      {!data ? (
        <p className={styles.muted} role="status">
          {t('orderPage.waiting')}
        </p>
      ) : (
        <>
          <p className={styles.muted}>{t('orderPage.confirmText')}</p>
          <OrderSummaryLine order={data.order} />
          {data.products.map((product) => (
            <PurchasedProductCard key={product.line_id} product={product} />
          ))}
        </>
      )}
      <div className={styles.actions}>
        <Link className={styles.primary} to={PROFILE_PATH}>
          {t('orderPage.toProfile')}
        </Link>
        <Link className={styles.secondary} to="/">
          {t('orderPage.home')}
        </Link>
      </div>
    </div>
  );
}
