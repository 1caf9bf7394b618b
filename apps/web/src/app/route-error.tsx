import { EmptyState } from '../components/ui/empty-state.tsx';
import { NotFoundView } from '../components/ui/not-found-view.tsx';
import { isNotFound } from '../lib/api-client.ts';
import { useTranslation } from '../lib/use-translation.tsx';
import styles from './route-error.module.css';

/** A page that failed to load: a missing product or category is the 404 page, the rest can retry. */
export function RouteError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  if (isNotFound(error)) return <NotFoundView />;
  return (
    <EmptyState title={t('errors.generic')} text={t('errors.genericText')}>
      <button type="button" className={styles.retry} onClick={onRetry}>
        {t('errors.tryAgain')}
      </button>
    </EmptyState>
  );
}
