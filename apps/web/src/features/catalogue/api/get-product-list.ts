import { type ProductListName, ProductListResponseSchema } from '@store/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client.ts';

/** GET /popular-products, /novelties, /discounts, a page at a time. */
export const getProductList = (list: ProductListName, page: number, signal?: AbortSignal) =>
  apiGet(`/${list}`, ProductListResponseSchema, { params: { page }, signal });

export const productListQueryOptions = (list: ProductListName) =>
  infiniteQueryOptions({
    queryKey: ['product-list', list],
    queryFn: ({ pageParam, signal }) => getProductList(list, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.result.page < last.result.pages ? last.result.page + 1 : undefined),
  });

export const useProductList = (list: ProductListName) => useInfiniteQuery(productListQueryOptions(list));
