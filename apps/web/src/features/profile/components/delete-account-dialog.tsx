import { zodResolver } from '@hookform/resolvers/zod';
import { AccountDeleteRequestSchema, STORE_CURRENCY } from '@store/contract';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../../lib/api-client.ts';
import { formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { showNotice } from '../../auth/account-ui-store.ts';
import formStyles from '../../auth/components/form.module.css';
import { Field, FormBanner, PasswordInput, useMessageText } from '../../auth/components/form-parts.tsx';
import { Modal } from '../../auth/components/modal.tsx';
import { useServerErrors } from '../../auth/hooks/use-server-errors.ts';
import { useDeleteAccount } from '../api/delete-account.ts';
import styles from './delete-account-dialog.module.css';

const FIELDS = ['password'] as const;

/** Why the server refused (docs/api.md, DELETE /profile): its 409 codes, in the interface language. */
const CONFLICT_TEXTS: Record<string, string> = {
  payment_deciding: 'profile.data.deciding',
  balance_owed: 'profile.data.owes',
};

function conflictKey(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  const code = (error.body as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? CONFLICT_TEXTS[code] : undefined;
}

/**
 * Asks for the password before the account goes, and says first what is erased, what the store
 * keeps and why, and what balance is lost.
 */
export default function DeleteAccountDialog({ balance, onClose }: { balance: number; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const message = useMessageText();
  const navigate = useNavigate();
  const remove = useDeleteAccount();
  const form = useForm({ resolver: zodResolver(AccountDeleteRequestSchema), defaultValues: { password: '' } });
  const { errors, isSubmitting } = form.formState;
  const { banner, dismissBanner, handleServerError, clearBanner } = useServerErrors(form.setError, FIELDS);
  const conflict = conflictKey(remove.error);

  const submit = form.handleSubmit(async (values) => {
    dismissBanner();
    remove.reset();
    try {
      await remove.mutateAsync(values);
      navigate('/', { replace: true });
      showNotice('accountDeleted');
    } catch (error) {
      if (!conflictKey(error)) handleServerError(error);
    }
  });

  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('profile.data.dialogTitle')}
      description={t('profile.data.erased')}
      showDescription
      testId="delete-account-modal"
    >
      <form className={formStyles.form} onSubmit={submit} noValidate aria-label={t('profile.data.dialogTitle')}>
        <p className={styles.note}>{t('profile.data.kept')}</p>
        {balance > 0 && (
          <p className={styles.warning}>
            {t('profile.data.balanceLost', { amount: formatPrice(balance, STORE_CURRENCY, locale) })}
          </p>
        )}
        <FormBanner
          message={conflict ? t(conflict) : banner}
          onDismiss={() => {
            remove.reset();
            clearBanner();
          }}
        />
        <Field label={t('profile.data.password')} error={message(errors.password?.message)}>
          {(control) => <PasswordInput {...control} autoComplete="current-password" {...form.register('password')} />}
        </Field>
        <div className={styles.actions}>
          <button
            type="submit"
            className={styles.dangerButton}
            disabled={isSubmitting || Object.keys(errors).length > 0}
          >
            {t('profile.data.confirm')}
          </button>
          <button type="button" className={styles.button} onClick={onClose}>
            {t('profile.cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
