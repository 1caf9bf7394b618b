import { OkResponseSchema, type PasswordResetRequest } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';

/** POST /password-reset: mails a reset link; an address without an account is a 422 on `email`. */
export const requestPasswordReset = (body: PasswordResetRequest) =>
  apiSend('POST', '/password-reset', body, OkResponseSchema);

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });
