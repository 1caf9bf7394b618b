import { ReviewSchema, type ReviewUpdateRequest } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend, segment } from '../../../lib/api-client.ts';
import { myReviewKey } from './get-my-review.ts';

export const updateReview = (id: string, body: ReviewUpdateRequest) =>
  apiSend('PATCH', `/reviews/${segment(id)}`, body, ReviewSchema);

/** Its answer says only that it worked: not parsed, as its schema would be one more shared chunk to load. */
export const deleteReview = (id: string) => apiSend('DELETE', `/reviews/${segment(id)}`);

/** The author's changes show at once: the product's reviews and the author's own are refetched. */
function useRefreshReviews(productId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['reviews', productId] }),
      queryClient.invalidateQueries({ queryKey: myReviewKey(productId) }),
    ]);
}

export function useUpdateReview(productId: number) {
  const refresh = useRefreshReviews(productId);
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ReviewUpdateRequest }) => updateReview(id, body),
    onSuccess: refresh,
  });
}

export function useDeleteReview(productId: number) {
  const refresh = useRefreshReviews(productId);
  return useMutation({ mutationFn: deleteReview, onSuccess: refresh });
}
