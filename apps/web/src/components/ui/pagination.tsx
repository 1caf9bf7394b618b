import { Link, useLocation } from 'react-router-dom';
import { formatNumber } from '../../lib/format.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { useTranslation } from '../../lib/use-translation.tsx';
import { ChevronLeftIcon, ChevronRightIcon } from './more-icons.tsx';
import styles from './pagination.module.css';

/** Page numbers to show: the first, the last, and two either side of the current one. */
export function pageWindow(page: number, pages: number): Array<number | 'gap'> {
  const shown = new Set([1, pages, page - 2, page - 1, page, page + 1, page + 2]);
  const sorted = [...shown].filter((n) => n >= 1 && n <= pages).sort((a, b) => a - b);
  const result: Array<number | 'gap'> = [];
  for (const n of sorted) {
    const last = result[result.length - 1];
    if (typeof last === 'number' && n - last > 1) result.push(n - last === 2 ? last + 1 : 'gap');
    result.push(n);
  }
  return result;
}

/** Page links that keep the other URL parameters, so every page of a filtered listing can be shared. */
export function Pagination({ page, pages }: { page: number; pages: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const location = useLocation();
  if (pages <= 1) return null;
  const href = (n: number) => {
    const search = new URLSearchParams(location.search);
    if (n <= 1) search.delete('page');
    else search.set('page', String(n));
    const text = search.toString();
    return `${location.pathname}${text ? `?${text}` : ''}`;
  };
  return (
    <nav className={styles.pagination} aria-label={t('listing.pagination')}>
      {page > 1 ? (
        <Link to={href(page - 1)} className={styles.step} rel="prev" aria-label={t('listing.previous')}>
          <ChevronLeftIcon size={18} />
        </Link>
      ) : (
        <span className={`${styles.step} ${styles.disabled}`} aria-hidden="true">
          <ChevronLeftIcon size={18} />
        </span>
      )}
      <ul className={styles.pages}>
        {pageWindow(page, pages).map((n, index) =>
          n === 'gap' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a gap has no identity beyond its place
            <li key={`gap-${index}`} className={styles.gap} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              <Link
                to={href(n)}
                className={`${styles.page} ${n === page ? styles.current : ''}`}
                aria-current={n === page ? 'page' : undefined}
                aria-label={t('listing.pageN', { page: n })}
              >
                {formatNumber(n, locale)}
              </Link>
            </li>
          ),
        )}
      </ul>
      {page < pages ? (
        <Link to={href(page + 1)} className={styles.step} rel="next" aria-label={t('listing.next')}>
          <ChevronRightIcon size={18} />
        </Link>
      ) : (
        <span className={`${styles.step} ${styles.disabled}`} aria-hidden="true">
          <ChevronRightIcon size={18} />
        </span>
      )}
    </nav>
  );
}
