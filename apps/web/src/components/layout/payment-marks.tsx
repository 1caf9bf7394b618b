import { CARD_TYPES, CardLogo } from '../ui/card-logo.tsx';
import styles from './footer.module.css';

/** The four card brands the store accepts. */
export function PaymentMarks({ label }: { label: string }) {
  return (
    <ul className={styles.marks} aria-label={label}>
      {CARD_TYPES.map((type) => (
        // A brand's name is the same in every language; translation tools leave it alone too.
        <li key={type} className={styles.mark} translate="no">
          <CardLogo type={type} />
        </li>
      ))}
    </ul>
  );
}
