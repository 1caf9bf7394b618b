import { zodResolver } from '@hookform/resolvers/zod';
import { EmailTokenSchema, PasswordResetConfirmSchema } from '@store/contract';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../../lib/api-client.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { showNotice } from '../account-ui-store.ts';
import { usePasswordResetCheck } from '../api/check-password-reset.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { useServerErrors } from '../hooks/use-server-errors.ts';
import styles from './form.module.css';
import { FormBanner, NewPasswordFields, useMessageText } from './form-parts.tsx';
import { Modal } from './modal.tsx';

const FIELDS = ['password', 'password_confirmation'] as const;

/**
 * /password-reset/{token}: a new password and its repeat, then the password-created modal. The link is
 * checked first: a used or expired one says so instead of showing a form that could only fail.
 */
export function PasswordResetDialog({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const _message = useMessageText();
  const reset = useResetPassword();
  const tokenValid = EmailTokenSchema.safeParse(token).success;
  const check = usePasswordResetCheck(token, tokenValid);
  // Only the server's "this link is dead" closes the form; a rate limit or a lost connection leaves
  // it to the submit to find out.
  const linkDead = check.error instanceof ApiError && check.error.status === 422;
  const form = useForm({
    resolver: zodResolver(PasswordResetConfirmSchema),
    defaultValues: { password: '', password_confirmation: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const { banner, dismissBanner, handleServerError } = useServerErrors(form.setError, FIELDS);

  useEffect(() => {
    if (!tokenValid) {
      navigate('/', { replace: true });
      showNotice('linkInvalid');
    }
  }, [tokenValid, navigate]);

  useEffect(() => {
    if (linkDead) {
      navigate('/', { replace: true });
      showNotice('linkUsed');
    }
  }, [linkDead, navigate]);

  const submit = form.handleSubmit(async (values) => {
    dismissBanner();
    try {
      await reset.mutateAsync({ ...values, token });
      navigate('/', { replace: true });
      showNotice('passwordCreated');
    } catch (error) {
      handleServerError(error);
    }
  });

  if (!tokenValid || linkDead || check.isPending) return null;
  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) navigate('/', { replace: true });
      }}
      title={t('auth.newPassword.title')}
      description={t('auth.newPassword.text')}
      showDescription
      testId="password-reset-modal"
    >
      <form className={styles.form} onSubmit={submit} noValidate>
        <FormBanner message={banner} onDismiss={dismissBanner} />
        <NewPasswordFields
          form={form}
          names={['password', 'password_confirmation']}
          label={t('auth.newPassword.password')}
        />
        <button type="submit" className={styles.submit} disabled={isSubmitting || Object.keys(errors).length > 0}>
          {t('auth.newPassword.submit')}
        </button>
      </form>
    </Modal>
  );
}
