import { SEARCH_MAX, SearchParamsSchema, STORE_CURRENCY } from '@store/contract';
import { Navigate, useParams } from 'react-router-dom';
import { SearchIcon } from '../../components/ui/icons.tsx';
import { countriesQueryOptions } from '../../features/catalogue/api/get-countries.ts';
import { parseListingFilters } from '../../features/catalogue/api/listing-filters.ts';
import { ListingView } from '../../features/catalogue/components/listing-view.tsx';
import { ProductGridSkeleton } from '../../features/catalogue/components/product-grid.tsx';
import { useListingFilters } from '../../features/catalogue/hooks/use-listing-filters.ts';
import { searchResultsQueryOptions, useSearchResults } from '../../features/search/api/get-search-results.ts';
import { currentLanguage, ensureTexts } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { useTranslation } from '../../lib/use-translation.tsx';
import type { LoaderArgs } from '../route-page.tsx';

/** The search text of the URL, cut to the search limit; null when blank. */
function queryOf(params: { searchStr?: string }): string | null {
  const parsed = SearchParamsSchema.safeParse({ query: (params.searchStr ?? '').slice(0, SEARCH_MAX) });
  return parsed.success ? parsed.data.query : null;
}

export async function loader({ params, url }: LoaderArgs) {
  const query = queryOf(params);
  // An empty search goes home (the page redirects).
  if (query === null) return;
  void queryClient.prefetchQuery(countriesQueryOptions());
  await Promise.all([
    queryClient.ensureQueryData(
      searchResultsQueryOptions(query, parseListingFilters(url.searchParams), currentLanguage()),
    ),
    ensureTexts('shop'),
  ]);
}

/** Search results with the same filters as a category (no category filter: search spans them all). */
export function Component() {
  const query = queryOf(useParams());
  return query === null ? <Navigate to="/" replace /> : <SearchResults query={query} />;
}

function SearchResults({ query }: { query: string }) {
  const { t } = useTranslation();
  const [filters, setFilters] = useListingFilters();
  const results = useSearchResults(query, filters, useLocale());
  useDocumentTitle(t('search.resultsTitle', { query }));

  if (!results.data) {
    if (results.isError) throw results.error;
    return <ProductGridSkeleton />;
  }
  const { result, priceRange } = results.data;
  return (
    <ListingView
      title={t('search.resultsTitle', { query })}
      icon={<SearchIcon size={26} />}
      result={result}
      priceRange={priceRange}
      currency={result.products[0]?.currency ?? STORE_CURRENCY}
      filters={filters}
      onFiltersChange={setFilters}
      busy={results.isPlaceholderData}
      nothing={{ title: t('shop.nothingFound'), text: t('shop.nothingFoundHint') }}
    />
  );
}
