import type { ReactNode } from 'react';
import styles from './page-header.module.css';

interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  icon?: ReactNode;
  /** A page has one h1; a second header on it (holiday deals) is an h2. */
  level?: 1 | 2;
  children?: ReactNode;
}

export function PageHeader({ title, subtitle, icon, level = 1, children }: PageHeaderProps) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <header className={styles.header}>
      <div className={styles.titleRow}>
        {icon && <span className={styles.icon}>{icon}</span>}
        <div>
          <Heading className={styles.title}>{title}</Heading>
          {subtitle && (
            <p className={styles.subtitle} data-testid="page-subtitle">
              {subtitle}
            </p>
          )}
        </div>
      </div>
      {children}
    </header>
  );
}
