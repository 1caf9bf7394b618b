import { type ProductListName, ProductListResponseSchema } from '@store/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

/** GET /popular-products, /novelties, /discounts, a page at a time, with the display rate of `lang`. */
export const getProductList = (list: ProductListName, page: number, lang: string, signal?: AbortSignal) =>
  apiGet(`/${list}`, ProductListResponseSchema, { params: { page, lang }, signal });

export const productListQueryOptions = (list: ProductListName, lang: string) =>
  infiniteQueryOptions({
    queryKey: ['product-list', list, lang],
    queryFn: ({ pageParam, signal }) => getProductList(list, pageParam, lang, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.result.page < last.result.pages ? last.result.page + 1 : undefined),
  });

export const useProductList = (list: ProductListName, lang: string) =>
  useInfiniteQuery(productListQueryOptions(list, lang));
