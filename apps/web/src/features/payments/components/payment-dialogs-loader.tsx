import { lazy, Suspense } from 'react';
import { ensureTexts } from '../../../lib/i18n.ts';

// The dialogs' code and their texts (the method names are the checkout's) load together. This step
// sits between the layout and the dialogs so that the first download carries one file name for it,
// not the list of everything the dialogs import.
const PaymentDialogs = lazy(() =>
  Promise.all([import('./payment-dialogs.tsx'), ensureTexts('payments'), ensureTexts('basket')]).then(
    ([module]) => module,
  ),
);

export default function PaymentDialogsLoader() {
  return (
    <Suspense fallback={null}>
      <PaymentDialogs />
    </Suspense>
  );
}
