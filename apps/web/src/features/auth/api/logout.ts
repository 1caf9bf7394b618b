import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';
import { clearSession } from '../../../lib/session-store.ts';
import { flushBasket } from '../../basket/basket-sync.ts';
import { USER_QUERY_KEY } from './get-user.ts';

/** Basket changes still queued are sent while the token works; logging out clears them. */
export async function logout() {
  await flushBasket();
  await apiSend('POST', '/logout');
}

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
