import { CategoryListingResponseSchema } from '@store/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';
import { filtersKey, filtersToParams, type ListingFilters } from './listing-filters.ts';

/** A category's page; its prices come with the display rate of `lang`, the interface language. */
export const getCategoryListing = (slug: string, filters: ListingFilters, lang: string, signal?: AbortSignal) =>
  apiGet(`/categories/${segment(slug)}`, CategoryListingResponseSchema, {
    params: { ...filtersToParams(filters), lang },
    signal,
  });

export const categoryListingQueryOptions = (slug: string, filters: ListingFilters, lang: string) =>
  queryOptions({
    queryKey: ['category-listing', slug, filtersKey(filters), lang],
    queryFn: ({ signal }) => getCategoryListing(slug, filters, lang, signal),
    placeholderData: keepPreviousData,
  });

export const useCategoryListing = (slug: string, filters: ListingFilters, lang: string) =>
  useQuery(categoryListingQueryOptions(slug, filters, lang));
