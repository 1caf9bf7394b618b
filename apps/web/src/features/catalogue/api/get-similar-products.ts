import { SimilarProductsResponseSchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';

export const getSimilarProducts = (id: number, signal?: AbortSignal) =>
  apiGet(`/products/${segment(id)}/similar-products`, SimilarProductsResponseSchema, { signal });

export const similarProductsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['similar-products', id],
    queryFn: ({ signal }) => getSimilarProducts(id, signal),
  });

export const useSimilarProducts = (id: number) => useQuery(similarProductsQueryOptions(id));
