import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { UserIcon } from '../ui/icons.tsx';
import styles from './header.module.css';

const SignInDialog = lazy(() => import('./sign-in-dialog.tsx'));

/** SPEC.md section 3: the signed-in user is kept under this key. */
const USER_STORAGE_KEY = 'user';

function readUserName(): string | null {
  try {
    const raw = localStorage.getItem(USER_STORAGE_KEY);
    if (!raw) return null;
    const user: unknown = JSON.parse(raw);
    if (user && typeof user === 'object' && 'name' in user && typeof user.name === 'string' && user.name) {
      return user.name;
    }
  } catch {
    // A damaged entry reads as signed out.
  }
  return null;
}

function subscribeStorage(listener: () => void) {
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}

/** Profile for a signed-in customer (disabled while on the profile), otherwise Log in. */
export function AccountButton() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const userName = useSyncExternalStore(subscribeStorage, readUserName, () => null);
  const [signInOpen, setSignInOpen] = useState(false);

  if (userName) {
    const onProfile = pathname === '/profile';
    return onProfile ? (
      <button type="button" className={styles.iconButton} disabled aria-current="page">
        <UserIcon />
        <span className={styles.buttonText}>{t('header.profile')}</span>
      </button>
    ) : (
      <Link to="/profile" className={styles.iconButton} aria-label={t('header.profile')}>
        <UserIcon />
        <span className={styles.buttonText}>{t('header.profile')}</span>
      </Link>
    );
  }

  return (
    <>
      <button
        type="button"
        className={`${styles.iconButton} ${styles.primary}`}
        onClick={() => setSignInOpen(true)}
        aria-label={t('header.login')}
      >
        <UserIcon />
        <span className={styles.buttonText}>{t('header.login')}</span>
      </button>
      {signInOpen && (
        <Suspense fallback={null}>
          <SignInDialog open={signInOpen} onOpenChange={setSignInOpen} />
        </Suspense>
      )}
    </>
  );
}
