import { type CreateOrderBody, CreateOrderResponseSchema } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';

/**
 * POST /orders/create (docs/orders.md, "Orders"): a purchase paid from the balance adds
 * `?type=spending`; a top-up sends `type: balance` with its `replenishmentValue`.
 */
export function createOrder(body: CreateOrderBody, { spending = false }: { spending?: boolean } = {}) {
  return apiSend('POST', `/orders/create${spending ? '?type=spending' : ''}`, body, CreateOrderResponseSchema);
}

export const useCreateOrder = () =>
  useMutation({
    mutationFn: ({ body, spending }: { body: CreateOrderBody; spending?: boolean }) => createOrder(body, { spending }),
  });
