import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { NotFoundView } from '../../components/ui/not-found-view.tsx';
import { useSession } from '../../features/auth/hooks/use-session.ts';
import { useOrderDelivery } from '../../features/payments/api/get-order-delivery.ts';
import { usePaymentStatus } from '../../features/payments/api/get-payment-status.ts';
import styles from '../../features/payments/components/order-page.module.css';
import { OrderSummaryLine } from '../../features/payments/components/order-summary.tsx';
import { failureText } from '../../features/payments/failure-reason.ts';
import { openPaymentDialog } from '../../features/payments/payment-ui-store.ts';
import { isNotFound } from '../../lib/api-client.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useTranslation } from '../../lib/use-translation.tsx';

/**
 * /payment-error/{orderId}: what happened to the order (a failed one says why, and that nothing was
 * charged), and Try again, which reopens the payment choice
 * on Index as the payment error modal's does. An order that did get paid meanwhile goes to its
 * confirmation.
 */
export function PaymentErrorPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { orderId = '' } = useParams();
  const { token } = useSession();
  const status = usePaymentStatus(orderId, Boolean(token));
  const delivery = useOrderDelivery(orderId, Boolean(token));
  useDocumentTitle(t('orderPage.failedTitle'));

  if (!token) return <Navigate to="/" replace />;
  if (isNotFound(status.error) || isNotFound(delivery.error) || status.error) return <NotFoundView />;
  const value = status.data?.status;
  if (value && value !== 'init' && value !== 'error') return <Navigate to={`/payment-confirm/${orderId}`} replace />;

  return (
    <div className={styles.page} data-testid="payment-error-page">
      <h1 className={styles.title}>{t('orderPage.failedTitle')}</h1>
      <div className={styles.card}>
        <p className={styles.muted} role="status">
          {value === 'init'
            ? t('orderPage.unpaidText')
            : value === 'error'
              ? t(failureText(status.data?.reason))
              : t('orderPage.failedText')}
        </p>
        {delivery.data && <OrderSummaryLine order={delivery.data.order} />}
      </div>
      <div className={styles.actions}>
        <button
          type="button"
          className={styles.primary}
          onClick={() => {
            navigate('/');
            openPaymentDialog({ kind: 'methods', mode: 'purchase' });
          }}
        >
          {t('orderPage.retry')}
        </button>
        <Link className={styles.secondary} to="/">
          {t('orderPage.home')}
        </Link>
      </div>
    </div>
  );
}
