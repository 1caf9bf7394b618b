import { REVIEW_SORTS, type ReviewSort } from '@store/contract';
import { useId, useState } from 'react';
import { StarIcon } from '../../../components/ui/icons.tsx';
import { CheckIcon, ChevronLeftIcon, ChevronRightIcon } from '../../../components/ui/more-icons.tsx';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useReviews } from '../api/get-reviews.ts';
import styles from './reviews.module.css';

function Stars({ rating, label }: { rating: number; label: string }) {
  return (
    <span className={styles.stars} role="img" aria-label={label}>
      {[1, 2, 3, 4, 5].map((n) => (
        <StarIcon key={n} size={16} filled={n <= Math.round(rating)} />
      ))}
    </span>
  );
}

/** Reviews of a product, a page at a time. */
export function Reviews({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<ReviewSort>('newest');
  const sortId = useId();
  const reviews = useReviews(productId, page, sort);

  if (reviews.isPending) return <p className={styles.muted}>{t('common.loading')}</p>;
  if (reviews.isError) return <p className={styles.muted}>{t('errors.loadFailed')}</p>;

  const { feedbacks, total, pages, average } = reviews.data;
  if (total === 0) return <p className={styles.muted}>{t('product.noReviews')}</p>;

  return (
    <div className={styles.reviews} aria-busy={reviews.isPlaceholderData}>
      {average !== null && (
        <p className={styles.summary}>
          <Stars
            rating={average}
            label={t('product.ratingLabel', { rating: formatNumber(average, locale, { maximumFractionDigits: 1 }) })}
          />
          <span>{t('product.reviewsCount', { count: total, formatted: formatNumber(total, locale) })}</span>
        </p>
      )}
      {total > 1 && (
        <p className={styles.sort}>
          <label htmlFor={sortId}>{t('product.reviewSort')}</label>
          <select
            id={sortId}
            value={sort}
            onChange={(event) => {
              setSort(event.target.value as ReviewSort);
              setPage(1);
            }}
          >
            {REVIEW_SORTS.map((option) => (
              <option key={option} value={option}>
                {t(`product.reviewSortOptions.${option}`)}
              </option>
            ))}
          </select>
        </p>
      )}
      <ul className={styles.list}>
        {feedbacks.map((review) => (
          <li key={review.id} className={styles.review}>
            <div className={styles.head}>
              <span className={styles.avatar} aria-hidden="true">
                {review.author.slice(0, 1).toUpperCase()}
              </span>
              <div>
                {/* Written by shoppers, in whatever language they wrote: lang="" says it is not known. */}
                <p className={styles.author} lang="">
                  {review.author}
                </p>
                <time className={styles.date} dateTime={review.created_at}>
                  {formatDateTime(review.created_at, locale)}
                </time>
                {review.edited_at && <span className={styles.date}> · {t('product.reviewEdited')}</span>}
                {review.verified_buyer && (
                  <span className={styles.verified} data-testid="verified-buyer">
                    <CheckIcon size={12} />
                    {t('product.verifiedBuyer')}
                  </span>
                )}
              </div>
              <Stars rating={review.rating} label={t('product.ratingLabel', { rating: review.rating })} />
            </div>
            <p className={styles.text} lang="">
              {review.text}
            </p>
          </li>
        ))}
      </ul>
      {pages > 1 && (
        <nav className={styles.pager} aria-label={t('product.reviewPages')}>
          <button
            type="button"
            onClick={() => setPage((current) => current - 1)}
            disabled={page <= 1}
            aria-label={t('listing.previous')}
          >
            <ChevronLeftIcon size={18} />
          </button>
          <span>{t('listing.pageOf', { page: formatNumber(page, locale), pages: formatNumber(pages, locale) })}</span>
          <button
            type="button"
            onClick={() => setPage((current) => current + 1)}
            disabled={page >= pages}
            aria-label={t('listing.next')}
          >
            <ChevronRightIcon size={18} />
          </button>
        </nav>
      )}
    </div>
  );
}
