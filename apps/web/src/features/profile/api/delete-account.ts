import { type AccountDeleteRequest, OkResponseSchema } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';
import { clearSession } from '../../../lib/session-store.ts';
import { USER_QUERY_KEY } from '../../auth/api/get-user.ts';

/** DELETE /profile: the password confirms it; the server erases the account and ends every session. */
export const deleteAccount = (body: AccountDeleteRequest) => apiSend('DELETE', '/profile', body, OkResponseSchema);

/** Once deleted, this device forgets the session and everything it read with it. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      clearSession();
      queryClient.removeQueries({ queryKey: USER_QUERY_KEY });
      queryClient.removeQueries({ queryKey: ['balance'] });
    },
  });
}
