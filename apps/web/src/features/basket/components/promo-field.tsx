import { PROMO_CODE_MAX, PROMO_CODE_MIN } from '@store/contract';
import { type FormEvent, useId, useState } from 'react';
import { CloseIcon, TagIcon } from '../../../components/ui/icons.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { rateLimitText } from '../../../lib/rate-limit-text.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { openAuth } from '../../auth/account-ui-store.ts';
import { useSession } from '../../auth/hooks/use-session.ts';
import { promoRefusal, useApplyPromoCode } from '../api/apply-promo-code.ts';
import { type BasketLine, basketTotalMinor } from '../basket-store.ts';
import { flushBasket } from '../basket-sync.ts';
import { clearPromo, setPromo, usePromo } from '../promo-store.ts';
import styles from './promo-field.module.css';

interface PromoFieldProps {
  lines: readonly BasketLine[];
  /** Called before the auth modal opens for a guest (the panel closes first). */
  onLogin?: () => void;
}

/**
 * The code can be sent from PROMO_CODE_MIN characters; once applied, the code and its percent show with
 * an undo. A guest is asked to log in; a refused code gets the invalid-promo-code message and the
 * server's reason; too many tries show the server's own text in a notification that can be dismissed.
 */
export function PromoField({ lines, onLogin }: PromoFieldProps) {
  const { t, i18n } = useTranslation();
  const { token } = useSession();
  const promo = usePromo();
  const apply = useApplyPromoCode();
  // From the click to the answer, the queued changes' flush included.
  const [busy, setBusy] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<{ title: string; detail?: string } | null>(null);
  const [limit, setLimit] = useState<string | null>(null);
  const [loginRefused, setLoginRefused] = useState(false);
  const id = useId();

  if (promo) {
    return (
      <div className={styles.applied} data-testid="promo-applied">
        <TagIcon size={18} />
        <span className={styles.appliedText}>{t('promo.applied', { code: promo.code, discount: promo.discount })}</span>
        <button type="button" className={styles.undo} onClick={clearPromo}>
          {t('promo.undo')}
        </button>
      </div>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.trim().length < PROMO_CODE_MIN || busy) return;
    setError(null);
    setLimit(null);
    setBusy(true);
    try {
      // The server prices the code on the server basket: the customer's queued changes go first.
      if (token && !(await flushBasket())) {
        setError({ title: t('basket.saveFailed') });
        return;
      }
      setPromo(await apply.mutateAsync({ code, totalMinor: basketTotalMinor(lines) }));
      setCode('');
    } catch (failure) {
      const status = failure instanceof ApiError ? failure.status : 0;
      if (status === 401) {
        setLoginRefused(true);
      } else if (status === 429 && failure instanceof ApiError) {
        setLimit(rateLimitText(failure, t, 'promo'));
      } else if (status === 422) {
        const reason = promoRefusal(failure);
        const key = `validation.promo.${reason}`;
        setError({ title: t('promo.invalid'), ...(reason && i18n.exists(key) ? { detail: t(key) } : {}) });
      } else {
        setError({ title: t('errors.generic') });
      }
    } finally {
      setBusy(false);
    }
  };

  const guest = !token;
  const describedBy = [guest || loginRefused ? `${id}-login` : '', error ? `${id}-error` : ''].join(' ').trim();
  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label={t('promo.label')}>
      <label className={styles.label} htmlFor={id}>
        {t('promo.label')}
      </label>
      <div className={styles.row}>
        <input
          id={id}
          className={styles.input}
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
            setError(null);
          }}
          maxLength={PROMO_CODE_MAX}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder={t('promo.placeholder')}
          aria-invalid={Boolean(error)}
          aria-describedby={describedBy || undefined}
        />
        <button type="submit" className={styles.apply} disabled={code.trim().length < PROMO_CODE_MIN || busy}>
          {t('promo.apply')}
        </button>
      </div>
      {(guest || loginRefused) && (
        <p
          className={styles.hint}
          id={`${id}-login`}
          role={loginRefused ? 'alert' : undefined}
          data-testid="promo-login"
        >
          {t('promo.loginRequired')}{' '}
          <button
            type="button"
            className={styles.link}
            onClick={() => {
              onLogin?.();
              openAuth('login', { stay: true });
            }}
          >
            {t('promo.login')}
          </button>
        </p>
      )}
      {error && (
        <p className={styles.error} id={`${id}-error`} role="alert">
          <strong>{error.title}</strong>
          {error.detail && ` ${error.detail}`}
        </p>
      )}
      {limit && (
        <div className={styles.notice} role="alert" data-testid="promo-rate-limit">
          <span>{limit}</span>
          <button
            type="button"
            className={styles.dismiss}
            onClick={() => setLimit(null)}
            aria-label={t('common.close')}
          >
            <CloseIcon size={16} />
          </button>
        </div>
      )}
    </form>
  );
}
