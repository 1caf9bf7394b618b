import { EmailTokenSchema } from '@store/contract';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../../lib/api-client.ts';
import { rateLimitText } from '../../../lib/rate-limit-text.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useUndoEmailChange } from '../../profile/api/undo-email-change.ts';
import { showNotice } from '../account-ui-store.ts';
import styles from './form.module.css';
import { FormBanner } from './form-parts.tsx';
import { Modal } from './modal.tsx';

/**
 * /email-change-undo/{token}, from the notice mailed to the address a change of email left. It asks
 * first: the undo signs the account out everywhere, so a link opened by a mail scanner or by mistake
 * must not run it. A dead link says so; the address taken by another account meanwhile, too.
 */
export function EmailChangeUndoDialog({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const undo = useUndoEmailChange();
  const [banner, setBanner] = useState<string | null>(null);
  const wellFormed = EmailTokenSchema.safeParse(token).success;

  useEffect(() => {
    if (!wellFormed) {
      navigate('/', { replace: true });
      showNotice('linkInvalid');
    }
  }, [wellFormed, navigate]);

  const confirm = async () => {
    setBanner(null);
    try {
      await undo.mutateAsync(token);
      navigate('/', { replace: true });
      showNotice('emailRestored');
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        navigate('/', { replace: true });
        showNotice('linkInvalid');
      } else if (error instanceof ApiError && error.status === 429) {
        setBanner(rateLimitText(error, t, 'auth'));
      } else if (error instanceof ApiError && error.status === 409) {
        setBanner(t('auth.undoEmail.addressTaken'));
      } else {
        setBanner(t('errors.generic'));
      }
    }
  };

  if (!wellFormed) return null;
  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) navigate('/', { replace: true });
      }}
      title={t('auth.undoEmail.title')}
      description={t('auth.undoEmail.text')}
      showDescription
      testId="email-change-undo-modal"
    >
      <div className={styles.form}>
        <FormBanner message={banner} onDismiss={() => setBanner(null)} />
        <button type="button" className={styles.submit} disabled={undo.isPending} onClick={() => void confirm()}>
          {t('auth.undoEmail.submit')}
        </button>
      </div>
    </Modal>
  );
}
