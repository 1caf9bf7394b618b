import { type EmailUpdateRequest, OkResponseSchema } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';

/** First step of an email change: the server mails a confirmation link to the new address. */
export const updateEmail = (body: EmailUpdateRequest) =>
  apiSend('PATCH', '/profile/email-update', body, OkResponseSchema);

export const useUpdateEmail = () => useMutation({ mutationFn: updateEmail });
