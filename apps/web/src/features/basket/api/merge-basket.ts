import { type BasketMergeBody, BasketResponseSchema } from '@store/contract';
import { apiSend, type SendOptions } from '../../../lib/api-client.ts';

/** POST /basket/merge (auth): the guest basket, summed into the server basket once per merge id. */
export const mergeBasket = (body: BasketMergeBody, options?: SendOptions) =>
  apiSend('POST', '/basket/merge', body, BasketResponseSchema, options);
