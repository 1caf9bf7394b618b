import { CurrenciesResponseSchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

export const getCurrencies = (signal?: AbortSignal) => apiGet('/currencies', CurrenciesResponseSchema, { signal });

export const currenciesQueryOptions = () =>
  queryOptions({
    queryKey: ['currencies'],
    queryFn: ({ signal }) => getCurrencies(signal),
    staleTime: 60 * 60_000,
  });

export const useCurrencies = () => useQuery(currenciesQueryOptions());
