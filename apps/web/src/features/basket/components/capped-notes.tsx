import { BASKET_LINES_MAX, CAP_REASONS } from '@store/contract';
import { CloseIcon } from '../../../components/ui/icons.tsx';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { CappedNote } from '../basket-store.ts';
import styles from './capped-notes.module.css';

const known = (reason: string) => (CAP_REASONS as readonly string[]).includes(reason);

/** Lines the server set lower than asked for (stock, the per-line maximum, a product gone): one short note. */
export function CappedNotes({ notes, onDismiss }: { notes: readonly CappedNote[]; onDismiss: () => void }) {
  const { t } = useTranslation();
  if (notes.length === 0) return null;
  return (
    <div className={styles.notes} role="status" data-testid="capped-notes">
      <div className={styles.text}>
        <p className={styles.title}>{t('basket.capped.title')}</p>
        <ul className={styles.list}>
          {notes.map((note) => (
            <li key={note.id}>
              {t(`basket.capped.${known(note.reason) ? note.reason : 'stock'}`, {
                name: note.name,
                quantity: note.quantity,
                max: BASKET_LINES_MAX,
              })}
            </li>
          ))}
        </ul>
      </div>
      <button type="button" className={styles.dismiss} onClick={onDismiss} aria-label={t('basket.capped.dismiss')}>
        <CloseIcon size={16} />
      </button>
    </div>
  );
}
