import { CountriesResponseSchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

export const getCountries = (signal?: AbortSignal) => apiGet('/countries', CountriesResponseSchema, { signal });

export const countriesQueryOptions = () =>
  queryOptions({
    queryKey: ['countries'],
    queryFn: ({ signal }) => getCountries(signal),
    staleTime: 60 * 60_000,
  });

export const useCountries = () => useQuery(countriesQueryOptions());
