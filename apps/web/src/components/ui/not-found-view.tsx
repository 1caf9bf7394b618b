import { Link } from 'react-router-dom';
import { useTranslation } from '../../lib/use-translation.tsx';
import styles from './not-found-view.module.css';

export function NotFoundView() {
  const { t } = useTranslation();
  return (
    <section className={styles.notFound} data-testid="not-found">
      <p className={styles.code} aria-hidden="true">
        404
      </p>
      <h1 className={styles.title}>{t('notFound.title')}</h1>
      <p className={styles.text}>{t('notFound.text')}</p>
      <Link to="/" className={styles.home}>
        {t('notFound.home')}
      </Link>
    </section>
  );
}
