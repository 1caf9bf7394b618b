import { MyReviewResponseSchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';

export const myReviewKey = (productId: number) => ['my-review', productId] as const;

/** The signed-in customer's own review of a product, or null (docs/api.md, "Catalogue and search"). */
export const getMyReview = (productId: number, signal?: AbortSignal) =>
  apiGet(`/products/${segment(productId)}/my-review`, MyReviewResponseSchema, { signal });

export const myReviewQueryOptions = (productId: number) =>
  queryOptions({
    queryKey: myReviewKey(productId),
    queryFn: ({ signal }) => getMyReview(productId, signal),
    select: (data) => data.review,
  });

export const useMyReview = (productId: number) => useQuery(myReviewQueryOptions(productId));
