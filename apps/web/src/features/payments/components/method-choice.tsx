import {
  instantMethodsFor,
  type OfferedPaymentMethod,
  STORE_CURRENCY,
  TOPUP_MAX_DIGITS,
  TOPUP_MIN,
} from '@store/contract';
import { useId, useState } from 'react';
import { formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useSession } from '../../auth/hooks/use-session.ts';
import { useBasket } from '../../basket/hooks/use-basket.ts';
import { basketTotals, usePromo } from '../../basket/promo-store.ts';
import styles from '../../checkout/components/checkout.module.css';
import { useOfferedPaymentMethods } from '../api/get-payment-methods.ts';
import { isTopUpValid, maskTopUp } from '../card-rules.ts';
import { payOnHostedPage, payWithWidget } from '../pay-flows.ts';
import { payFromBalance } from '../pay-from-balance.ts';
import { openPaymentDialog, type PaymentMode } from '../payment-ui-store.ts';
import { type ConsentState, Consents, hasConsented, NO_CONSENT } from './consents.tsx';

/**
 * The payment methods (docs/payments.md, "The provider port"): a bank card through the provider's
 * widget (the default card path), the store's own card form or the provider's hosted page; the
 * instant transfer the shopper's language uses (Pix, SBP or UPI; all three in English); the balance.
 * A top-up cannot be paid from the balance it tops up.
 */
export const PAYMENT_METHODS = ['card', 'cardForm', 'hosted', 'pix', 'sbp', 'upi', 'balance'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The store's name of each method the checkout shows (GET /payments/methods); the balance is the store's own. */
const OFFERED_AS: Record<Exclude<PaymentMethod, 'balance'>, OfferedPaymentMethod> = {
  card: 'widget',
  cardForm: 'card',
  hosted: 'hosted_page',
  pix: 'pix',
  sbp: 'sbp',
  upi: 'upi',
};

/** The methods to show: those of the shopper's language, and of them only those the store offers (when known). */
export function methodsFor(
  mode: PaymentMode,
  locale: string,
  offered?: readonly OfferedPaymentMethod[] | undefined,
): PaymentMethod[] {
  const instant: readonly string[] = instantMethodsFor(locale);
  return PAYMENT_METHODS.filter(
    (id) =>
      !(mode === 'balance' && id === 'balance') &&
      (!['pix', 'sbp', 'upi'].includes(id) || instant.includes(id)) &&
      (id === 'balance' || !offered || offered.includes(OFFERED_AS[id])),
  );
}

/** Starts the chosen method; the ones with a step of their own open its dialog. */
async function startMethod(method: PaymentMethod, mode: PaymentMode, amount: number | undefined) {
  const target = { mode, amount };
  switch (method) {
    case 'card':
      return payWithWidget(target);
    case 'hosted':
      return payOnHostedPage(target);
    case 'cardForm':
      // Both consents were given here: the card form starts with them ticked.
      return openPaymentDialog({ kind: 'card', mode, amount, consented: true });
    case 'pix':
    case 'sbp':
      return openPaymentDialog({ kind: 'qr', mode, amount, scheme: method });
    case 'upi':
      return openPaymentDialog({ kind: 'upi', mode, amount });
    case 'balance':
      return payFromBalance();
  }
}

/**
 * The choice of payment method, on /checkout and in the payment method modal; for a top-up, its
 * amount first (at least 100, at most 7 characters). Both consents are given here, before paying by
 * any method.
 */
export function MethodChoice({
  mode,
  initialAmount,
  initialMethod,
}: {
  mode: PaymentMode;
  initialAmount?: number | undefined;
  /** The method chosen when the form opens (the balance, back from a top-up for this order). */
  initialMethod?: PaymentMethod | undefined;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const offered = useOfferedPaymentMethods();
  const { user } = useSession();
  const lines = useBasket();
  const promo = usePromo();
  const [method, setMethod] = useState<PaymentMethod | null>(initialMethod ?? null);
  const [amount, setAmount] = useState(initialAmount ? maskTopUp(String(initialAmount)) : '');
  const [busy, setBusy] = useState(false);
  const [consent, setConsent] = useState<ConsentState>(NO_CONSENT);
  const noteId = useId();
  const amountId = useId();
  const price = (value: number) => formatPrice(value, STORE_CURRENCY, locale);
  const { payMinor } = basketTotals(lines, promo);
  const topUp = mode === 'balance';
  const amountBad = topUp && !isTopUpValid(amount);

  // While the account owes the store, its balance pays for nothing (the server refuses the spend until
  // a top-up has paid the debt): the balance method says so rather than offering the balance.
  const owedMinor = user?.owed_minor ?? 0;
  const owes = owedMinor > 0;

  const consented = hasConsented(consent);
  const note = !method
    ? t('checkout.chooseMethod')
    : !consented
      ? t('payment.methods.consentsNeeded')
      : method === 'balance' && owes
        ? t('payment.methods.balanceOwedNote')
        : t(`payment.methods.${method}Note`);

  async function pay() {
    if (!method || amountBad || !consented || busy) return;
    setBusy(true);
    try {
      await startMethod(method, mode, topUp ? Number(amount) : undefined);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className={styles.methods}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void pay();
      }}
    >
      {topUp && (
        <div className={styles.amount}>
          <label htmlFor={amountId}>{t('cardForm.amount')}</label>
          <input
            id={amountId}
            inputMode="numeric"
            placeholder={String(TOPUP_MIN)}
            maxLength={TOPUP_MAX_DIGITS}
            value={amount}
            data-testid="topup-amount"
            aria-invalid={amount !== '' && amountBad}
            aria-describedby={`${amountId}-hint`}
            onChange={(event) => setAmount(maskTopUp(event.target.value))}
          />
          <span id={`${amountId}-hint`} className={styles.muted}>
            {amount !== '' && amountBad
              ? t('cardForm.errors.amount', { min: price(TOPUP_MIN) })
              : t('cardForm.amountHint', { min: price(TOPUP_MIN), digits: TOPUP_MAX_DIGITS })}
          </span>
        </div>
      )}
      <fieldset className={styles.methodList}>
        <legend className="visually-hidden">{t('checkout.payment')}</legend>
        {methodsFor(mode, locale, offered).map((id) => (
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
                {id === 'balance' && owes
                  ? t('checkout.methods.balance.owed', { owed: price(owedMinor / 100) })
                  : t(`checkout.methods.${id}.text`, { balance: price(user?.balance ?? 0) })}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <p className={styles.muted} id={noteId} role="status" data-testid="payment-note">
        {note}
      </p>
      <div className={styles.consents}>
        <Consents value={consent} onChange={setConsent} />
      </div>
      {/* While paying, the button refuses a second press but keeps the focus (a disabled one drops it
          to the page), so the dialog that answers gives it back to the button when it closes. */}
      <button
        type="submit"
        className={styles.pay}
        disabled={!method || amountBad || !consented}
        aria-disabled={busy || undefined}
        aria-describedby={noteId}
      >
        {topUp ? t('payment.methods.continue') : t('checkout.pay', { amount: price(payMinor / 100) })}
      </button>
    </form>
  );
}
