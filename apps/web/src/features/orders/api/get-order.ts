import { OrderHistoryDetailSchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';
import { ORDERS_QUERY_KEY } from './get-orders.ts';

/** GET /profile/orders/{id}: one of the customer's orders (404 for anyone else's). */
export const getOrder = (orderId: string, signal?: AbortSignal) =>
  apiGet(`/profile/orders/${segment(orderId)}`, OrderHistoryDetailSchema, { signal });

export const orderQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: [...ORDERS_QUERY_KEY, 'one', orderId],
    queryFn: ({ signal }) => getOrder(orderId, signal),
  });

export const useOrder = (orderId: string) => useQuery(orderQueryOptions(orderId));
