import { PurchasedSearchResponseSchema } from '@store/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

export const PURCHASED_QUERY_KEY = ['purchased'] as const;

/** GET /profile/products/purchased/search?page&search_string: the customer's purchases, newest first. */
export const getPurchased = (page: number, search: string, signal?: AbortSignal) =>
  apiGet('/profile/products/purchased/search', PurchasedSearchResponseSchema, {
    params: { page, search_string: search.trim() },
    signal,
  });

export const purchasedQueryOptions = (page: number, search: string) =>
  queryOptions({
    queryKey: [...PURCHASED_QUERY_KEY, page, search.trim()],
    queryFn: ({ signal }) => getPurchased(page, search, signal),
    placeholderData: keepPreviousData,
  });

export const usePurchased = (page: number, search: string) => useQuery(purchasedQueryOptions(page, search));
