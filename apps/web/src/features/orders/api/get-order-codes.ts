import { OrderDeliverySchema } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';
import { ORDERS_QUERY_KEY } from './get-orders.ts';

/**
 * GET /payment-products/{id}: a paid order's products with their codes, for its owner only; every
 * code shown is recorded. Read when the order's page opens, never kept: codes are not cached.
 */
export const getOrderCodes = (orderId: string, signal?: AbortSignal) =>
  apiGet(`/payment-products/${segment(orderId)}`, OrderDeliverySchema, { signal });

export const useOrderCodes = (orderId: string, enabled: boolean) =>
  useQuery({
    queryKey: [...ORDERS_QUERY_KEY, 'codes', orderId],
    queryFn: ({ signal }) => getOrderCodes(orderId, signal),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
