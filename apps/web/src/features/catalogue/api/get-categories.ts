import { CategoriesResponseSchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

export const getCategories = (signal?: AbortSignal) => apiGet('/categories', CategoriesResponseSchema, { signal });

export const categoriesQueryOptions = () =>
  queryOptions({
    queryKey: ['categories'],
    queryFn: ({ signal }) => getCategories(signal),
    staleTime: 10 * 60_000,
  });

export const useCategories = () => useQuery(categoriesQueryOptions());
