import { AuthResponseSchema, type LoginRequest } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';
import { clearSession, setSession } from '../../../lib/session-store.ts';
import { adoptGuestBasket, refreshBasket } from '../../basket/basket-sync.ts';
import { storeUser } from './get-user.ts';

export const login = (body: LoginRequest) => apiSend('POST', '/login', body, AuthResponseSchema);

/**
 * Success stores the token and the user; failure removes the token. The guest basket is merged into the
 * server basket before the login counts as done, so whatever comes next (the profile, the checkout)
 * sees the merged basket.
 */
export const useLogin = () =>
  useMutation({
    mutationFn: login,
    onSuccess: async ({ token, user }) => {
      adoptGuestBasket(user.id);
      setSession(token, user);
      storeUser(user);
      await refreshBasket();
    },
    onError: () => clearSession(),
  });
