import type { ReactNode } from 'react';
import styles from './empty-state.module.css';
import { GiftIcon } from './icons.tsx';

export function EmptyState({ title, text, children }: { title: string; text?: string; children?: ReactNode }) {
  return (
    <div className={styles.empty} data-testid="empty-state">
      <span className={styles.icon}>
        <GiftIcon size={32} />
      </span>
      <p className={styles.title}>{title}</p>
      {text && <p className={styles.text}>{text}</p>}
      {children}
    </div>
  );
}
