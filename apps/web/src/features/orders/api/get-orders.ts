import { OrderHistoryPageSchema } from '@store/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

export const ORDERS_QUERY_KEY = ['orders'] as const;

/** GET /profile/orders?page: the customer's orders, newest first. */
export const getOrders = (page: number, signal?: AbortSignal) =>
  apiGet('/profile/orders', OrderHistoryPageSchema, { params: { page }, signal });

export const ordersQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...ORDERS_QUERY_KEY, 'page', page],
    queryFn: ({ signal }) => getOrders(page, signal),
    placeholderData: keepPreviousData,
  });

export const useOrders = (page: number) => useQuery(ordersQueryOptions(page));
