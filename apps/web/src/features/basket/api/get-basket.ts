import { BasketResponseSchema } from '@store/contract';
import { apiGet } from '../../../lib/api-client.ts';
import { currentLanguage } from '../../../lib/i18n.ts';

/**
 * GET /basket (auth): the customer's server basket. No query cache entry: what the screens show is
 * the stored basket (basket-store.ts) that this answer, and every flush's, replaces.
 */
export const getServerBasket = (signal?: AbortSignal) =>
  apiGet('/basket', BasketResponseSchema, { params: { lang: currentLanguage() }, signal });
