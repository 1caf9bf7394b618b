import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { openPaymentDialog, type PaymentMode } from './payment-ui-store.ts';

/** The parameter a payment given up at the provider (UPI's Cancel) comes back with. */
export const CANCELLED_PARAM = 'paymentCancelled';

/** Where a payment given up at the provider returns: the page it was started from, told so. */
export function cancelledReturnUrl(path: string): string {
  const url = new URL(path, window.location.origin);
  url.searchParams.set(CANCELLED_PARAM, '1');
  return url.toString();
}

/**
 * On the page a payment was started from (the checkout, the profile): a return with the cancelled
 * parameter says the payment was cancelled and that nothing was charged, then drops the parameter
 * so a reload does not say it again.
 */
export function useCancelledReturn(mode: PaymentMode) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(search);
    if (!params.has(CANCELLED_PARAM)) return;
    params.delete(CANCELLED_PARAM);
    const rest = params.toString();
    navigate({ pathname, search: rest ? `?${rest}` : '' }, { replace: true });
    openPaymentDialog({ kind: 'cancelled', mode, reason: 'cancelled_by_payer' });
  }, [pathname, search, navigate, mode]);
}
