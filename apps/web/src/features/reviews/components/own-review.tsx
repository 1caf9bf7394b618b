import type { Review } from '@store/contract';
import { useState } from 'react';
import { StarIcon } from '../../../components/ui/icons.tsx';
import { useTranslation } from '../../../lib/use-translation.tsx';
import formStyles from '../../auth/components/form.module.css';
import { FormBanner } from '../../auth/components/form-parts.tsx';
import { useDeleteReview } from '../api/change-review.ts';
import styles from './review-form.module.css';

export type ReviewNotice = 'posted' | 'saved' | 'deleted';

interface OwnReviewProps {
  productId: number;
  review: Review;
  notice: ReviewNotice | null;
  onEdit: () => void;
  onDeleted: () => void;
}

/** The signed-in customer's own review of the product, which they may change or delete (after asking). */
export function OwnReview({ productId, review, notice, onEdit, onDeleted }: OwnReviewProps) {
  const { t } = useTranslation();
  const remove = useDeleteReview(productId);
  const [confirming, setConfirming] = useState(false);
  const [failed, setFailed] = useState(false);

  const confirmDelete = async () => {
    setFailed(false);
    try {
      await remove.mutateAsync(review.id);
      onDeleted();
    } catch {
      setFailed(true);
    }
  };

  return (
    <section className={styles.box} aria-labelledby="own-review-title" data-testid="own-review">
      <div className={styles.ownHead}>
        <h3 id="own-review-title" className={styles.title}>
          {t('reviews.yours')}
        </h3>
        <span className={styles.ownStars} role="img" aria-label={t('reviews.stars', { count: review.rating })}>
          {[1, 2, 3, 4, 5].map((n) => (
            <StarIcon key={n} size={16} filled={n <= review.rating} />
          ))}
        </span>
      </div>
      {notice && notice !== 'deleted' && (
        <p className={styles.done} role="status" data-testid={`review-${notice}`}>
          {t(`reviews.${notice}`)}
        </p>
      )}
      <FormBanner message={failed ? t('errors.generic') : null} onDismiss={() => setFailed(false)} />
      {/* Written by the shopper, in whatever language: lang="" says it is not known. */}
      <p className={styles.ownText} lang="">
        {review.text}
      </p>
      {confirming ? (
        <fieldset className={styles.confirm}>
          <legend>{t('reviews.deleteConfirm')}</legend>
          <div className={styles.actions}>
            <button
              type="button"
              className={styles.danger}
              disabled={remove.isPending}
              onClick={() => void confirmDelete()}
            >
              {t('reviews.deleteYes')}
            </button>
            <button type="button" className={styles.secondary} onClick={() => setConfirming(false)}>
              {t('reviews.cancel')}
            </button>
          </div>
        </fieldset>
      ) : (
        <div className={styles.actions}>
          <button type="button" className={formStyles.submit} onClick={onEdit}>
            {t('reviews.edit')}
          </button>
          <button type="button" className={styles.danger} onClick={() => setConfirming(true)}>
            {t('reviews.delete')}
          </button>
        </div>
      )}
    </section>
  );
}
