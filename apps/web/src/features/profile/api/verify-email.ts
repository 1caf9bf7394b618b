import { UserResponseSchema } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';
import { storeUser } from '../../auth/api/get-user.ts';

/** POST /profile/email-verify with the token of the emailed link. */
export const verifyEmail = (token: string) => apiSend('POST', '/profile/email-verify', { token }, UserResponseSchema);

export const useVerifyEmail = () => useMutation({ mutationFn: verifyEmail, onSuccess: ({ user }) => storeUser(user) });
