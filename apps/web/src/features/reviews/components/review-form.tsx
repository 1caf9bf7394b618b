import { zodResolver } from '@hookform/resolvers/zod';
import { ErrorKeys, REVIEW_TEXT_MAX, REVIEW_TEXT_MIN, type Review, ReviewCreateRequestSchema } from '@store/contract';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { StarIcon } from '../../../components/ui/icons.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import formStyles from '../../auth/components/form.module.css';
import { Field, FormBanner, useMessageText } from '../../auth/components/form-parts.tsx';
import { useServerErrors } from '../../auth/hooks/use-server-errors.ts';
import { useUpdateReview } from '../api/change-review.ts';
import { useCreateReview } from '../api/create-review.ts';
import styles from './review-form.module.css';

const FIELDS = ['rating', 'text'] as const;
const RATINGS = [1, 2, 3, 4, 5] as const;

const alreadyReviewed = (error: unknown) =>
  error instanceof ApiError &&
  (error.status === 409 || (error.fieldErrors.productId ?? []).includes(ErrorKeys.reviewExists));

interface ReviewFormProps {
  productId: number;
  /** The author's review to change; without it, a new one. */
  review?: Review | undefined;
  onPosted?: () => void;
  onSaved?: () => void;
  onCancel?: () => void;
}

/** A signed-in customer's review: 1 to 5 stars and a text; one review per product, which its author may change. */
export default function ReviewForm({ productId, review, onPosted, onSaved, onCancel }: ReviewFormProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const message = useMessageText();
  const create = useCreateReview(productId);
  const update = useUpdateReview(productId);
  const [state, setState] = useState<'open' | 'posted' | 'exists'>('open');
  const form = useForm({
    resolver: zodResolver(ReviewCreateRequestSchema),
    defaultValues: { productId, rating: review ? String(review.rating) : '', text: review?.text ?? '' },
  });
  const { errors, isSubmitting } = form.formState;
  const { banner, dismissBanner, handleServerError } = useServerErrors(form.setError, FIELDS);
  const [rating, text] = useWatch({ control: form.control, name: ['rating', 'text'] });
  const chosen = Number(rating) || 0;

  const submit = form.handleSubmit(async (values) => {
    dismissBanner();
    try {
      if (review) {
        await update.mutateAsync({ id: review.id, body: { rating: values.rating, text: values.text } });
        onSaved?.();
        return;
      }
      await create.mutateAsync(values);
      setState('posted');
      onPosted?.();
    } catch (error) {
      if (alreadyReviewed(error)) setState('exists');
      else handleServerError(error);
    }
  });

  if (state === 'posted') {
    return (
      <p className={styles.done} role="status" data-testid="review-posted">
        {t('reviews.posted')}
      </p>
    );
  }
  if (state === 'exists') {
    return (
      <p className={styles.exists} role="status" data-testid="review-exists">
        {t(ErrorKeys.reviewExists)}
      </p>
    );
  }

  const textLength = typeof text === 'string' ? text.trim().length : 0;
  const title = review ? t('reviews.editTitle') : t('reviews.title');
  return (
    <form className={`${styles.box} ${formStyles.form}`} onSubmit={submit} noValidate aria-label={title}>
      <h3 className={styles.title}>{title}</h3>
      <FormBanner message={banner} onDismiss={dismissBanner} />
      <div>
        <fieldset className={styles.stars} aria-describedby={errors.rating ? 'review-rating-error' : undefined}>
          <legend>{t('reviews.rating')}</legend>
          {RATINGS.map((value) => (
            <label key={value} className={`${styles.star} ${value <= chosen ? styles.starOn : ''}`}>
              <input
                type="radio"
                value={String(value)}
                aria-label={t('reviews.stars', { count: value })}
                {...form.register('rating')}
              />
              <StarIcon size={26} filled={value <= chosen} />
            </label>
          ))}
        </fieldset>
        {errors.rating && (
          <p className={formStyles.error} id="review-rating-error" role="alert">
            {t('reviews.ratingRequired')}
          </p>
        )}
      </div>
      <Field
        label={t('reviews.text')}
        error={
          errors.text?.message === ErrorKeys.tooShort
            ? t('reviews.textTooShort', { min: REVIEW_TEXT_MIN })
            : message(errors.text?.message)
        }
        hint={
          <span className={styles.counter}>
            {formatNumber(textLength, locale)} / {formatNumber(REVIEW_TEXT_MAX, locale)}
          </span>
        }
      >
        {(control) => (
          <textarea {...control} className={formStyles.input} maxLength={REVIEW_TEXT_MAX} {...form.register('text')} />
        )}
      </Field>
      <div className={styles.actions}>
        <button type="submit" className={formStyles.submit} disabled={isSubmitting || Object.keys(errors).length > 0}>
          {review ? t('reviews.save') : t('reviews.submit')}
        </button>
        {review && (
          <button type="button" className={styles.secondary} onClick={onCancel}>
            {t('reviews.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
