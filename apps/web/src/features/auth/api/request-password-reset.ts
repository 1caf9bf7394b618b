import { OkResponseSchema, type PasswordResetRequest } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';

/** POST /password-reset: the answer is the same whether or not the address has an account. */
export const requestPasswordReset = (body: PasswordResetRequest) =>
  apiSend('POST', '/password-reset', body, OkResponseSchema);

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });
