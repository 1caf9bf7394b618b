import { PAYMENT_POLL_MS, PaymentStatusResponseSchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';

/** POST /payment/status: it only reads, so it is a query, polled while the payment is `init`. */
export const getPaymentStatus = (orderId: string, signal?: AbortSignal) =>
  apiSend('POST', '/payment/status', { orderId }, PaymentStatusResponseSchema, signal ? { signal } : {});

export const paymentStatusQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: ['payment-status', orderId],
    queryFn: ({ signal }) => getPaymentStatus(orderId, signal),
    staleTime: 0,
    // Polled every second while the provider has not answered (docs/payments.md, "How the browser goes on").
    refetchInterval: (query) => (query.state.data?.status === 'init' || query.state.error ? PAYMENT_POLL_MS : false),
    retry: false,
  });

export const usePaymentStatus = (orderId: string, enabled = true) =>
  useQuery({ ...paymentStatusQueryOptions(orderId), enabled });
