import { ProductDetailSchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';

export const getProduct = (id: number, signal?: AbortSignal) =>
  apiGet(`/products/${segment(id)}`, ProductDetailSchema, { signal });

export const productQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['product', id],
    queryFn: ({ signal }) => getProduct(id, signal),
  });

export const useProduct = (id: number) => useQuery(productQueryOptions(id));
