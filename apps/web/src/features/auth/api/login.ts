import { AuthResponseSchema, type LoginRequest } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';
import { clearSession, setSession } from '../../../lib/session-store.ts';
import { storeUser } from './get-user.ts';

export const login = (body: LoginRequest) => apiSend('POST', '/login', body, AuthResponseSchema);

/** SPEC.md section 4: success stores the token and the user; failure removes the token. */
export const useLogin = () =>
  useMutation({
    mutationFn: login,
    onSuccess: ({ token, user }) => {
      setSession(token, user);
      storeUser(user);
    },
    onError: () => clearSession(),
  });
