import { AuthResponseSchema, type RegisterRequest } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { ApiError, apiSend } from '../../../lib/api-client.ts';
import { clearSession, setSession } from '../../../lib/session-store.ts';
import { storeUser } from './get-user.ts';

export const register = (body: RegisterRequest) => apiSend('POST', '/register', body, AuthResponseSchema);

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

/** SPEC.md section 7: registration is one of the analytics events the store reports. */
function reportSignUp() {
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ event: 'sign_up', method: 'email' });
}

export const useRegister = () =>
  useMutation({
    mutationFn: register,
    onSuccess: ({ token, user }) => {
      setSession(token, user);
      storeUser(user);
      reportSignUp();
    },
    onError: (error) => {
      // SPEC.md section 8: failures other than field errors and rate limiting remove the stored token.
      if (!(error instanceof ApiError && (error.status === 422 || error.status === 429))) clearSession();
    },
  });
