import type { ProductSummary } from '@store/contract';
import { StarIcon } from '../../../components/ui/icons.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import styles from './product-rating.module.css';

/**
 * A product's rating at a glance: a star, the average and the number of reviews, read out as
 * "Rated 4.6 out of 5, 23 reviews". Nothing for a product nobody has reviewed: no zero stars.
 */
export function ProductRating({ rating: { average, count } }: { rating: ProductSummary['rating'] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (average === null) return null;
  const shown = formatNumber(average, locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const formatted = formatNumber(count, locale);
  return (
    <span
      className={styles.rating}
      role="img"
      aria-label={t('product.ratingSummary', {
        rating: t('product.ratingLabel', { rating: shown }),
        reviews: t('product.reviewsCount', { count, formatted }),
      })}
    >
      <StarIcon size={14} filled />
      {shown}
      <span>({formatted})</span>
    </span>
  );
}
