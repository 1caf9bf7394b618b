import { CountriesResponseSchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

/** Every country, or only those the category has products for (its country filter has no dead ends). */
export const getCountries = (category?: string, signal?: AbortSignal) =>
  apiGet('/countries', CountriesResponseSchema, { params: category ? { category } : undefined, signal });

export const countriesQueryOptions = (category?: string) =>
  queryOptions({
    queryKey: ['countries', category ?? null],
    queryFn: ({ signal }) => getCountries(category, signal),
    staleTime: 60 * 60_000,
  });

export const useCountries = (category?: string) => useQuery(countriesQueryOptions(category));
