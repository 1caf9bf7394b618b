import { Link, useLocation } from 'react-router-dom';
import { openAuth } from '../../features/auth/account-ui-store.ts';
import { useSession } from '../../features/auth/hooks/use-session.ts';
import { useTranslation } from '../../lib/use-translation.tsx';
import { UserIcon } from '../ui/icons.tsx';
import styles from './header.module.css';

/** Profile for a signed-in customer (disabled while on the profile), otherwise Log in. */
export function AccountButton() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { user } = useSession();

  if (user) {
    const onProfile = pathname === '/profile';
    return onProfile ? (
      <button
        type="button"
        className={styles.iconButton}
        disabled
        aria-current="page"
        aria-label={t('header.profile')}
        id="account-button"
        data-testid="account-button"
      >
        <UserIcon />
        <span className={styles.buttonText}>{t('header.profile')}</span>
      </button>
    ) : (
      <Link
        to="/profile"
        className={styles.iconButton}
        aria-label={t('header.profile')}
        id="account-button"
        data-testid="account-button"
      >
        <UserIcon />
        <span className={styles.buttonText}>{t('header.profile')}</span>
      </Link>
    );
  }

  return (
    <button
      type="button"
      className={`${styles.iconButton} ${styles.primary}`}
      onClick={() => openAuth('login')}
      aria-label={t('header.login')}
      id="account-button"
      data-testid="account-button"
    >
      <UserIcon />
      <span className={styles.buttonText}>{t('header.login')}</span>
    </button>
  );
}
