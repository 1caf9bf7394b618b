import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useDownloadAccountData } from '../api/export-data.ts';
import styles from './profile.module.css';

// Its own chunk, loaded when asked for: the profile route's first load stays as it was.
const DeleteAccountDialog = lazy(() => import('./delete-account-dialog.tsx'));

/** The customer's data (docs/privacy.md): a copy of all of it, and the account's deletion; `balance` in the store currency. */
export function AccountData({ balance }: { balance: number }) {
  const { t } = useTranslation();
  const download = useDownloadAccountData();
  const [deleting, setDeleting] = useState(false);
  return (
    <section className={styles.card} aria-labelledby="profile-data" data-testid="account-data">
      <h2 id="profile-data" className={styles.cardTitle}>
        {t('profile.data.title')}
      </h2>
      <p className={styles.note}>{t('profile.data.exportText')}</p>
      <div className={styles.actions}>
        <button type="button" className={styles.button} disabled={download.isPending} onClick={() => download.mutate()}>
          {download.isPending ? t('profile.data.exporting') : t('profile.data.export')}
        </button>
      </div>
      {download.isSuccess && (
        <p className={styles.ok} role="status">
          {t('profile.data.exported')}
        </p>
      )}
      {download.isError && (
        <p className={styles.failed} role="alert">
          {t('errors.generic')}
        </p>
      )}
      <p className={styles.note}>{t('profile.data.deleteText')}</p>
      <div className={styles.actions}>
        <button
          type="button"
          className={styles.dangerButton}
          data-testid="delete-account"
          onClick={() => setDeleting(true)}
        >
          {t('profile.data.delete')}
        </button>
      </div>
      {deleting && (
        <Suspense fallback={null}>
          <DeleteAccountDialog balance={balance} onClose={() => setDeleting(false)} />
        </Suspense>
      )}
    </section>
  );
}
