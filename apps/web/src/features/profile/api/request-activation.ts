import { OkResponseSchema } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';

/** Mails the signed-in customer a new activation link, for an account not activated yet. */
export const requestActivation = () => apiSend('POST', '/profile/activation-request', {}, OkResponseSchema);

export const useRequestActivation = () => useMutation({ mutationFn: requestActivation });
