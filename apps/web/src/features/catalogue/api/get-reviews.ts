import { REVIEW_PAGE_SIZE, type ReviewSort, ReviewsResponseSchema } from '@store/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';

/**
 * Reviews of a product (docs/api.md, "Catalogue and search"); `page` counts from 1 and is sent as an
 * offset. Newest first is the server's own order, so it is not sent.
 */
export const getReviews = (productId: number, page: number, sort: ReviewSort = 'newest', signal?: AbortSignal) =>
  apiGet(`/products/feedbacks/${segment(productId)}`, ReviewsResponseSchema, {
    params: { offset: (page - 1) * REVIEW_PAGE_SIZE, sort: sort === 'newest' ? undefined : sort },
    signal,
  });

export const reviewsQueryOptions = (productId: number, page: number, sort: ReviewSort = 'newest') =>
  queryOptions({
    queryKey: ['reviews', productId, page, sort],
    queryFn: ({ signal }) => getReviews(productId, page, sort, signal),
    placeholderData: keepPreviousData,
  });

export const useReviews = (productId: number, page: number, sort: ReviewSort = 'newest') =>
  useQuery(reviewsQueryOptions(productId, page, sort));
