import { STORE_CURRENCY } from '@store/contract';
import { formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import styles from './profile.module.css';

/**
 * What the account owes the store (`owed_minor`, in minor units): a top-up the provider gave back
 * (refunded or charged back) after its money was spent. Said beside the balance, and why, because
 * the balance pays for nothing until a top-up has paid the debt; the balance card's top-up button
 * is the way to settle it.
 */
export function OwedNotice({ id, owedMinor }: { id: string; owedMinor: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <div id={id} className={styles.owed} data-testid="profile-owed">
      <p className={styles.owedAmount}>
        {t('profile.owed', { amount: formatPrice(owedMinor / 100, STORE_CURRENCY, locale) })}
      </p>
      <p className={styles.owedWhy}>{t('profile.owedWhy')}</p>
    </div>
  );
}
