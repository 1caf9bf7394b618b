import { REVIEW_PAGE_SIZE, ReviewsResponseSchema } from '@store/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';

/**
 * Reviews of a product (docs/api.md, "Catalogue and search"); `page` counts from 1 and is sent as an
 * offset.
 */
export const getReviews = (productId: number, page: number, signal?: AbortSignal) =>
  apiGet(`/products/feedbacks/${segment(productId)}`, ReviewsResponseSchema, {
    params: { offset: (page - 1) * REVIEW_PAGE_SIZE },
    signal,
  });

export const reviewsQueryOptions = (productId: number, page: number) =>
  queryOptions({
    queryKey: ['reviews', productId, page],
    queryFn: ({ signal }) => getReviews(productId, page, signal),
    placeholderData: keepPreviousData,
  });

export const useReviews = (productId: number, page: number) => useQuery(reviewsQueryOptions(productId, page));
