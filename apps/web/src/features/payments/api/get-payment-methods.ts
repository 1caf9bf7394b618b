import { type OfferedPaymentMethod, PaymentMethodsResponseSchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

/**
 * GET /payments/methods: the methods the store routes to a configured provider (docs/payments.md,
 * "Providers"). Until it answers, or when it cannot, every method is shown: the payment call then
 * refuses one that is not offered, with its own message.
 */
export const paymentMethodsQueryOptions = () =>
  queryOptions({
    queryKey: ['payment-methods'] as const,
    queryFn: async ({ signal }) =>
      (await apiGet('/payments/methods', PaymentMethodsResponseSchema, { signal })).methods,
    staleTime: 5 * 60_000,
    retry: false,
  });

export const useOfferedPaymentMethods = (): readonly OfferedPaymentMethod[] | undefined =>
  useQuery(paymentMethodsQueryOptions()).data;
