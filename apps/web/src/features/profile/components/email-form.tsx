import { zodResolver } from '@hookform/resolvers/zod';
import { EmailUpdateRequestSchema } from '@store/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/use-translation.tsx';
import formStyles from '../../auth/components/form.module.css';
import { EmailInput, Field, FormBanner, PasswordInput, useMessageText } from '../../auth/components/form-parts.tsx';
import { useServerErrors } from '../../auth/hooks/use-server-errors.ts';
import { useUpdateEmail } from '../api/update-email.ts';
import styles from './profile.module.css';

const FIELDS = ['email', 'password'] as const;
const EMPTY = { email: '', password: '' };

/**
 * The email, and the first step of changing it, which takes the current password: a confirmation
 * link goes to the new address (or, if another account has it, a notice to that account).
 */
export function EmailForm({ email }: { email: string }) {
  const { t } = useTranslation();
  const message = useMessageText();
  const update = useUpdateEmail();
  const [editing, setEditing] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(EmailUpdateRequestSchema), defaultValues: EMPTY });
  const { errors, isSubmitting } = form.formState;
  const { banner, dismissBanner, handleServerError } = useServerErrors(form.setError, FIELDS);

  const submit = form.handleSubmit(async (values) => {
    dismissBanner();
    try {
      await update.mutateAsync(values);
      form.reset(EMPTY);
      setSentTo(values.email);
      setEditing(false);
    } catch (error) {
      handleServerError(error);
    }
  });

  return (
    <>
      <div className={styles.row}>
        <div>
          <div className={styles.label}>{t('profile.email')}</div>
          <div className={styles.value} data-testid="profile-email">
            {email}
          </div>
        </div>
        {!editing && (
          <button
            type="button"
            className={styles.button}
            onClick={() => {
              form.reset(EMPTY);
              setSentTo(null);
              setEditing(true);
            }}
          >
            {t('profile.changeEmail')}
          </button>
        )}
      </div>
      {sentTo && (
        <p className={formStyles.success} role="status">
          {t('profile.emailRequestSent', { email: sentTo })}
        </p>
      )}
      {editing && (
        <form className={formStyles.form} onSubmit={submit} noValidate aria-label={t('profile.changeEmail')}>
          <FormBanner message={banner} onDismiss={dismissBanner} />
          <Field label={t('profile.newEmail')} error={message(errors.email?.message)}>
            {(control) => <EmailInput {...control} {...form.register('email')} />}
          </Field>
          <Field label={t('profile.currentPassword')} error={message(errors.password?.message)}>
            {(control) => <PasswordInput {...control} autoComplete="current-password" {...form.register('password')} />}
          </Field>
          <div className={styles.actions}>
            <button
              type="submit"
              className={formStyles.submit}
              disabled={isSubmitting || Object.keys(errors).length > 0}
            >
              {t('profile.sendConfirmation')}
            </button>
            <button type="button" className={styles.button} onClick={() => setEditing(false)}>
              {t('profile.cancel')}
            </button>
          </div>
        </form>
      )}
    </>
  );
}
