import { useTranslation } from '../../../lib/use-translation.tsx';
import { Modal } from '../../auth/components/modal.tsx';
import { closePaymentDialog } from '../payment-ui-store.ts';
import styles from './payments.module.css';
import { useReturnStatus } from './processing-dialog.tsx';

function UnderWayPoller({ orderId, topUp }: { orderId: string; topUp: boolean }) {
  useReturnStatus(orderId, topUp);
  return null;
}

/**
 * A payment call's 409 payment.underWay: the order is paid, or a payment of it is being decided (a
 * double click, a second tab, a retry after the card was charged). Not an error, and nothing to pay
 * again: the order's status is followed as after a payment page, and this dialog gives way to what
 * that shows (the success with the codes, or the payment error). Unlike the processing dialog it can
 * be closed: this page did not start that payment, which goes on without it, and its codes reach the
 * profile either way.
 */
export function UnderWayDialog({ orderId, topUp }: { orderId?: string | undefined; topUp: boolean }) {
  const { t } = useTranslation();
  // One description, read out as the dialog opens; the promise to show the outcome only when it can.
  const description = orderId
    ? `${t('payment.underWay.text')} ${t('payment.underWay.following')}`
    : t('payment.underWay.text');
  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) closePaymentDialog();
      }}
      title={t('payment.underWay.title')}
      description={description}
      showDescription
      centered
      testId="payment-under-way-modal"
    >
      <span className={`${styles.spinner} ${styles.leading}`} aria-hidden="true" />
      {orderId && <UnderWayPoller orderId={orderId} topUp={topUp} />}
    </Modal>
  );
}
