import { lazy, Suspense } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { openAuth } from '../../auth/account-ui-store.ts';
import { useSession } from '../../auth/hooks/use-session.ts';
import styles from './review-form.module.css';

const ReviewPanel = lazy(() => import('./review-panel.tsx'));

/** Customers get their review or the form to write one (their own chunk); guests a prompt that opens the auth modal. */
export function ReviewComposer({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!user) {
    return (
      <p className={styles.prompt} data-testid="review-login-prompt">
        <span>{t('reviews.guestPrompt')}</span>
        <button type="button" className={styles.promptButton} onClick={() => openAuth('login', { stay: true })}>
          {t('reviews.loginToReview')}
        </button>
      </p>
    );
  }
  return (
    <Suspense fallback={null}>
      <ReviewPanel key={user.id} productId={productId} />
    </Suspense>
  );
}
