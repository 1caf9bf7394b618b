import { PromoErrorSchema, type PromoRefusal, PromoResultSchema } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { ApiError, apiSend, toSearch } from '../../../lib/api-client.ts';

/**
 * POST /promocode/?price={n}&code={code} (docs/orders.md, "Promo codes"). `price` is the total the
 * customer sees; the server computes the discount from the server basket and says which lines it
 * applies to.
 */
export const applyPromoCode = ({ code, totalMinor }: { code: string; totalMinor: number }) =>
  apiSend(
    'POST',
    `/promocode/${toSearch({ price: (totalMinor / 100).toFixed(2), code: code.trim() })}`,
    undefined,
    PromoResultSchema,
  );

export const useApplyPromoCode = () => useMutation({ mutationFn: applyPromoCode });

/** Why the server refused a code (the 422's `reason`); null for a malformed code, which has none. */
export function promoRefusal(error: unknown): PromoRefusal | null {
  if (!(error instanceof ApiError)) return null;
  const body = PromoErrorSchema.safeParse(error.body);
  return body.success ? (body.data.reason ?? null) : null;
}
