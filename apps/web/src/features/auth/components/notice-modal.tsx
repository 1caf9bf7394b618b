import * as Dialog from '@radix-ui/react-dialog';
import { CloseIcon } from '../../../components/ui/icons.tsx';
import { CheckIcon, MailIcon } from '../../../components/ui/more-icons.tsx';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { AccountNotice } from '../account-ui-store.ts';
import styles from './modal.module.css';
import { Modal } from './modal.tsx';

const MAIL_NOTICES: readonly AccountNotice[] = ['registered', 'resetSent', 'emailRestored'];

/** The one-button success dialogs, and the one for a dead emailed link. */
export function NoticeModal({ notice, onClose }: { notice: AccountNotice; onClose: () => void }) {
  const { t } = useTranslation();
  const failed = notice === 'linkInvalid' || notice === 'linkUsed';
  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t(`auth.notice.${notice}.title`)}
      description={t(`auth.notice.${notice}.text`)}
      showDescription
      centered
      testId="notice-modal"
    >
      <span className={`${styles.icon} ${failed ? styles.iconDanger : ''}`} aria-hidden="true">
        {failed ? (
          <CloseIcon size={28} />
        ) : MAIL_NOTICES.includes(notice) ? (
          <MailIcon size={28} />
        ) : (
          <CheckIcon size={28} />
        )}
      </span>
      <Dialog.Close className={styles.ok}>{t('common.ok')}</Dialog.Close>
    </Modal>
  );
}
