import { OkResponseSchema, type PasswordResetConfirm } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend, segment } from '../../../lib/api-client.ts';

/** PATCH /password-reset/{token}: the new password from the emailed link. */
export const resetPassword = ({ token, ...body }: PasswordResetConfirm & { token: string }) =>
  apiSend('PATCH', `/password-reset/${segment(token)}`, body, OkResponseSchema);

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
