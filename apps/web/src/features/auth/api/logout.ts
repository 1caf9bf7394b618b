import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';
import { clearSession } from '../../../lib/session-store.ts';
import { USER_QUERY_KEY } from './get-user.ts';

export const logout = () => apiSend('POST', '/logout');

/** The session ends on this device whatever the server answers. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      clearSession();
      queryClient.removeQueries({ queryKey: USER_QUERY_KEY });
      queryClient.removeQueries({ queryKey: ['balance'] });
    },
  });
}
