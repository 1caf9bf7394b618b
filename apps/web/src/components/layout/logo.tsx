import styles from './logo.module.css';

export function Logo({ label }: { label: string }) {
  return (
    <span className={styles.logo}>
      <span className={styles.mark} aria-hidden="true">
        <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="#fff" strokeWidth="2.2">
          <title>{label}</title>
          <rect x="3" y="8" width="18" height="5" rx="1" />
          <path d="M5 13v8h14v-8M12 8v13M12 8c-1.5-3-5-4-5.5-1.5S9 8 12 8Zm0 0c1.5-3 5-4 5.5-1.5S15 8 12 8Z" />
        </svg>
      </span>
      <span className={styles.word}>{label}</span>
    </span>
  );
}
