import { CardTypeResponseSchema } from '@store/contract';
import { apiSend } from '../../../lib/api-client.ts';

/** POST /card-type with the first digits of the number: the brand, or null. */
export const getCardType = (prefix: string, signal?: AbortSignal) =>
  apiSend('POST', '/card-type', { number: prefix }, CardTypeResponseSchema, signal ? { signal } : {});
