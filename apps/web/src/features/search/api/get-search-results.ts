import { SearchResponseSchema } from '@store/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';
import { filtersKey, filtersToParams, type ListingFilters } from '../../catalogue/api/listing-filters.ts';

export const getSearchResults = (query: string, filters: ListingFilters, signal?: AbortSignal) =>
  apiGet(`/search/products/${segment(query)}/filter`, SearchResponseSchema, {
    params: filtersToParams(filters),
    signal,
  });

export const searchResultsQueryOptions = (query: string, filters: ListingFilters) =>
  queryOptions({
    queryKey: ['search-results', query, filtersKey(filters)],
    queryFn: ({ signal }) => getSearchResults(query, filters, signal),
    placeholderData: keepPreviousData,
  });

export const useSearchResults = (query: string, filters: ListingFilters) =>
  useQuery(searchResultsQueryOptions(query, filters));
