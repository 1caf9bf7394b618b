import { RAIL_CURRENCY } from '@store/contract';
import { useId, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Modal } from '../../auth/components/modal.tsx';
import { useSession } from '../../auth/hooks/use-session.ts';
import { PROFILE_PATH } from '../../auth/private-paths.ts';
import { useBasket } from '../../basket/hooks/use-basket.ts';
import { basketTotals, usePromo } from '../../basket/promo-store.ts';
import { CHECKOUT_PATH } from '../../checkout/paths.ts';
import { createUpiPayment } from '../api/pay.ts';
import { cancelledReturnUrl } from '../cancelled-return.ts';
import { closePaymentDialog, openPaymentDialog, type PaymentMode } from '../payment-ui-store.ts';
import { openOrder, showIfUnderWay } from '../start-payment.ts';
import { topUpReturn } from '../topup-return.ts';
import { AmountDue } from './amount-due.tsx';
import cardStyles from './card-form.module.css';
import { ChargeLine, isRateRefusal, RateRefusal } from './charge-line.tsx';
import styles from './upi-dialog.module.css';

/** The payer's details UPI asks for, in the order the form shows them. */
export const UPI_FIELDS = ['firstName', 'lastName', 'upiId', 'email', 'phone', 'address', 'zip'] as const;
type UpiField = (typeof UPI_FIELDS)[number];
type UpiValues = Record<UpiField, string>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s()-]{5,20}$/;
/** A UPI ID (virtual payment address): a handle, "@", the payment app's name ("asha.k@okbank"). */
const UPI_ID = /^[\w.-]{2,256}@[A-Za-z][A-Za-z0-9.-]{1,63}$/;

/**
 * The checkout form messages: every field is required; the email and the phone must also look like one.
 * Returns the message key of each field that fails.
 */
export function upiErrors(values: UpiValues): Partial<Record<UpiField, string>> {
  const errors: Partial<Record<UpiField, string>> = {};
  for (const field of UPI_FIELDS) {
    if (!values[field].trim()) errors[field] = `payer.errors.${field}`;
  }
  if (!errors.email && (!EMAIL.test(values.email.trim()) || values.email.length > 128)) {
    errors.email = 'payer.errors.emailFormat';
  }
  if (!errors.phone && !PHONE.test(values.phone.trim())) errors.phone = 'payer.errors.phoneFormat';
  if (!errors.upiId && !UPI_ID.test(values.upiId.trim())) errors.upiId = 'payer.errors.upiIdFormat';
  return errors;
}

const AUTOCOMPLETE: Record<UpiField, string> = {
  firstName: 'given-name',
  lastName: 'family-name',
  upiId: 'off',
  email: 'email',
  phone: 'tel',
  address: 'street-address',
  zip: 'postal-code',
};

/**
 * The store's own page the provider sends the browser back to, by how the payment ended: a cancel goes
 * back where the payment started (a top-up where it returns to), which says that nothing was charged.
 */
function returnUrls(orderId: string, mode: PaymentMode) {
  const at = (path: string) => new URL(path, window.location.origin).toString();
  return {
    success_url: at(`/?paymentConfirmOrder=${encodeURIComponent(orderId)}`),
    decline_url: at(`/payment-error/${encodeURIComponent(orderId)}`),
    cancel_url: cancelledReturnUrl(mode === 'balance' ? (topUpReturn() ?? PROFILE_PATH) : CHECKOUT_PATH),
  };
}

/**
 * The UPI payment: the payer's details with the checkout form messages, then the provider's page, which
 * returns to Index (success, the status awaited), /payment-error (decline) or where the payment started
 * (cancel).
 */
