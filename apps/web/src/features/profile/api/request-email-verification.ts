import { OkResponseSchema } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';

/** Mails the signed-in customer a link to /verify-email/{token}. */
export const requestEmailVerification = () => apiSend('POST', '/profile/email-verify-request', {}, OkResponseSchema);

export const useRequestEmailVerification = () => useMutation({ mutationFn: requestEmailVerification });
