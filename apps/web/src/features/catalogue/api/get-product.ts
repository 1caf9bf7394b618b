import { ProductDetailSchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';

/** The product with its description and activation instructions in `lang`, the interface language. */
export const getProduct = (id: number, lang: string, signal?: AbortSignal) =>
  apiGet(`/products/${segment(id)}`, ProductDetailSchema, { params: { lang }, signal });

export const productQueryOptions = (id: number, lang: string) =>
  queryOptions({
    queryKey: ['product', id, lang],
    queryFn: ({ signal }) => getProduct(id, lang, signal),
  });

export const useProduct = (id: number, lang: string) => useQuery(productQueryOptions(id, lang));
