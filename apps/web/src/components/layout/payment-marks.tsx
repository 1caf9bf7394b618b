import styles from './footer.module.css';

/** The four card brands the store accepts (SPEC.md section 2), drawn as small marks. */
export function PaymentMarks({ label }: { label: string }) {
  return (
    <ul className={styles.marks} aria-label={label}>
      <li className={styles.mark} title="Visa">
        <svg width="48" height="30" viewBox="0 0 48 30" role="img" aria-label="Visa">
          <rect width="48" height="30" rx="5" fill="#fff" />
          <text
            x="24"
            y="20"
            textAnchor="middle"
            fontFamily="Arial, sans-serif"
            fontWeight="900"
            fontStyle="italic"
            fontSize="13"
            fill="#1a1f71"
          >
            VISA
          </text>
        </svg>
      </li>
      <li className={styles.mark} title="Mastercard">
        <svg width="48" height="30" viewBox="0 0 48 30" role="img" aria-label="Mastercard">
          <rect width="48" height="30" rx="5" fill="#1c1c1c" />
          <circle cx="20" cy="15" r="8" fill="#eb001b" />
          <circle cx="28" cy="15" r="8" fill="#f79e1b" />
          <path d="M24 8.1a8 8 0 0 1 0 13.8 8 8 0 0 1 0-13.8Z" fill="#ff5f00" />
        </svg>
      </li>
      <li className={styles.mark} title="Mir">
        <svg width="48" height="30" viewBox="0 0 48 30" role="img" aria-label="Mir">
          <rect width="48" height="30" rx="5" fill="#fff" />
          <text
            x="24"
            y="20"
            textAnchor="middle"
            fontFamily="Arial, sans-serif"
            fontWeight="900"
            fontSize="12"
            fill="#0f754e"
          >
            MIR
          </text>
          <rect x="33" y="9" width="8" height="3" rx="1.5" fill="#00b4e6" />
        </svg>
      </li>
      <li className={styles.mark} title="American Express">
        <svg width="48" height="30" viewBox="0 0 48 30" role="img" aria-label="American Express">
          <rect width="48" height="30" rx="5" fill="#1f72cd" />
          <text
            x="24"
            y="19"
            textAnchor="middle"
            fontFamily="Arial, sans-serif"
            fontWeight="900"
            fontSize="9"
            fill="#fff"
          >
            AMEX
          </text>
        </svg>
      </li>
    </ul>
  );
}
