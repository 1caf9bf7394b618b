import { STORE_CURRENCY } from '@store/contract';
import { useId, useState } from 'react';
import { formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useSession } from '../../auth/hooks/use-session.ts';
import { useBasket } from '../../basket/hooks/use-basket.ts';
import { basketTotals, usePromo } from '../../basket/promo-store.ts';
import styles from '../../checkout/components/checkout.module.css';
import { payFromBalance } from '../pay-from-balance.ts';
import { openPaymentDialog, type PaymentMode } from '../payment-ui-store.ts';

/** SPEC.md section 1's payment methods; a top-up cannot be paid from the balance it tops up. */
export const PAYMENT_METHODS = ['card', 'transfer', 'upi', 'balance'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Methods whose server side is not in the store yet: choosing one says so instead of pretending. */
const UNAVAILABLE: readonly PaymentMethod[] = ['transfer', 'upi'];

const methodsFor = (mode: PaymentMode) =>
  mode === 'balance' ? PAYMENT_METHODS.filter((id) => id !== 'balance') : PAYMENT_METHODS;

/**
 * The choice of payment method, on /checkout and in the payment method modal: the balance pays at
 * once (SPEC.md section 4 "Pay from balance"), the card opens the card form.
 */
export function MethodChoice({ mode }: { mode: PaymentMode }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { user } = useSession();
  const lines = useBasket();
  const promo = usePromo();
  const [method, setMethod] = useState<PaymentMethod | null>(null);
  const [busy, setBusy] = useState(false);
  const noteId = useId();
  const price = (amount: number) => formatPrice(amount, STORE_CURRENCY, locale);
  const { payMinor } = basketTotals(lines, promo);
  const unavailable = method !== null && UNAVAILABLE.includes(method);

  const note = !method
    ? t('checkout.chooseMethod')
    : unavailable
      ? t('checkout.notAvailable', { method: t(`checkout.methods.${method}.title`) })
      : t(`payment.methods.${method}Note`);

  async function pay() {
    if (!method || unavailable || busy) return;
    if (method === 'card') {
      openPaymentDialog({ kind: 'card', mode });
      return;
    }
    setBusy(true);
    try {
      await payFromBalance();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className={styles.methods}
      onSubmit={(event) => {
        event.preventDefault();
        void pay();
      }}
    >
      <fieldset className={styles.methodList}>
        <legend className="visually-hidden">{t('checkout.payment')}</legend>
        {methodsFor(mode).map((id) => (
          <label key={id} className={styles.method} data-testid={`payment-${id}`}>
            <input
              type="radio"
              name="payment-method"
              value={id}
              checked={method === id}
              onChange={() => setMethod(id)}
              aria-describedby={method === id ? noteId : undefined}
            />
            <span className={styles.methodText}>
              <span className={styles.methodTitle}>{t(`checkout.methods.${id}.title`)}</span>
              <span className={styles.muted}>
                {t(`checkout.methods.${id}.text`, { balance: price(user?.balance ?? 0) })}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <p
        className={unavailable ? styles.unavailable : styles.muted}
        id={noteId}
        role="status"
        data-testid="payment-note"
      >
        {note}
      </p>
      {/* While paying, the button refuses a second press but keeps the focus (a disabled one drops it
          to the page), so the dialog that answers gives it back to the button when it closes. */}
      <button
        type="submit"
        className={styles.pay}
        disabled={!method || unavailable}
        aria-disabled={busy || undefined}
        aria-describedby={noteId}
      >
        {mode === 'balance' ? t('payment.methods.continue') : t('checkout.pay', { amount: price(payMinor / 100) })}
      </button>
    </form>
  );
}