export function UpiDialog({ mode, amount }: { mode: PaymentMode; amount?: number | undefined }) {
  const { t } = useTranslation();
  const id = useId();
  const { user } = useSession();
  const [values, setValues] = useState<UpiValues>({
    firstName: '',
    lastName: '',
    upiId: '',
    email: user?.email ?? '',
    phone: '',
    address: '',
    zip: '',
  });
  const [validating, setValidating] = useState(false);
  const [sending, setSending] = useState(false);
  const [refused, setRefused] = useState(false);
  const errors = validating ? upiErrors(values) : {};
  const { payMinor } = basketTotals(useBasket(), usePromo());
  const storeMinor = mode === 'balance' ? Math.round((amount ?? 0) * 100) : payMinor;
  const firstError = UPI_FIELDS.find((field) => errors[field]);

  async function start() {
    setValidating(true);
    const found = UPI_FIELDS.find((field) => upiErrors(values)[field]);
    if (found) {
      document.getElementById(`${id}-${found}`)?.focus();
      return;
    }
    if (sending) return;
    setSending(true);
    let orderId: string | undefined;
    try {
      const order = await openOrder({ mode, amount });
      orderId = order.order_id;
      if (order.status === 'fulfilled') {
        openPaymentDialog({ kind: 'processing', orderId: order.order_id });
        return;
      }
      // UPI is charged in rupees: the store converts the order's total at its rate.
      const answer = await createUpiPayment({
        currency: RAIL_CURRENCY.upi,
        description: t('upi.description'),
        FirstName: `${values.firstName.trim()} ${values.lastName.trim()}`,
        AccountNumber: values.upiId.trim(),
        email: values.email.trim(),
        phone: values.phone.trim(),
        zip: values.zip.trim(),
        address: values.address.trim(),
        orderId: order.order_id,
        type: mode,
        ...returnUrls(order.order_id, mode),
      });
      window.location.assign(answer.redirect_url);
    } catch (error) {
      setSending(false);
      if (isRateRefusal(error)) setRefused(true);
      // Paid, or being paid, already (payment.underWay): followed, not an error.
      else if (!showIfUnderWay(error, orderId, mode)) openPaymentDialog({ kind: 'error', mode });
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) closePaymentDialog();
      }}
      title={t('upi.title')}
      description={t('upi.description')}
      showDescription
      testId="upi-modal"
    >
      <form
        className={cardStyles.form}
        noValidate
        aria-busy={sending || undefined}
        onSubmit={(event) => {
          event.preventDefault();
          void start();
        }}
      >
        <AmountDue mode={mode} amount={amount} />
        <ChargeLine currency={RAIL_CURRENCY.upi} storeMinor={storeMinor} />
        {refused && <RateRefusal />}
        {/* Announced once; each field says its own message beneath it. */}
        {firstError && (
          <p className={cardStyles.error} role="alert" data-testid="upi-first-error">
            {t('payer.errors.summary')}
          </p>
        )}
        <div className={styles.grid}>
          {UPI_FIELDS.map((field) => (
            <div key={field} className={`${cardStyles.field} ${field === 'address' ? styles.wide : ''}`}>
              <label htmlFor={`${id}-${field}`}>{t(`payer.${field}`)}</label>
              <input
                id={`${id}-${field}`}
                type={field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'text'}
                inputMode={field === 'phone' ? 'tel' : field === 'email' ? 'email' : undefined}
                autoComplete={AUTOCOMPLETE[field]}
                placeholder={field === 'upiId' ? t('payer.upiIdPlaceholder') : undefined}
                value={values[field]}
                aria-invalid={Boolean(errors[field])}
                aria-describedby={errors[field] ? `${id}-${field}-error` : undefined}
                onChange={(event) => setValues({ ...values, [field]: event.target.value })}
              />
              {errors[field] && (
                <span id={`${id}-${field}-error`} className={cardStyles.error}>
                  {t(errors[field])}
                </span>
              )}
            </div>
          ))}
        </div>
        <button type="submit" className={cardStyles.submit} aria-disabled={sending || undefined}>
          {sending ? t('cardForm.sending') : t('upi.continue')}
        </button>
      </form>
    </Modal>
  );
}
