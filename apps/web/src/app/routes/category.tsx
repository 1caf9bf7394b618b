import { SlugParamsSchema, STORE_CURRENCY } from '@store/contract';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { categoriesQueryOptions, useCategories } from '../../features/catalogue/api/get-categories.ts';
import { categoryListingQueryOptions, useCategoryListing } from '../../features/catalogue/api/get-category-listing.ts';
import { countriesQueryOptions } from '../../features/catalogue/api/get-countries.ts';
import { parseListingFilters } from '../../features/catalogue/api/listing-filters.ts';
import { ListingView } from '../../features/catalogue/components/listing-view.tsx';
import { ProductGridSkeleton } from '../../features/catalogue/components/product-grid.tsx';
import { useListingFilters } from '../../features/catalogue/hooks/use-listing-filters.ts';
import { notFound } from '../../lib/api-client.ts';
import { currentLanguage, ensureTexts } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocale } from '../../lib/use-locale.ts';
import type { LoaderArgs } from '../route-page.tsx';

function slugOf(params: { id?: string }): string {
  const parsed = SlugParamsSchema.safeParse({ id: params.id ?? '' });
  if (!parsed.success) throw notFound();
  return parsed.data.id;
}

export async function loader({ params, url }: LoaderArgs) {
  const slug = slugOf(params);
  const filters = parseListingFilters(url.searchParams);
  void queryClient.prefetchQuery(countriesQueryOptions(slug));
  void queryClient.prefetchQuery(categoriesQueryOptions());
  // An empty page's texts (past the end, nothing matches) come with the listing pages.
  await Promise.all([
    queryClient.ensureQueryData(categoryListingQueryOptions(slug, filters, currentLanguage())),
    ensureTexts('shop'),
  ]);
  return null;
}

/** Category: title, found count, filters in the URL, grid and pages. */
export function Component() {
  const slug = slugOf(useParams());
  const [filters, setFilters] = useListingFilters();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const listing = useCategoryListing(slug, filters, useLocale());
  const categories = useCategories();
  useDocumentTitle(listing.data?.category.formatted_name);

  if (!listing.data) {
    if (listing.isError) throw listing.error;
    return <ProductGridSkeleton />;
  }
  const { category, result, priceRange } = listing.data;
  return (
    <ListingView
      title={category.name}
      icon={category.svg_path ? <img src={category.svg_path} alt="" width={32} height={32} /> : undefined}
      result={result}
      priceRange={priceRange}
      currency={result.products[0]?.currency ?? STORE_CURRENCY}
      filters={filters}
      onFiltersChange={setFilters}
      categories={categories.data}
      category={category.id}
      onCategoryChange={(next) => {
        const search = new URLSearchParams(searchParams);
        search.delete('page');
        const text = search.toString();
        navigate(`/category/${next}${text ? `?${text}` : ''}`);
      }}
      busy={listing.isPlaceholderData}
    />
  );
}
