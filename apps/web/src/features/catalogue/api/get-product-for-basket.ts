import { ProductSummarySchema } from '@store/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';

/** The basket line of a product the basket has not seen yet (docs/api.md, "Catalogue and search"). */
export const getProductForBasket = (id: number, signal?: AbortSignal) =>
  apiGet(`/products/for-basket/${segment(id)}`, ProductSummarySchema, { signal });

export const productForBasketQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['product-for-basket', id],
    queryFn: ({ signal }) => getProductForBasket(id, signal),
  });
