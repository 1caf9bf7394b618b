import type { Category, ProductPage } from '@store/contract';
import type { ReactNode } from 'react';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useNavigationPending } from '../../../lib/transition-router.tsx';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useCountries } from '../api/get-countries.ts';
import type { ListingFilters } from '../api/listing-filters.ts';
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
        subtitle={t('listing.found', { count: result.total, formatted: formatNumber(result.total, locale) })}
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
        <EmptyState title={t('listing.empty')} text={t('listing.emptyHint')} />
      ) : (
        <ProductGrid products={result.products} busy={busy} />
      )}
      <Pagination page={result.page} pages={result.pages} />
    </>
  );
}
