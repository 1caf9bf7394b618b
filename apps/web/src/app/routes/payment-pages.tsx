import { ensureTexts } from '../../lib/i18n.ts';
import { PaymentConfirmPage } from './payment-confirm.tsx';
import { PaymentErrorPage } from './payment-error.tsx';

export type PaymentPageName = 'confirm' | 'error';

// One module for both pages: they share nearly all their code, and the first download then carries
// one route import for them instead of two.
export async function loader() {
  await Promise.all([ensureTexts('payments'), ensureTexts('basket')]);
}

export function Component({ page }: { page: PaymentPageName }) {
  return page === 'confirm' ? <PaymentConfirmPage /> : <PaymentErrorPage />;
}
