import { AuthResponseSchema, type RegisterRequest } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { pushAnalytics } from '../../../lib/analytics.ts';
import { ApiError, apiSend } from '../../../lib/api-client.ts';
import { clearSession, setSession } from '../../../lib/session-store.ts';
import { adoptGuestBasket, refreshBasket } from '../../basket/basket-sync.ts';
import { storeUser } from './get-user.ts';

export const register = (body: RegisterRequest) => apiSend('POST', '/register', body, AuthResponseSchema);

/** Registration is one of the analytics events the store reports. */
const reportSignUp = () => pushAnalytics({ event: 'sign_up', method: 'email' });

export const useRegister = () =>
  useMutation({
    mutationFn: register,
    // As at login, the guest basket is merged before registration counts as done.
    onSuccess: async ({ token, user }) => {
      adoptGuestBasket(user.id);
      setSession(token, user);
      storeUser(user);
      reportSignUp();
      await refreshBasket();
    },
    onError: (error) => {
      // Failures other than field errors and rate limiting (docs/api.md, "Errors") remove the stored token.
      if (!(error instanceof ApiError && (error.status === 422 || error.status === 429))) clearSession();
    },
  });
