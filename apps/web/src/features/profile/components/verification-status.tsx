import { useState } from 'react';
import { isRateLimited, rateLimitText } from '../../../lib/rate-limit-text.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import formStyles from '../../auth/components/form.module.css';
import { FormBanner } from '../../auth/components/form-parts.tsx';
import { useRequestActivation } from '../api/request-activation.ts';
import { useRequestEmailVerification } from '../api/request-email-verification.ts';
import styles from './profile.module.css';

/**
 * Whether the email is confirmed and the account activated; an unconfirmed email and an account not
 * activated can each ask for their link again.
 */
export function VerificationStatus({ verified, activated }: { verified: boolean; activated: boolean }) {
  const { t } = useTranslation();
  const request = useRequestEmailVerification();
  const activation = useRequestActivation();
  const [error, setError] = useState<string | null>(null);
  const [activationError, setActivationError] = useState<string | null>(null);
  const failureText = (failure: unknown) =>
    isRateLimited(failure) ? rateLimitText(failure, t, 'auth') : t('errors.generic');

  const send = () => {
    setError(null);
    request.mutate(undefined, { onError: (failure) => setError(failureText(failure)) });
  };

  const sendActivation = () => {
    setActivationError(null);
    activation.mutate(undefined, { onError: (failure) => setActivationError(failureText(failure)) });
  };

  return (
    <>
      <div className={styles.row}>
        <span className={styles.label}>{t('profile.emailStatus')}</span>
        <span className={verified ? styles.ok : styles.pending} data-testid="verified-state">
          {verified ? t('profile.verified') : t('profile.notVerified')}
        </span>
      </div>
      {!verified && (
        <>
          <button type="button" className={styles.button} onClick={send} disabled={request.isPending}>
            {t('profile.sendVerification')}
          </button>
          {request.isSuccess && (
            <p className={formStyles.success} role="status">
              {t('profile.verificationSent')}
            </p>
          )}
          <FormBanner message={error} onDismiss={() => setError(null)} />
        </>
      )}
      <div className={styles.row}>
        <span className={styles.label}>{t('profile.accountStatus')}</span>
        <span className={activated ? styles.ok : styles.pending} data-testid="activated-state">
          {activated ? t('profile.activated') : t('profile.notActivated')}
        </span>
      </div>
      {!activated && (
        <>
          <p className={styles.label}>{t('profile.activationHint')}</p>
          <button type="button" className={styles.button} onClick={sendActivation} disabled={activation.isPending}>
            {t('profile.sendActivation')}
          </button>
          {activation.isSuccess && (
            <p className={formStyles.success} role="status">
              {t('profile.activationSent')}
            </p>
          )}
          <FormBanner message={activationError} onDismiss={() => setActivationError(null)} />
        </>
      )}
    </>
  );
}
