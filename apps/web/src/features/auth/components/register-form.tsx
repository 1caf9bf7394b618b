import { zodResolver } from '@hookform/resolvers/zod';
import { NAME_MAX, RegisterRequestSchema } from '@store/contract';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import * as z from 'zod/mini';
import { isLanguage } from '../../../lib/i18n.ts';
import { Trans, useTranslation } from '../../../lib/use-translation.tsx';
import { useRegister } from '../api/register.ts';
import { useServerErrors } from '../hooks/use-server-errors.ts';
import styles from './form.module.css';
import { EmailInput, Field, FormBanner, NewPasswordFields, useMessageText } from './form-parts.tsx';

/** The payload's rules from the contract, plus the agreement the form alone asks for. */
const RegisterFormSchema = z.safeExtend(RegisterRequestSchema, {
  agreement: z.boolean().check(z.refine((value: boolean) => value, { error: 'auth.agreementRequired' })),
});

const FIELDS = ['name', 'email', 'password', 'password_confirmation', 'agreement'] as const;

/** Tab 2 of the auth modal. */
export function RegisterForm({ onSuccess, onOpenLink }: { onSuccess: () => void; onOpenLink: () => void }) {
  const { t, i18n } = useTranslation();
  const message = useMessageText();
  const register = useRegister();
  const form = useForm({
    resolver: zodResolver(RegisterFormSchema),
    defaultValues: { name: '', email: '', password: '', password_confirmation: '', agreement: false },
  });
  const { errors, isSubmitting } = form.formState;
  const { banner, dismissBanner, handleServerError } = useServerErrors(form.setError, FIELDS);

  const submit = form.handleSubmit(async ({ agreement: _agreement, ...values }) => {
    dismissBanner();
    const language = i18n.language;
    try {
      await register.mutateAsync({ ...values, ...(isLanguage(language) ? { locale: language } : {}) });
      onSuccess();
    } catch (error) {
      handleServerError(error);
    }
  });

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label={t('auth.register')}>
      <FormBanner message={banner} onDismiss={dismissBanner} />
      <Field label={t('auth.name')} error={message(errors.name?.message)}>
        {(control) => (
          <input
            {...control}
            autoComplete="username"
            maxLength={NAME_MAX * 2}
            className={styles.input}
            {...form.register('name')}
          />
        )}
      </Field>
      <Field label={t('auth.email')} error={message(errors.email?.message)}>
        {(control) => <EmailInput {...control} {...form.register('email')} />}
      </Field>
      <NewPasswordFields form={form} names={['password', 'password_confirmation']} label={t('auth.password')} />
      <div>
        <label className={styles.checkbox}>
          <input type="checkbox" aria-invalid={Boolean(errors.agreement)} {...form.register('agreement')} />
          <span>
            <Trans
              i18nKey="auth.agreement"
              components={{
                privacy: <Link to="/privacy" onClick={onOpenLink} />,
                offer: <Link to="/contract-offer" onClick={onOpenLink} />,
              }}
            />
          </span>
        </label>
        {errors.agreement && (
          <p className={styles.error} role="alert">
            {message(errors.agreement.message)}
          </p>
        )}
      </div>
      <button type="submit" className={styles.submit} disabled={isSubmitting || Object.keys(errors).length > 0}>
        {t('auth.registerSubmit')}
      </button>
    </form>
  );
}
