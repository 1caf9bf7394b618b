import { CARD_NUMBER_MAX_DIGITS, type CardType, STORE_CURRENCY, TOPUP_MAX_DIGITS, TOPUP_MIN } from '@store/contract';
import { useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { CardLogo } from '../../../components/ui/card-logo.tsx';
import { formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { EyeIcon, EyeOffIcon } from '../../auth/components/eye-icons.tsx';
import { getCardType } from '../api/get-card-type.ts';
import {
  acceptCvv,
  canSubmitCardForm,
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
import type { PaymentMode } from '../payment-ui-store.ts';
import styles from './card-form.module.css';

/**
 * SPEC.md section 4's own card form ("Оплата картой"): the fields of section 5 with their masks and
 * clearing rules, the brand looked up once per 8-digit prefix, both consents, the top-up amount for
 * a top-up, and submit enabled only when all of that holds. The server side of the card payment
 * (POST /payment) is not in the store yet, so submitting says so plainly instead of pretending.
 */
export function CardForm({ mode, payMinor }: { mode: PaymentMode; payMinor: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvv, setCvv] = useState('');
  const [cvvShown, setCvvShown] = useState(false);
  const [amount, setAmount] = useState('');
  const [consentOffer, setConsentOffer] = useState(false);
  const [consentRefund, setConsentRefund] = useState(false);
  const [brand, setBrand] = useState<{ prefix: string; type: CardType | null } | null>(null);
  const [submitted, setSubmitted] = useState(false);
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
    consentOffer,
    consentRefund,
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
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) setSubmitted(true);
      }}
    >
      {topUp && (
        <div className={styles.field}>
          <label htmlFor={`${id}-amount`}>{t('cardForm.amount')}</label>
          <input
            id={`${id}-amount`}
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
              ? t('cardForm.errors.amount', { min: TOPUP_MIN })
              : t('cardForm.amountHint', { min: TOPUP_MIN, digits: TOPUP_MAX_DIGITS })}
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
            aria-invalid={number !== '' && !isCardNumberComplete(number)}
            onChange={(event) => setNumber(maskCardNumber(event.target.value))}
          />
          <span className={styles.logo} data-testid="card-brand">
            {type && <CardLogo type={type} width={40} />}
          </span>
        </div>
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
            // SPEC.md section 5: an expiry that is not whole and valid is cleared.
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
      <label className={styles.consent}>
        <input type="checkbox" checked={consentOffer} onChange={(event) => setConsentOffer(event.target.checked)} />
        <span>
          {t('cardForm.consentOffer')} (<Link to="/privacy">{t('cardForm.privacy')}</Link>,{' '}
          <Link to="/contract-offer">{t('cardForm.offer')}</Link>)
        </span>
      </label>
      <label className={styles.consent}>
        <input type="checkbox" checked={consentRefund} onChange={(event) => setConsentRefund(event.target.checked)} />
        <span>{t('cardForm.consentRefund')}</span>
      </label>
      {submitted && (
        <p className={styles.unavailable} role="alert" data-testid="card-unavailable">
          {t('cardForm.unavailable')}
        </p>
      )}
      <button type="submit" className={styles.submit} disabled={!ready}>
        {topUp ? t('cardForm.topUp') : t('cardForm.pay', { amount: price })}
      </button>
    </form>
  );
}
