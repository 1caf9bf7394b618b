import { type LocaleUpdateRequestSchema, UserResponseSchema } from '@store/contract';
import type { z } from 'zod';
import { apiSend } from '../../../lib/api-client.ts';
import { storeUser } from '../../auth/api/get-user.ts';

/** The customer's language, which the store's emails are written in. */
export const updateLocale = async (body: z.input<typeof LocaleUpdateRequestSchema>) => {
  const { user } = await apiSend('PATCH', '/profile/locale', body, UserResponseSchema);
  storeUser(user);
  return user;
};
