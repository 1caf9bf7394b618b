import { type Charge, type QrPaymentResponse, RAIL_CURRENCY } from '@store/contract';
import { useId, useRef, useState } from 'react';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Modal } from '../../auth/components/modal.tsx';
import { useBasket } from '../../basket/hooks/use-basket.ts';
import { basketTotals, usePromo } from '../../basket/promo-store.ts';
import { createQrPayment, createSbpPayment } from '../api/pay.ts';
import { closePaymentDialog, openPaymentDialog, type PaymentMode } from '../payment-ui-store.ts';
import { openOrder, showIfUnderWay } from '../start-payment.ts';
import { AmountDue, AmountDueLine } from './amount-due.tsx';
import cardStyles from './card-form.module.css';
import { ChargeLine, isRateRefusal, RateRefusal } from './charge-line.tsx';
import { useReturnStatus } from './processing-dialog.tsx';
import styles from './qr-dialog.module.css';

/**
 * A CPF is exactly 11 characters (docs/payments.md, "The store's payment calls"); the form takes its
 * digits.
 */
export const CPF_DIGITS = 11;

/** Hour and minute, in the form of the language (24-hour in Hindi, as formatDateTime). */
function formatTime(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale, {
    hour: '2-digit',
    minute: '2-digit',
    ...(locale === 'hi' ? { hourCycle: 'h23' as const } : {}),
  }).format(date);
}

const maskCpf = (value: string) => value.replace(/\D/g, '').slice(0, CPF_DIGITS);

/** Waits for the bank: polls the order's status every second and ends in success or the error modal. */
function QrWait({ orderId, topUp }: { orderId: string; topUp: boolean }) {
  useReturnStatus(orderId, topUp);
  const { t } = useTranslation();
  return (
    <p className={styles.wait} role="status" data-testid="qr-waiting">
      <span className={styles.dot} aria-hidden="true" />
      {t('qr.waiting')}
    </p>
  );
}

