import { Link } from 'react-router-dom';
import { useTranslation } from '../../../lib/use-translation.tsx';
import styles from './consents.module.css';

export interface ConsentState {
  offer: boolean;
  refund: boolean;
}

export const NO_CONSENT: ConsentState = { offer: false, refund: false };

export const hasConsented = (consent: ConsentState) => consent.offer && consent.refund;

/**
 * The consents, both required before paying by any method: the privacy policy and the public offer, and
 * that digital goods are not refunded once delivered.
 */
export function Consents({ value, onChange }: { value: ConsentState; onChange: (next: ConsentState) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <label className={styles.consent}>
        <input
          type="checkbox"
          checked={value.offer}
          onChange={(event) => onChange({ ...value, offer: event.target.checked })}
        />
        <span>
          {t('cardForm.consentOffer')} (<Link to="/privacy">{t('cardForm.privacy')}</Link>,{' '}
          <Link to="/contract-offer">{t('cardForm.offer')}</Link>)
        </span>
      </label>
      <label className={styles.consent}>
        <input
          type="checkbox"
          checked={value.refund}
          onChange={(event) => onChange({ ...value, refund: event.target.checked })}
        />
        <span>{t('cardForm.consentRefund')}</span>
      </label>
    </>
  );
}
