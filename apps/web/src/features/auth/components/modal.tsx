import * as Dialog from '@radix-ui/react-dialog';
import { BREAKPOINTS } from '@store/contract';
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import { CloseIcon } from '../../../components/ui/icons.tsx';
import { focusedOpener, forgetDialog, rememberOpener, returnFocus } from '../../../lib/return-focus.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import styles from './modal.module.css';

const OUTSIDE_CLOSE_QUERY = `(min-width: ${BREAKPOINTS.outsideClick}px)`;

interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** Read to screen readers; shown only when `showDescription`. */
  description: string;
  showDescription?: boolean;
  centered?: boolean;
  testId?: string;
  children?: ReactNode;
}

/**
 * The generic modal: close button, closes on an outside click only at 769 px and wider, locks the page
 * scroll (Radix does), keeps focus inside and, once closed, returns it to what opened it.
 */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  showDescription,
  centered,
  testId,
  children,
}: ModalProps) {
  const { t } = useTranslation();
  const opener = useRef<HTMLElement | null>(null);
  // Before Radix moves the focus into the dialog (its effects run after layout effects).
  useLayoutEffect(() => {
    if (open) opener.current = focusedOpener();
  }, [open]);
  // Taken away while open, another dialog opening in the same render returns where this one would.
  const content = useRef<HTMLElement | null>(null);
  useLayoutEffect(
    () => () => {
      if (content.current) forgetDialog(content.current);
    },
    [],
  );
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={`${styles.dialog} ${centered ? styles.centered : ''}`}
          data-testid={testId}
          ref={(element) => {
            if (!element) return;
            content.current = element;
            rememberOpener(element, opener.current);
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus(opener.current);
          }}
          onPointerDownOutside={(event) => {
            if (!window.matchMedia(OUTSIDE_CLOSE_QUERY).matches) event.preventDefault();
          }}
        >
          <Dialog.Title className={styles.title}>{title}</Dialog.Title>
          <Dialog.Description className={showDescription ? styles.text : 'visually-hidden'}>
            {description}
          </Dialog.Description>
          {children}
          <Dialog.Close className={styles.close} aria-label={t('common.close')}>
            <CloseIcon size={18} />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
