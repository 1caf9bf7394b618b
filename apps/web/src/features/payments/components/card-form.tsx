import {
  CARD_NUMBER_MAX_DIGITS,
  type CardType,
  type PaymentResponse,
  STORE_CURRENCY,
  TOPUP_MAX_DIGITS,
  TOPUP_MIN,
} from '@store/contract';
import { useEffect, useId, useMemo, useState } from 'react';
import { CardLogo } from '../../../components/ui/card-logo.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { EyeIcon, EyeOffIcon } from '../../auth/components/eye-icons.tsx';
import { getCardType } from '../api/get-card-type.ts';
import { startPayment } from '../api/pay.ts';
import {
  acceptCvv,
  canSubmitCardForm,
  cardNumberDigits,
  cardTypePrefix,
  createCardTypeLookup,
  isCardNumberComplete,
  isTopUpValid,
  maskCardNumber,
  maskCvv,
  maskExpiry,
  maskTopUp,
  parseExpiry,
} from '../card-rules.ts';
import { failureText } from '../failure-reason.ts';
import { openPaymentDialog, type PaymentMode } from '../payment-ui-store.ts';
import { attemptToken, followCardChallenge, openOrder, showIfUnderWay } from '../start-payment.ts';
import styles from './card-form.module.css';
import { type ConsentState, Consents, NO_CONSENT } from './consents.tsx';

interface CardFormProps {
  mode: PaymentMode;
  payMinor: number;
  /** A top-up's amount chosen before the form opened. */
  initialAmount?: number | undefined;
  /** Both consents were given with the method: the form starts with them ticked. */
  consented?: boolean | undefined;
}

/**
 * Charges the card (docs/payments.md, "How the browser goes on"): a purchase first makes its order
 * (POST /orders/create), a top-up names its value; POST /payment answers success (the order's status is
 * then awaited behind the processing modal), failed, or a 3-D Secure step the browser is sent to.
 * A 409 payment.underWay (a second press, a payment already made in another tab) charges nothing:
 * the order is followed as paid. Resolves why the attempt failed here (the provider's reason, `other`
 * when it named none), or null.
 */
async function chargeCard(
  mode: PaymentMode,
  amount: number | undefined,
  card: { number: string; month: number; year: number; cvc: string },
): Promise<string | null> {
  let orderId: string | undefined;
  if (mode === 'purchase') {
    const order = await openOrder({ mode });
    // A promo code that leaves nothing to pay completes the order when it is made.
    if (order.status === 'fulfilled') {
      openPaymentDialog({ kind: 'processing', orderId: order.order_id });
      return null;
    }
    orderId = order.order_id;
  }
  let answer: PaymentResponse;
  try {
    answer = await startPayment({
      type: mode,
      ...(orderId ? { orderId } : { value: amount }),
      token: attemptToken(),
      card_number: card.number,
      month: card.month,
      year: card.year,
      cvc: card.cvc,
      screenHeight: window.screen.height,
      screenWidth: window.screen.width,
      timeZoneOffset: new Date().getTimezoneOffset(),
    });
  } catch (error) {
    if (showIfUnderWay(error, orderId, mode)) return null;
    throw error;
  }
  if (answer.status === 'failed') return answer.reason;
  if (answer.status === 'widget') return 'other';
  if (answer.status === 'success') {
    openPaymentDialog({ kind: 'processing', orderId: answer.order_id, topUp: mode === 'balance' });
    return null;
  }
  followCardChallenge(answer);
  return null;
}

/**
 * The card form and, after a failed attempt, the error screen whose Try again resets the form: a
 * declined card says why (the provider's reason) and that nothing was charged.
 */
export function CardPayment(props: CardFormProps) {
  const { t } = useTranslation();
  const [attempt, setAttempt] = useState(0);
  // Why the last attempt failed: null while none has, '' when the call itself failed.
  const [failed, setFailed] = useState<string | null>(null);
  if (failed !== null) {
    return (
      <div className={styles.failed} data-testid="card-failed" role="alert">
        <h3 className={styles.failedTitle}>{t('cardForm.failed.title')}</h3>
        <p>{failed ? t(failureText(failed)) : t('cardForm.failed.text')}</p>
        <button
          type="button"
          className={styles.submit}
          // The new form's first field takes the focus, so a keyboard user goes on from there.
          onClick={() => {
            setFailed(null);
            setAttempt(attempt + 1);
          }}
        >
          {t('cardForm.failed.retry')}
        </button>
      </div>
    );
  }
  return <CardForm key={attempt} {...props} autoFocus={attempt > 0} onFailed={(reason) => setFailed(reason)} />;
}

/**
 * The store's own card form ("Оплата картой"): the card fields with their masks and clearing rules, the
 * brand looked up once per 8-digit prefix, both consents, the top-up amount for a top-up, and submit
 * enabled only when all of that holds. Submitting charges the card.
 */
