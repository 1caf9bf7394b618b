import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useMyReview } from '../api/get-my-review.ts';
import { OwnReview, type ReviewNotice } from './own-review.tsx';
import styles from './review-form.module.css';
import ReviewForm from './review-form.tsx';

/**
 * A signed-in customer's side of a product's reviews: their own review with its edit and delete, or
 * the form to write one. Should their review not load, the form still works (the server refuses a
 * second review under its field).
 */
export default function ReviewPanel({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const mine = useMyReview(productId);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<ReviewNotice | null>(null);
  if (mine.isPending) return null;
  const review = mine.data ?? null;

  if (review && !editing) {
    return (
      <OwnReview
        productId={productId}
        review={review}
        notice={notice}
        onEdit={() => {
          setNotice(null);
          setEditing(true);
        }}
        onDeleted={() => setNotice('deleted')}
      />
    );
  }
  return (
    <>
      {notice === 'deleted' && (
        <p className={styles.done} role="status" data-testid="review-deleted">
          {t('reviews.deleted')}
        </p>
      )}
      <ReviewForm
        key={review ? `edit-${review.id}` : 'new'}
        productId={productId}
        review={review ?? undefined}
        onPosted={() => setNotice('posted')}
        onSaved={() => {
          setEditing(false);
          setNotice('saved');
        }}
        onCancel={() => setEditing(false)}
      />
    </>
  );
}
