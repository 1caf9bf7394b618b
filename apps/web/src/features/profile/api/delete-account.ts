import type { AccountDeleteRequest } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';
import { clearSession } from '../../../lib/session-store.ts';
import { USER_QUERY_KEY } from '../../auth/api/get-user.ts';

/**
 * DELETE /profile: the password confirms it; the server erases the account and ends every session.
 * Its answer says only that it worked, so it is not parsed: the schema would be one more shared chunk.
 */
export const deleteAccount = (body: AccountDeleteRequest) => apiSend('DELETE', '/profile', body);

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
