import { SearchResponseSchema } from '@store/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';
import { filtersKey, filtersToParams, type ListingFilters } from '../../catalogue/api/listing-filters.ts';

export const getSearchResults = (query: string, filters: ListingFilters, lang: string, signal?: AbortSignal) =>
  apiGet(`/search/products/${segment(query)}/filter`, SearchResponseSchema, {
    params: { ...filtersToParams(filters), lang },
    signal,
  });

export const searchResultsQueryOptions = (query: string, filters: ListingFilters, lang: string) =>
  queryOptions({
    queryKey: ['search-results', query, filtersKey(filters), lang],
    queryFn: ({ signal }) => getSearchResults(query, filters, lang, signal),
    placeholderData: keepPreviousData,
  });

export const useSearchResults = (query: string, filters: ListingFilters, lang: string) =>
  useQuery(searchResultsQueryOptions(query, filters, lang));
