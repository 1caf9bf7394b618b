import { OkResponseSchema, type PasswordUpdateRequest } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';

/** First step of a password change: the server checks the current password and mails a link. */
export const updatePassword = (body: PasswordUpdateRequest) =>
  apiSend('PATCH', '/profile/password-update', body, OkResponseSchema);

export const useUpdatePassword = () => useMutation({ mutationFn: updatePassword });
