import { type ReviewCreateRequest, ReviewSchema } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';
import { myReviewKey } from './get-my-review.ts';

export const createReview = (body: ReviewCreateRequest) => apiSend('POST', '/products/feedbacks', body, ReviewSchema);

/** A new review shows at once: every page of the product's reviews is refetched, and the author's own. */
export function useCreateReview(productId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReview,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['reviews', productId] }),
        queryClient.invalidateQueries({ queryKey: myReviewKey(productId) }),
      ]),
  });
}
