import { AdminSessionResponseSchema } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { LanguageSwitch } from '../app/shell.tsx';
import { useSession } from '../app/use-session.ts';
import { adminSend } from '../lib/api.ts';
import { errorText, fieldError } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n.tsx';
import { signIn } from '../lib/session.ts';

type SecondFactor = 'totp' | 'recovery';

/** Email, password and the second factor: the authenticator's six digits, or a recovery code. */
export function SignInPage() {
  const { t } = useI18n();
  const { reason } = useSession();
  const [factor, setFactor] = useState<SecondFactor>('totp');

  const mutation = useMutation({
    mutationFn: (form: FormData) => {
      const code = String(form.get('code') ?? '').trim();
      return adminSend(
        'POST',
        '/session',
        {
          email: String(form.get('email') ?? '').trim(),
          password: String(form.get('password') ?? ''),
          ...(factor === 'totp' ? { totp: code } : { recovery_code: code }),
        },
        AdminSessionResponseSchema,
      );
    },
    // The routes see the session and go on to the page that asked for it (app/routes.tsx).
    onSuccess: (answer) => signIn({ token: answer.token, expiresAt: answer.expires_at, staff: answer.staff }),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    mutation.mutate(new FormData(event.currentTarget));
  };
  const error = mutation.error;
  const codeError = fieldError(t, error, factor === 'totp' ? 'totp' : 'recovery_code');

  return (
    <div className="sign-in">
      <div className="sign-in-card">
        <div className="sign-in-head">
          <h1>{t('auth.title')}</h1>
          <LanguageSwitch />
        </div>
        {reason === 'expired' && !mutation.isPending && !error && (
          <p className="notice" role="status">
            {t('auth.expired')}
          </p>
        )}
        <form onSubmit={submit} noValidate>
          <label className="field">
            <span>{t('auth.email')}</span>
            <input name="email" type="email" autoComplete="username" required />
            {fieldError(t, error, 'email') && <small className="field-error">{fieldError(t, error, 'email')}</small>}
          </label>
          <label className="field">
            <span>{t('auth.password')}</span>
            <input name="password" type="password" autoComplete="current-password" required />
            {fieldError(t, error, 'password') && (
              <small className="field-error">{fieldError(t, error, 'password')}</small>
            )}
          </label>
          <fieldset className="segmented">
            <legend>{t('auth.secondFactor')}</legend>
            <label>
              <input type="radio" name="factor" checked={factor === 'totp'} onChange={() => setFactor('totp')} />
              {t('auth.useTotp')}
            </label>
            <label>
              <input
                type="radio"
                name="factor"
                checked={factor === 'recovery'}
                onChange={() => setFactor('recovery')}
              />
              {t('auth.useRecovery')}
            </label>
          </fieldset>
          <label className="field">
            <span>{factor === 'totp' ? t('auth.totp') : t('auth.recoveryCode')}</span>
            <input
              key={factor}
              name="code"
              autoComplete="one-time-code"
              inputMode={factor === 'totp' ? 'numeric' : 'text'}
              maxLength={factor === 'totp' ? 6 : 19}
              required
            />
            {codeError && <small className="field-error">{codeError}</small>}
          </label>
          {error && !codeError && (
            <p className="error" role="alert">
              {errorText(t, error)}
            </p>
          )}
          <button type="submit" className="button primary" disabled={mutation.isPending}>
            {mutation.isPending ? t('auth.signingIn') : t('auth.signIn')}
          </button>
        </form>
      </div>
    </div>
  );
}
