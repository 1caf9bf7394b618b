import * as Dialog from '@radix-ui/react-dialog';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { refreshSession } from '../../auth/api/get-user.ts';
import modalStyles from '../../auth/components/modal.module.css';
import { refreshBasket } from '../../basket/basket-sync.ts';
import { CHECKOUT_PATH } from '../../checkout/paths.ts';
import { getOrderDelivery } from '../api/get-order-delivery.ts';
import { usePaymentStatus } from '../api/get-payment-status.ts';
import { PURCHASED_QUERY_KEY } from '../api/get-purchased.ts';
import { openPaymentDialog } from '../payment-ui-store.ts';
import { reportDeliveredPurchase } from '../purchase-analytics.ts';
import { CHECKOUT_WITH_BALANCE, takeTopUpReturn } from '../topup-return.ts';
import styles from './payments.module.css';

/** A refusal that polling again cannot change (a malformed or someone else's order); 429 can. */
const isFinal = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;

/**
 * The return from a payment (docs/payments.md, "How the browser goes on"): the order's status is polled
 * every second; `init` keeps this dialog open, `error` opens the error modal, anything else is a
 * success: the basket reloaded, the shopper on Index with the success modal (the top-up's own for a
 * top-up, back where the top-up started).
 */
export function useReturnStatus(orderId: string, topUp: boolean) {
  const navigate = useNavigate();
  const status = usePaymentStatus(orderId);
  const value = status.data?.status;
  // The order says what it was: a top-up returned by the provider to paymentConfirmOrder is one too.
  const isTopUp = topUp || status.data?.type === 'balance';
  const failed = isFinal(status.error);
  const reason = status.data?.reason;
  useEffect(() => {
    if (failed || value === 'error') {
      // A failed order says why (its payment's reason), and that nothing was charged; a refused poll
      // knows nothing of the payment.
      openPaymentDialog({
        kind: 'error',
        mode: isTopUp ? 'balance' : 'purchase',
        ...(value === 'error' ? { reason: reason ?? 'other' } : {}),
      });
      return;
    }
    if (value === undefined || value === 'init') return;
    void refreshBasket();
    void refreshSession();
    void queryClient.invalidateQueries({ queryKey: ['balance'] });
    void queryClient.invalidateQueries({ queryKey: PURCHASED_QUERY_KEY });
    // A purchase is reported once per order, with what was delivered; a failed read reports nothing
    // here, and the confirmation page reports it when visited.
    if (!isTopUp) getOrderDelivery(orderId).then(reportDeliveredPurchase, () => {});
    // A top-up goes back where it started: to the checkout, the balance chosen to pay for the order
    // (docs/payments.md, "A top-up for an order"), or to the profile.
    const back = isTopUp ? takeTopUpReturn() : null;
    const resume = back === CHECKOUT_PATH;
    navigate(back ?? '/', { replace: true, ...(resume ? { state: CHECKOUT_WITH_BALANCE } : {}) });
    openPaymentDialog(isTopUp ? { kind: 'topupSuccess', resume } : { kind: 'success', orderId });
  }, [value, reason, failed, orderId, isTopUp, navigate]);
}

function ReturnPoller({ orderId, topUp }: { orderId: string; topUp: boolean }) {
  useReturnStatus(orderId, topUp);
  return null;
}

/**
 * The payment processing dialog: the text to wait and not close the browser, and no close button;
 * Escape and an outside click do not close it either.
 */
export function ProcessingDialog({ orderId, topUp }: { orderId?: string | undefined; topUp: boolean }) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open>
      <Dialog.Portal>
        <Dialog.Overlay className={modalStyles.overlay} />
        <Dialog.Content
          className={`${modalStyles.dialog} ${modalStyles.centered}`}
          data-testid="payment-processing-modal"
          onEscapeKeyDown={(event) => event.preventDefault()}
          onPointerDownOutside={(event) => event.preventDefault()}
          onInteractOutside={(event) => event.preventDefault()}
        >
          <span className={styles.spinner} aria-hidden="true" />
          <Dialog.Title className={modalStyles.title}>{t('payment.processing.title')}</Dialog.Title>
          <Dialog.Description className={modalStyles.text}>{t('payment.processing.text')}</Dialog.Description>
          {orderId && <ReturnPoller orderId={orderId} topUp={topUp} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