/** The QR code for a desktop, the pay link for a phone, and the payment code to copy. */
function QrCode({
  qr,
  topUp,
  due,
}: {
  qr: QrPaymentResponse;
  topUp: boolean;
  due: { minor: number; currency: string; charge?: Charge | undefined };
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const codeId = useId();

  async function copyCode() {
    try {
      await navigator.clipboard.writeText(qr.payload);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopy('idle'), 3_000);
  }

  return (
    <div className={styles.qr} data-testid="qr-step">
      <AmountDueLine minor={due.minor} currency={due.currency} />
      {due.charge && <ChargeLine charge={due.charge} currency={due.charge.currency} storeMinor={due.minor} />}
      <img className={styles.image} src={qr.QrImage} alt={t('qr.imageAlt')} width={200} height={200} />
      <p className={styles.validUntil} data-testid="qr-valid-until">
        {t('qr.validUntil', { time: formatTime(qr.expires_at, locale) })}
      </p>
      <a className={styles.link} href={qr.PayLink} target="_blank" rel="noopener noreferrer" data-testid="qr-pay-link">
        {t('qr.payLink')}
      </a>
      <label className={styles.codeLabel} htmlFor={codeId}>
        {t('qr.code')}
      </label>
      <div className={styles.codeRow}>
        <input id={codeId} className={styles.code} readOnly value={qr.payload} data-testid="qr-code" />
        <button type="button" className={styles.copy} onClick={() => void copyCode()}>
          {t('qr.copy')}
        </button>
      </div>
      <p className={styles.copied} role="status">
        {copy === 'copied' ? t('qr.copied') : copy === 'failed' ? t('qr.copyFailed') : ''}
      </p>
      <QrWait orderId={qr.order_id} topUp={topUp} />
    </div>
  );
}

/**
 * The instant bank transfer: for Pix, the payer's CPF (a Pix payment names its payer), then the QR code
 * with its pay link and the code to copy, while the order's status is awaited. SBP asks nothing of the
 * payer and is charged in roubles: the dialog says how much before the code is made, and exactly after.
 */
export function QrDialog({
  mode,
  amount,
  scheme,
}: {
  mode: PaymentMode;
  amount?: number | undefined;
  scheme: 'pix' | 'sbp';
}) {
  const { t } = useTranslation();
  const id = useId();
  const [cpf, setCpf] = useState('');
  const [validating, setValidating] = useState(false);
  const [sending, setSending] = useState(false);
  const [refused, setRefused] = useState(false);
  const [qr, setQr] = useState<{
    answer: QrPaymentResponse;
    minor: number;
    currency: string;
    charge?: Charge | undefined;
  } | null>(null);
  const sbp = scheme === 'sbp';
  const cpfBad = !sbp && cpf.length !== CPF_DIGITS;
  const topUp = mode === 'balance';
  const { payMinor } = basketTotals(useBasket(), usePromo());
  const storeMinor = topUp ? Math.round((amount ?? 0) * 100) : payMinor;

  async function start() {
    setValidating(true);
    if (cpfBad || sending) return;
    setSending(true);
    let orderId: string | undefined;
    try {
      const order = await openOrder({ mode, amount });
      orderId = order.order_id;
      if (order.status === 'fulfilled') {
        openPaymentDialog({ kind: 'processing', orderId: order.order_id });
        return;
      }
      if (sbp) {
        const answer = await createSbpPayment({ type: mode, orderId: order.order_id });
        setQr({
          answer: {
            order_id: answer.order_id,
            payment_id: answer.payment_id,
            QrImage: `data:${answer.sbp.image.media_type};base64,${answer.sbp.image.content}`,
            PayLink: answer.sbp.pay_link,
            payload: answer.sbp.payload,
            expires_at: answer.sbp.expires_at,
          },
          minor: order.total_minor,
          currency: order.currency,
          charge: answer.charge,
        });
        return;
      }
      const answer = await createQrPayment({
        amount: (order.total_minor / 100).toFixed(2),
        currency: order.currency,
        orderId: order.order_id,
        type: mode,
        personalId: cpf,
      });
      setQr({ answer, minor: order.total_minor, currency: order.currency, charge: answer.charge });
    } catch (error) {
      if (isRateRefusal(error)) setRefused(true);
      // Paid, or being paid, already (payment.underWay): followed, not an error.
      else if (!showIfUnderWay(error, orderId, mode)) openPaymentDialog({ kind: 'error', mode });
    } finally {
      setSending(false);
    }
  }

  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) closePaymentDialog();
      }}
      title={sbp ? t('qr.sbpTitle') : t('qr.title')}
      description={qr ? t('qr.scan') : sbp ? t('qr.sbpDescription') : t('qr.description')}
      showDescription
      testId="qr-modal"
    >
      {qr ? (
        <QrCode qr={qr.answer} topUp={topUp} due={{ minor: qr.minor, currency: qr.currency, charge: qr.charge }} />
      ) : (
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
          {sbp && <ChargeLine currency={RAIL_CURRENCY.sbp} storeMinor={storeMinor} />}
          {refused && <RateRefusal />}
          {!sbp && (
            <div className={cardStyles.field}>
              <label htmlFor={`${id}-cpf`}>{t('payer.cpf')}</label>
              <input
                id={`${id}-cpf`}
                inputMode="numeric"
                autoComplete="off"
                // Room for a pasted CPF with its dots and dash; the mask keeps its 11 digits.
                maxLength={CPF_DIGITS + 3}
                value={cpf}
                aria-invalid={validating && cpfBad}
                aria-describedby={`${id}-cpf-hint`}
                onChange={(event) => setCpf(maskCpf(event.target.value))}
              />
              <span id={`${id}-cpf-hint`} className={validating && cpfBad ? cardStyles.error : cardStyles.hint}>
                {validating && cpfBad ? t('payer.errors.cpf', { digits: CPF_DIGITS }) : t('payer.cpfHint')}
              </span>
            </div>
          )}
          <button type="submit" className={cardStyles.submit} aria-disabled={sending || undefined}>
            {sending ? t('cardForm.sending') : t('qr.show')}
          </button>
        </form>
      )}
    </Modal>
  );
}
