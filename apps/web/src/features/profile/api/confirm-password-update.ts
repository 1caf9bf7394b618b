import { OkResponseSchema } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';

/** Second step of a password change: the token from the emailed link. */
export const confirmPasswordUpdate = (token: string) =>
  apiSend('POST', '/profile/password-update-confirmation', { token }, OkResponseSchema);

export const useConfirmPasswordUpdate = () => useMutation({ mutationFn: confirmPasswordUpdate });
