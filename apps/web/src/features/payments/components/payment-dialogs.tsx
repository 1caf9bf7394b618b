import { STORE_CURRENCY, TOPUP_MIN } from '@store/contract';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { CloseIcon } from '../../../components/ui/icons.tsx';
import { CheckIcon } from '../../../components/ui/more-icons.tsx';
import { formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import modalStyles from '../../auth/components/modal.module.css';
import { Modal } from '../../auth/components/modal.tsx';
import { PROFILE_PATH } from '../../auth/private-paths.ts';
import { useBasket } from '../../basket/hooks/use-basket.ts';
import { basketTotals, usePromo } from '../../basket/promo-store.ts';
import { CHECKOUT_PATH } from '../../checkout/paths.ts';
import { failureText } from '../failure-reason.ts';
import {
  closePaymentDialog,
  openPaymentDialog,
  type PaymentDialog,
  type PaymentMode,
  usePaymentDialog,
} from '../payment-ui-store.ts';
import { rememberTopUpReturn } from '../topup-return.ts';
import { CardPayment } from './card-form.tsx';
import { MethodChoice } from './method-choice.tsx';
import styles from './payments.module.css';
import { ProcessingDialog } from './processing-dialog.tsx';
import { QrDialog } from './qr-dialog.tsx';
import { ReturnHandler } from './return-handler.tsx';
import { UnderWayDialog } from './under-way-dialog.tsx';
import { UpiDialog } from './upi-dialog.tsx';

const onClosed = (close: () => void) => (open: boolean) => {
  if (!open) close();
};

/**
 * The payment method selection, titled Pay, or Top up for the balance. A top-up that names where it
 * returns notes it, before any method can leave the page.
 */
function MethodsDialog({
  mode,
  amount,
  returnTo,
}: {
  mode: PaymentMode;
  amount?: number | undefined;
  returnTo?: string | undefined;
}) {
  const { t } = useTranslation();
  useEffect(() => {
    if (mode === 'balance' && returnTo) rememberTopUpReturn(returnTo);
  }, [mode, returnTo]);
  const title = mode === 'balance' ? t('payment.methods.topUpTitle') : t('payment.methods.title');
  return (
    <Modal
      open
      onOpenChange={onClosed(closePaymentDialog)}
      title={title}
      description={t(`payment.methods.${mode}Text`)}
      showDescription
      testId="payment-methods-modal"
    >
      <MethodChoice mode={mode} initialAmount={amount} />
    </Modal>
  );
}

/**
 * A short balance (docs/orders.md, "Paying from the balance"): the modal Недостаточно средств with Top
 * up balance. An account that owes the store (a top-up given back after it was spent) gets the same
 * modal with the debt's own title and text: the server spends nothing from the balance until a top-up
 * has paid it.
 */
function InsufficientDialog({ shortMinor, owedMinor }: { shortMinor: number; owedMinor?: number | undefined }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const price = (minor: number) => formatPrice(minor / 100, STORE_CURRENCY, locale);
  const owes = owedMinor !== undefined;
  const description = !owes
    ? t('payment.insufficient.text', { amount: price(shortMinor) })
    : owedMinor > 0
      ? t('payment.owed.text', { amount: price(owedMinor) })
      : t('payment.owed.textNoAmount');
  return (
    <Modal
      open
      onOpenChange={onClosed(closePaymentDialog)}
      title={owes ? t('payment.owed.title') : t('payment.insufficient.title')}
      description={description}
      showDescription
      centered
      testId={owes ? 'balance-owed-modal' : 'insufficient-modal'}
    >
      <span className={`${modalStyles.icon} ${modalStyles.iconDanger}`} aria-hidden="true">
        <CloseIcon size={28} />
      </span>
      <button
        type="button"
        className={modalStyles.ok}
        // The top-up starts at what is missing, in whole units, and at least the smallest top-up. A
        // top-up pays the debt first, so what is owed comes on top of what the order lacks. Once it
        // is paid, the shopper is back at the checkout to pay for the order from the balance.
        onClick={() =>
          openPaymentDialog({
            kind: 'methods',
            mode: 'balance',
            amount: Math.max(TOPUP_MIN, Math.ceil(((owedMinor ?? 0) + shortMinor) / 100)),
            returnTo: CHECKOUT_PATH,
          })
        }
      >
        {t('payment.insufficient.topUp')}
      </button>
    </Modal>
  );
}

/**
 * Payment success, with links to the profile; and the balance top-up success, which after a top-up for
 * an order leaves the shopper at the checkout to pay for it.
 */
function SuccessDialog({
  orderId,
  topUp,
  resume,
}: {
  orderId?: string | undefined;
  topUp?: boolean;
  resume?: boolean | undefined;
}) {
  const { t } = useTranslation();
  const key = topUp ? 'payment.topUpSuccess' : 'payment.success';
  return (
    <Modal
      open
      onOpenChange={onClosed(closePaymentDialog)}
      title={t(`${key}.title`)}
      description={resume ? t('payment.topUpSuccess.resumeText') : t(`${key}.text`)}
      showDescription
      centered
      testId={topUp ? 'topup-success-modal' : 'payment-success-modal'}
    >
      <span className={modalStyles.icon} aria-hidden="true">
        <CheckIcon size={28} />
      </span>
      <div className={styles.actions}>
        {orderId && !topUp && (
          <Link className={styles.secondaryLink} to={`/payment-confirm/${orderId}`} onClick={closePaymentDialog}>
            {t('payment.success.codes')}
          </Link>
        )}
        {resume ? (
          <button type="button" className={modalStyles.ok} onClick={closePaymentDialog}>
            {t('payment.topUpSuccess.resume')}
          </button>
        ) : (
          <Link className={modalStyles.ok} to={PROFILE_PATH} onClick={closePaymentDialog}>
            {t('payment.success.profile')}
          </Link>
        )}
      </div>
    </Modal>
  );
}

/**
 * The payment error modal: Try again reopens the payment choice on Index; closing it goes home. A
 * payment that failed says why and that nothing was charged.
 */
function ErrorDialog({ mode = 'purchase', reason }: { mode?: PaymentMode | undefined; reason?: string | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (open) return;
        closePaymentDialog();
        navigate('/');
      }}
      title={reason === undefined ? t('payment.error.title') : t('payment.error.failedTitle')}
      description={
        reason === undefined ? t('payment.error.text') : `${t(failureText(reason))} ${t('payment.error.text')}`
      }
      showDescription
      centered
      testId="payment-error-modal"
    >
      <span className={`${modalStyles.icon} ${modalStyles.iconDanger}`} aria-hidden="true">
        <CloseIcon size={28} />
      </span>
      <button
        type="button"
        className={modalStyles.ok}
        onClick={() => {
          navigate('/');
          openPaymentDialog({ kind: 'methods', mode });
        }}
      >
        {t('payment.error.retry')}
      </button>
    </Modal>
  );
}

