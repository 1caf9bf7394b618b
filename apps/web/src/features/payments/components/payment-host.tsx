import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { hasPaymentReturn, PAYMENT_DIALOG_EVENT } from '../payment-host-signal.ts';

const PaymentDialogs = lazy(() => import('./payment-dialogs-loader.tsx'));

/**
 * Part of the first page load, so it only decides when the payment dialogs are needed: one is asked
 * for (checkout, the profile's top-up), or Index is opened with a return-from-payment parameter.
 */
export function PaymentHost() {
  const { pathname, search } = useLocation();
  const [loaded, setLoaded] = useState(false);
  if (!loaded && pathname === '/' && hasPaymentReturn(search)) setLoaded(true);
  useEffect(() => {
    const load = () => setLoaded(true);
    window.addEventListener(PAYMENT_DIALOG_EVENT, load);
    return () => window.removeEventListener(PAYMENT_DIALOG_EVENT, load);
  }, []);
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <PaymentDialogs />
    </Suspense>
  );
}
