import { zodResolver } from '@hookform/resolvers/zod';
import { PasswordUpdateRequestSchema } from '@store/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/use-translation.tsx';
import formStyles from '../../auth/components/form.module.css';
import {
  Field,
  FormBanner,
  NewPasswordFields,
  PasswordInput,
  useMessageText,
} from '../../auth/components/form-parts.tsx';
import { useServerErrors } from '../../auth/hooks/use-server-errors.ts';
import { useUpdatePassword } from '../api/update-password.ts';

const FIELDS = ['password', 'newPassword', 'new_password_confirmation'] as const;
const EMPTY = { password: '', newPassword: '', new_password_confirmation: '' };

/** First step of a password change; the new password takes effect from the emailed link. */
export function PasswordForm() {
  const { t } = useTranslation();
  const message = useMessageText();
  const update = useUpdatePassword();
  const [sent, setSent] = useState(false);
  const form = useForm({ resolver: zodResolver(PasswordUpdateRequestSchema), defaultValues: EMPTY });
  const { errors, isSubmitting } = form.formState;
  const { banner, dismissBanner, handleServerError } = useServerErrors(form.setError, FIELDS);

  const submit = form.handleSubmit(async (values) => {
    dismissBanner();
    setSent(false);
    try {
      await update.mutateAsync(values);
      form.reset(EMPTY);
      setSent(true);
    } catch (error) {
      handleServerError(error);
    }
  });

  return (
    <form className={formStyles.form} onSubmit={submit} noValidate aria-label={t('profile.passwordTitle')}>
      <FormBanner message={banner} onDismiss={dismissBanner} />
      <Field label={t('profile.currentPassword')} error={message(errors.password?.message)}>
        {(control) => <PasswordInput {...control} autoComplete="current-password" {...form.register('password')} />}
      </Field>
      <NewPasswordFields
        form={form}
        names={['newPassword', 'new_password_confirmation']}
        label={t('profile.newPassword')}
      />
      {sent && (
        <p className={formStyles.success} role="status">
          {t('profile.passwordRequestSent')}
        </p>
      )}
      <button type="submit" className={formStyles.submit} disabled={isSubmitting || Object.keys(errors).length > 0}>
        {t('profile.changePassword')}
      </button>
    </form>
  );
}
