import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { openPaymentDialog } from '../payment-ui-store.ts';

/**
 * The parameters on Index after a payment page (docs/payments.md, "How the browser goes on"):
 * `paymentConfirmOrder` polls the order's status behind the processing modal, `paymentConfirmBalance`
 * does the same for a top-up, and `showModal=success|error` opens that modal. The parameters are then
 * dropped from the address, so a reload does not start it again.
 */
export function ReturnHandler() {
  const { search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(search);
    const order = params.get('paymentConfirmOrder');
    const balanceOrder = params.get('paymentConfirmBalance');
    const modal = params.get('showModal');
    let handled = true;
    if (order) openPaymentDialog({ kind: 'processing', orderId: order });
    else if (balanceOrder) openPaymentDialog({ kind: 'processing', orderId: balanceOrder, topUp: true });
    else if (modal === 'success') openPaymentDialog({ kind: 'success' });
    else if (modal === 'error') openPaymentDialog({ kind: 'error' });
    else handled = params.has('showModal');
    if (handled) navigate('/', { replace: true });
  }, [search, navigate]);
  return null;
}
