import type { Category, ProductPage } from '@store/contract';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useNavigationPending } from '../../../lib/transition-router.tsx';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useCountries } from '../api/get-countries.ts';
import type { ListingFilters } from '../api/listing-filters.ts';
import styles from './listing-empty.module.css';
import { ProductFilters } from './product-filters.tsx';
import { ProductGrid } from './product-grid.tsx';

interface ListingViewProps {
  title: ReactNode;
  icon?: ReactNode;
  result: ProductPage;
  priceRange: { min: number; max: number };
  currency: string;
  filters: ListingFilters;
  onFiltersChange: (next: ListingFilters) => void;
  categories?: readonly Category[];
  category?: string;
  onCategoryChange?: (slug: string) => void;
  busy?: boolean;
  /** What a list with nothing in it at all says; "No products yet" (a category's) unless given. */
  nothing?: { title: string; text: string };
}

/** Filters that narrow what is found; sorting and the page only order and cut it. */
export const narrowsListing = (filters: ListingFilters) =>
  filters.minPrice !== undefined ||
  filters.maxPrice !== undefined ||
  (filters.country?.length ?? 0) > 0 ||
  (filters.currency?.length ?? 0) > 0;

/**
 * What an empty page says: a page past the end links to the last one; filters that leave nothing offer
 * to clear them; only a list with nothing in it at all is "No products yet".
 */
function EmptyListing({
  result,
  filters,
  onFiltersChange,
  nothing,
}: {
  result: ProductPage;
  filters: ListingFilters;
  onFiltersChange: (next: ListingFilters) => void;
  nothing: { title: string; text: string } | undefined;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const location = useLocation();
  if (result.total > 0) {
    const search = new URLSearchParams(location.search);
    if (result.pages <= 1) search.delete('page');
    else search.set('page', String(result.pages));
    const text = search.toString();
    return (
      <EmptyState
        title={t('shop.beyondEnd', { page: formatNumber(result.page, locale) })}
        text={t('shop.beyondEndText', { pages: formatNumber(result.pages, locale) })}
      >
        <Link
          to={`${location.pathname}${text ? `?${text}` : ''}`}
          className={styles.action}
          data-testid="last-page-link"
        >
          {t('shop.toLastPage')}
        </Link>
      </EmptyState>
    );
  }
  if (narrowsListing(filters)) {
    return (
      <EmptyState title={t('shop.noMatch')} text={t('shop.noMatchText')}>
        <button
          type="button"
          className={styles.action}
          data-testid="clear-filters"
          onClick={() => onFiltersChange(filters.sort ? { sort: filters.sort } : {})}
        >
          {t('shop.clearFilters')}
        </button>
      </EmptyState>
    );
  }
  return <EmptyState title={nothing?.title ?? t('listing.empty')} text={nothing?.text ?? t('listing.emptyHint')} />;
}

/** Title, found count, filters, grid, pages and the empty state: a category or a search. */
export function ListingView(props: ListingViewProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const countries = useCountries(props.category);
  const pending = useNavigationPending();
  const { result } = props;
  const busy = props.busy || pending;
  return (
    <>
      <PageHeader
        title={props.title}
        icon={props.icon}
        subtitle={
          // Portuguese and Hindi count 0 as "one" ("0 produto encontrado"): none has a text of its own.
          result.total === 0
            ? t('shop.foundNone')
            : t('listing.found', { count: result.total, formatted: formatNumber(result.total, locale) })
        }
      />
      <ProductFilters
        value={props.filters}
        onChange={props.onFiltersChange}
        priceRange={props.priceRange}
        currency={props.currency}
        countries={countries.data ?? []}
        categories={props.categories}
        category={props.category}
        onCategoryChange={props.onCategoryChange}
      />
      {result.products.length === 0 ? (
        <EmptyListing
          result={result}
          filters={props.filters}
          onFiltersChange={props.onFiltersChange}
          nothing={props.nothing}
        />
      ) : (
        <ProductGrid products={result.products} busy={busy} />
      )}
      <Pagination page={result.page} pages={result.pages} />
    </>
  );
}
