import { OrderDeliverySchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';

/** GET /payment-confirm/{orderId}: the order with its products and their codes (none while unpaid). */
export const getOrderDelivery = (orderId: string, signal?: AbortSignal) =>
  apiGet(`/payment-confirm/${segment(orderId)}`, OrderDeliverySchema, { signal });

export const orderDeliveryQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: ['order-delivery', orderId],
    queryFn: ({ signal }) => getOrderDelivery(orderId, signal),
    staleTime: 0,
  });

export const useOrderDelivery = (orderId: string, enabled = true) =>
  useQuery({ ...orderDeliveryQueryOptions(orderId), enabled });
