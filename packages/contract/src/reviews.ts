import * as z from 'zod/mini';
import { blankIsUnset, PageInfoSchema, PagingQuerySchema } from './catalogue.ts';
import { ErrorKeys } from './errors.ts';

// Product reviews as the product page reads them. A file of their own: the catalogue's schemas are in
// every page's first download, and reviews are read only on the product page.

export const ReviewSchema = z.object({
  id: z.string(),
  rating: z.int().check(z.minimum(1), z.maximum(5)),
  text: z.string(),
  author: z.string(),
  created_at: z.string(),
  /**
   * The author bought the product: an order of theirs that was paid and delivered a code of it, and
   * was not refunded in full. Worked out when read, so a refund takes it away at once.
   */
  verified_buyer: z.boolean(),
  /** When the author last changed it; null if never. */
  edited_at: z.nullable(z.string()),
});
export type Review = z.infer<typeof ReviewSchema>;

export const ReviewsResponseSchema = z.extend(PageInfoSchema, {
  feedbacks: z.array(ReviewSchema),
  average: z.nullable(z.number()),
});
export type ReviewsResponse = z.infer<typeof ReviewsResponseSchema>;

/** `GET /products/{id}/my-review`: the signed-in customer's review of the product, if they wrote one. */
export const MyReviewResponseSchema = z.object({ review: z.nullable(ReviewSchema) });
export type MyReviewResponse = z.infer<typeof MyReviewResponseSchema>;

/** How a product's reviews are listed: newest first, or verified buyers' first (newest first within each). */
export const REVIEW_SORTS = ['newest', 'verified'] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

/** `GET /products/feedbacks/{id}`: the spec's `offset`, and the order (newest first when absent). */
export const ReviewsQuerySchema = z.extend(PagingQuerySchema, {
  sort: blankIsUnset(z.optional(z.enum(REVIEW_SORTS, { error: ErrorKeys.unknownOption }))),
});
export type ReviewsQuery = z.infer<typeof ReviewsQuerySchema>;