/**
 * A payment given up before it was made (the widget closed, UPI cancelled): it says so and that
 * nothing was charged, and offers the choice of method again; closing it leaves the shopper where
 * they are.
 */
function CancelledDialog({ mode, reason }: { mode: PaymentMode; reason?: string | undefined }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      onOpenChange={onClosed(closePaymentDialog)}
      title={t('payment.cancelled.title')}
      description={reason ? t(failureText(reason)) : t('payment.cancelled.closed')}
      showDescription
      centered
      testId="payment-cancelled-modal"
    >
      <button type="button" className={modalStyles.ok} onClick={() => openPaymentDialog({ kind: 'methods', mode })}>
        {t('payment.cancelled.retry')}
      </button>
    </Modal>
  );
}

/** The card payment modal ("Оплата картой"). */
function CardDialog({
  mode,
  amount,
  consented,
}: {
  mode: PaymentMode;
  amount?: number | undefined;
  consented?: boolean | undefined;
}) {
  const { t } = useTranslation();
  const lines = useBasket();
  const promo = usePromo();
  return (
    <Modal
      open
      onOpenChange={onClosed(closePaymentDialog)}
      title={t('cardForm.title')}
      description={t('cardForm.description')}
      showDescription
      testId="card-modal"
    >
      <CardPayment
        mode={mode}
        payMinor={basketTotals(lines, promo).payMinor}
        initialAmount={amount}
        consented={consented}
      />
    </Modal>
  );
}

function CurrentDialog({ dialog }: { dialog: PaymentDialog }) {
  switch (dialog.kind) {
    case 'methods':
      return <MethodsDialog mode={dialog.mode} amount={dialog.amount} returnTo={dialog.returnTo} />;
    case 'insufficient':
      return <InsufficientDialog shortMinor={dialog.shortMinor} owedMinor={dialog.owedMinor} />;
    case 'card':
      return <CardDialog mode={dialog.mode} amount={dialog.amount} consented={dialog.consented} />;
    case 'qr':
      return <QrDialog mode={dialog.mode} amount={dialog.amount} scheme={dialog.scheme ?? 'pix'} />;
    case 'upi':
      return <UpiDialog mode={dialog.mode} amount={dialog.amount} />;
    case 'processing':
      return <ProcessingDialog orderId={dialog.orderId} topUp={dialog.topUp ?? false} />;
    case 'underWay':
      return <UnderWayDialog orderId={dialog.orderId} topUp={dialog.topUp ?? false} />;
    case 'success':
      return <SuccessDialog orderId={dialog.orderId} />;
    case 'topupSuccess':
      return <SuccessDialog topUp resume={dialog.resume} />;
    case 'error':
      return <ErrorDialog mode={dialog.mode} reason={dialog.reason} />;
    case 'cancelled':
      return <CancelledDialog mode={dialog.mode} reason={dialog.reason} />;
  }
}

/**
 * The dialogs open from the store, not from a Radix trigger, so Radix has nowhere to put the focus
 * back when they close and leaves it on the page. The element that had it when the first dialog of a
 * run opened gets it back once the last one closes (WCAG 2.4.3).
 */
function useFocusReturn(open: boolean) {
  const opener = useRef<HTMLElement | null>(null);
  // A layout effect, so the focus is read before the dialog's focus scope (a passive effect) moves it.
  useLayoutEffect(() => {
    if (open && !opener.current && document.activeElement instanceof HTMLElement) {
      opener.current = document.activeElement;
    }
  }, [open]);
  useEffect(() => {
    if (open || !opener.current) return;
    const target = opener.current;
    opener.current = null;
    // After Radix's own return of the focus, which it makes on a timer once the dialog is gone.
    const timer = window.setTimeout(() => {
      const lost = !document.activeElement || document.activeElement === document.body;
      if (lost && target.isConnected) target.focus();
    }, 0);
    return () => window.clearTimeout(timer);
  }, [open]);
}

/**
 * Every payment dialog, in one chunk loaded the first time one is asked for, and the handling of
 * Index's return-from-payment parameters.
 */
export default function PaymentDialogs() {
  const dialog = usePaymentDialog();
  const { pathname } = useLocation();
  useFocusReturn(dialog !== null);
  return (
    <>
      {pathname === '/' && <ReturnHandler />}
      {dialog && <CurrentDialog dialog={dialog} />}
    </>
  );
}
