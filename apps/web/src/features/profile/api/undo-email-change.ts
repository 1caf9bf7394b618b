import { OkResponseSchema } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend, segment } from '../../../lib/api-client.ts';
import { clearSession } from '../../../lib/session-store.ts';
import { USER_QUERY_KEY } from '../../auth/api/get-user.ts';

/**
 * The link mailed to the address a change of email left: the address comes back, and every session
 * of the account ends, with its password. Works signed out; no bearer token is needed.
 */
export const undoEmailChange = (token: string) =>
  apiSend('POST', `/profile/email-update/undo/${segment(token)}`, {}, OkResponseSchema);

/** A session on this device, if any, ended on the server with the others: it ends here too. */
export function useUndoEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: undoEmailChange,
    onSuccess: () => {
      clearSession();
      queryClient.removeQueries({ queryKey: USER_QUERY_KEY });
      queryClient.removeQueries({ queryKey: ['balance'] });
    },
  });
}
