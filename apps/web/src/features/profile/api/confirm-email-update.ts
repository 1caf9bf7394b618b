import { UserResponseSchema } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend, segment } from '../../../lib/api-client.ts';
import { storeUser } from '../../auth/api/get-user.ts';

/** Second step of an email change: the token from the link sent to the new address. */
export const confirmEmailUpdate = (token: string) =>
  apiSend('PATCH', `/profile/email-update-confirmation/${segment(token)}`, {}, UserResponseSchema);

export const useConfirmEmailUpdate = () =>
  useMutation({ mutationFn: confirmEmailUpdate, onSuccess: ({ user }) => storeUser(user) });
