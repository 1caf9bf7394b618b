import { BalanceResponseSchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

export const getBalance = (signal?: AbortSignal) => apiGet('/user/balance', BalanceResponseSchema, { signal });

export const balanceQueryOptions = () =>
  queryOptions({ queryKey: ['balance'], queryFn: ({ signal }) => getBalance(signal), staleTime: 0 });

export const useBalance = () => useQuery(balanceQueryOptions());
