import { type BasketPatchBody, BasketResponseSchema } from '@store/contract';
import { apiSend, type SendOptions } from '../../../lib/api-client.ts';

/** PATCH /basket (auth): one batch of queued changes, applied once per flush id; answers the whole basket. */
export const patchBasket = (body: BasketPatchBody, options?: SendOptions) =>
  apiSend('PATCH', '/basket', body, BasketResponseSchema, options);
