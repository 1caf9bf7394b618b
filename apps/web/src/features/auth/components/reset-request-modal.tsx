import { zodResolver } from '@hookform/resolvers/zod';
import { PasswordResetRequestSchema } from '@store/contract';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useRequestPasswordReset } from '../api/request-password-reset.ts';
import { useServerErrors } from '../hooks/use-server-errors.ts';
import styles from './form.module.css';
import { EmailInput, Field, FormBanner, useMessageText } from './form-parts.tsx';
import { Modal } from './modal.tsx';

const FIELDS = ['email'] as const;

/**
 * The password-reset email request: a valid address of at most 128 characters; the button stays
 * disabled while the field is empty or invalid.
 */
export function ResetRequestModal({ onClose, onSent }: { onClose: () => void; onSent: () => void }) {
  const { t } = useTranslation();
  const message = useMessageText();
  const request = useRequestPasswordReset();
  const form = useForm({
    resolver: zodResolver(PasswordResetRequestSchema),
    defaultValues: { email: '' },
    mode: 'onChange',
  });
  const { errors, isValid, isSubmitting, touchedFields, isSubmitted } = form.formState;
  const { banner, dismissBanner, handleServerError } = useServerErrors(form.setError, FIELDS);
  // Said once the visitor has left the field, not at the first keystroke of an address.
  const showError = Boolean(errors.email) && (touchedFields.email || isSubmitted);
  // A malformed address gets a message of its own here; the server's keys keep theirs.
  const emailError = errors.email?.type === 'server' ? message(errors.email.message) : t('auth.reset.invalidEmail');

  const submit = form.handleSubmit(async (values) => {
    dismissBanner();
    try {
      await request.mutateAsync(values);
      onSent();
    } catch (error) {
      handleServerError(error);
    }
  });

  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('auth.reset.title')}
      description={t('auth.reset.text')}
      showDescription
      testId="reset-request-modal"
    >
      <form className={styles.form} onSubmit={submit} noValidate>
        <FormBanner message={banner} onDismiss={dismissBanner} />
        <Field label={t('auth.email')} error={showError ? emailError : undefined}>
          {(control) => <EmailInput {...control} {...form.register('email')} />}
        </Field>
        <button type="submit" className={styles.submit} disabled={!isValid || isSubmitting}>
          {t('auth.reset.submit')}
        </button>
      </form>
    </Modal>
  );
}
