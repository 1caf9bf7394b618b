import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from 'react-i18next';
import { CloseIcon, UserIcon } from '../ui/icons.tsx';
import styles from './sign-in-dialog.module.css';

/**
 * Accounts (login, registration, profile) come with their own screens; until then the Log in button
 * says so instead of doing nothing.
 */
export default function SignInDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content className={styles.dialog}>
          <span className={styles.icon}>
            <UserIcon size={28} />
          </span>
          <Dialog.Title className={styles.title}>{t('auth.soonTitle')}</Dialog.Title>
          <Dialog.Description className={styles.text}>{t('auth.soonText')}</Dialog.Description>
          <Dialog.Close className={styles.ok}>{t('common.ok')}</Dialog.Close>
          <Dialog.Close className={styles.close} aria-label={t('common.close')}>
            <CloseIcon size={18} />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
