import { zodResolver } from '@hookform/resolvers/zod';
import { ErrorKeys, LoginRequestSchema } from '@store/contract';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useLogin } from '../api/login.ts';
import { useServerErrors } from '../hooks/use-server-errors.ts';
import styles from './form.module.css';
import { EmailInput, Field, FormBanner, PasswordInput, useMessageText } from './form-parts.tsx';

const FIELDS = ['email', 'password'] as const;

/** Tab 1 of the auth modal. */
export function LoginForm({ onSuccess, onForgotPassword }: { onSuccess: () => void; onForgotPassword: () => void }) {
  const { t } = useTranslation();
  const message = useMessageText();
  const login = useLogin();
  const form = useForm({
    resolver: zodResolver(LoginRequestSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const { banner, dismissBanner, handleServerError } = useServerErrors(form.setError, FIELDS);

  const submit = form.handleSubmit(async (values) => {
    dismissBanner();
    try {
      await login.mutateAsync(values);
      onSuccess();
    } catch (error) {
      handleServerError(error);
    }
  });

  // An empty login password gets a message of its own.
  const passwordError =
    errors.password?.message === ErrorKeys.requiredField ? t('auth.passwordEmpty') : message(errors.password?.message);

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label={t('auth.login')}>
      <FormBanner message={banner} onDismiss={dismissBanner} />
      <Field label={t('auth.email')} error={message(errors.email?.message)}>
        {(control) => <EmailInput {...control} {...form.register('email')} />}
      </Field>
      <Field label={t('auth.password')} error={passwordError}>
        {(control) => <PasswordInput {...control} autoComplete="current-password" {...form.register('password')} />}
      </Field>
      <button type="button" className={styles.linkButton} onClick={onForgotPassword}>
        {t('auth.forgotPassword')}
      </button>
      <button type="submit" className={styles.submit} disabled={isSubmitting || Object.keys(errors).length > 0}>
        {t('auth.loginSubmit')}
      </button>
    </form>
  );
}