export function CardForm({
  mode,
  payMinor,
  initialAmount,
  consented = false,
  autoFocus = false,
  onFailed = () => {},
}: CardFormProps & { autoFocus?: boolean; onFailed?: (reason: string) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvv, setCvv] = useState('');
  const [cvvShown, setCvvShown] = useState(false);
  const [amount, setAmount] = useState(initialAmount ? String(initialAmount) : '');
  const [consent, setConsent] = useState<ConsentState>(consented ? { offer: true, refund: true } : NO_CONSENT);
  const [brand, setBrand] = useState<{ prefix: string; type: CardType | null } | null>(null);
  const [sending, setSending] = useState(false);
  const [numberRefused, setNumberRefused] = useState(false);
  const lookup = useMemo(() => createCardTypeLookup(async (prefix) => (await getCardType(prefix)).type), []);

  const prefix = cardTypePrefix(number);
  useEffect(() => {
    if (!prefix) return;
    let current = true;
    lookup(prefix).then(
      (type) => {
        if (current) setBrand({ prefix, type });
      },
      () => {
        // The brand is only shown; a failed lookup leaves it blank and the form still usable.
        if (current) setBrand({ prefix, type: null });
      },
    );
    return () => {
      current = false;
    };
  }, [prefix, lookup]);

  const type = brand && brand.prefix === prefix ? brand.type : null;
  const topUp = mode === 'balance';
  const ready = canSubmitCardForm({
    number,
    expiry,
    cvv,
    consentOffer: consent.offer,
    consentRefund: consent.refund,
    paymentDataReady: brand !== null && brand.prefix === prefix,
    topUp,
    amount,
  });
  const price = formatPrice(topUp ? Number(amount || 0) : payMinor / 100, STORE_CURRENCY, locale);

  return (
    <form
      className={styles.form}
      noValidate
      data-testid="card-form"
      aria-busy={sending || undefined}
      onSubmit={(event) => {
        event.preventDefault();
        const expires = parseExpiry(expiry);
        if (!ready || sending || !expires) return;
        setSending(true);
        setNumberRefused(false);
        const card = {
          number: cardNumberDigits(number),
          month: Number(expires.month),
          year: Number(expires.year),
          cvc: cvv,
        };
        chargeCard(mode, topUp ? Number(amount) : undefined, card).then(
          (declined) => {
            if (declined) onFailed(declined);
          },
          (error: unknown) => {
            setSending(false);
            // The provider refuses a number no card can have (its check digit): the field says so.
            if (error instanceof ApiError && error.fieldErrors.card_number) setNumberRefused(true);
            else onFailed('');
          },
        );
      }}
    >
      {topUp && (
        <div className={styles.field}>
          <label htmlFor={`${id}-amount`}>{t('cardForm.amount')}</label>
          <input
            id={`${id}-amount`}
            // biome-ignore lint/a11y/noAutofocus: after Try again the form starts over at its first field.
            autoFocus={autoFocus}
            inputMode="numeric"
            placeholder={String(TOPUP_MIN)}
            maxLength={TOPUP_MAX_DIGITS}
            value={amount}
            aria-invalid={amount !== '' && !isTopUpValid(amount)}
            aria-describedby={`${id}-amount-hint`}
            onChange={(event) => setAmount(maskTopUp(event.target.value))}
          />
          <span id={`${id}-amount-hint`} className={styles.hint}>
            {amount !== '' && !isTopUpValid(amount)
              ? t('cardForm.errors.amount', { min: formatPrice(TOPUP_MIN, STORE_CURRENCY, locale) })
              : t('cardForm.amountHint', {
                  min: formatPrice(TOPUP_MIN, STORE_CURRENCY, locale),
                  digits: TOPUP_MAX_DIGITS,
                })}
          </span>
        </div>
      )}
      <div className={styles.field}>
        <label htmlFor={`${id}-number`}>{t('cardForm.number')}</label>
        <div className={styles.withLogo}>
          <input
            id={`${id}-number`}
            autoComplete="cc-number"
            inputMode="numeric"
            placeholder="0000 0000 0000 0000"
            maxLength={CARD_NUMBER_MAX_DIGITS + 3}
            value={number}
            // biome-ignore lint/a11y/noAutofocus: after Try again the form starts over at its first field.
            autoFocus={autoFocus && !topUp}
            aria-invalid={numberRefused || (number !== '' && !isCardNumberComplete(number))}
            aria-describedby={numberRefused ? `${id}-number-error` : undefined}
            onChange={(event) => {
              setNumberRefused(false);
              setNumber(maskCardNumber(event.target.value));
            }}
          />
          <span className={styles.logo} data-testid="card-brand">
            {type && <CardLogo type={type} width={40} />}
          </span>
        </div>
        {numberRefused && (
          <span id={`${id}-number-error`} className={styles.error} role="alert">
            {t('cardForm.errors.number')}
          </span>
        )}
      </div>
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor={`${id}-expiry`}>{t('cardForm.expiry')}</label>
          <input
            id={`${id}-expiry`}
            autoComplete="cc-exp"
            inputMode="numeric"
            placeholder={t('cardForm.expiryPlaceholder')}
            maxLength={5}
            value={expiry}
            onChange={(event) => setExpiry(maskExpiry(event.target.value))}
            // An expiry that is not whole and valid is cleared.
            onBlur={() => {
              if (!parseExpiry(expiry)) setExpiry('');
            }}
          />
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-cvv`}>{t('cardForm.cvv')}</label>
          <div className={styles.withLogo}>
            <input
              id={`${id}-cvv`}
              type={cvvShown ? 'text' : 'password'}
              autoComplete="cc-csc"
              inputMode="numeric"
              maxLength={3}
              value={cvv}
              onChange={(event) => setCvv(maskCvv(event.target.value))}
              onBlur={() => setCvv(acceptCvv(cvv))}
            />
            <button
              type="button"
              className={styles.eye}
              aria-label={cvvShown ? t('cardForm.hideCvv') : t('cardForm.showCvv')}
              aria-pressed={cvvShown}
              onClick={() => setCvvShown(!cvvShown)}
            >
              {cvvShown ? <EyeOffIcon /> : <EyeIcon />}
            </button>
          </div>
        </div>
      </div>
      <Consents value={consent} onChange={setConsent} />
      <button type="submit" className={styles.submit} disabled={!ready} aria-disabled={sending || undefined}>
        {sending ? t('cardForm.sending') : topUp ? t('cardForm.topUp') : t('cardForm.pay', { amount: price })}
      </button>
    </form>
  );
}
