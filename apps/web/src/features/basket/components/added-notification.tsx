import * as Toast from '@radix-ui/react-toast';
import { NOTIFICATION_MS, type ProductSummary } from '@store/contract';
import { useState } from 'react';
import { CloseIcon } from '../../../components/ui/icons.tsx';
import { CheckIcon } from '../../../components/ui/more-icons.tsx';
import { useTranslation } from '../../../lib/use-translation.tsx';
import styles from './added-notification.module.css';

interface AddedNotificationProps {
  product: ProductSummary;
  onOpenBasket: () => void;
  onClosed: () => void;
}

/** The product was added; an open-basket button for 3.5 seconds. */
export default function AddedNotification({ product, onOpenBasket, onClosed }: AddedNotificationProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  return (
    <Toast.Provider duration={NOTIFICATION_MS} swipeDirection="right" label={t('basket.notifications')}>
      <Toast.Root
        className={styles.toast}
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) onClosed();
        }}
        data-testid="added-notification"
      >
        <span className={styles.icon}>
          <CheckIcon size={18} />
        </span>
        <div className={styles.text}>
          <Toast.Title className={styles.title}>{t('basket.added')}</Toast.Title>
          <Toast.Description className={styles.description}>{product.name}</Toast.Description>
        </div>
        <Toast.Action className={styles.action} altText={t('basket.open')} onClick={onOpenBasket}>
          {t('basket.open')}
        </Toast.Action>
        <Toast.Close className={styles.close} aria-label={t('common.close')}>
          <CloseIcon size={16} />
        </Toast.Close>
      </Toast.Root>
      {/* Radix fills in the key that reaches the notifications; its own label is English. */}
      <Toast.Viewport className={styles.viewport} label={`${t('basket.notifications')} ({hotkey})`} />
    </Toast.Provider>
  );
}
