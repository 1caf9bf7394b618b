import { CategoryListingResponseSchema } from '@store/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';
import { filtersKey, filtersToParams, type ListingFilters } from './listing-filters.ts';

export const getCategoryListing = (slug: string, filters: ListingFilters, signal?: AbortSignal) =>
  apiGet(`/categories/${segment(slug)}`, CategoryListingResponseSchema, { params: filtersToParams(filters), signal });

export const categoryListingQueryOptions = (slug: string, filters: ListingFilters) =>
  queryOptions({
    queryKey: ['category-listing', slug, filtersKey(filters)],
    queryFn: ({ signal }) => getCategoryListing(slug, filters, signal),
    placeholderData: keepPreviousData,
  });

export const useCategoryListing = (slug: string, filters: ListingFilters) =>
  useQuery(categoryListingQueryOptions(slug, filters));
