import type { Prisma } from '@store/db';

/**
 * Takes the promo code's row until the transaction ends (Prisma has no SELECT ... FOR UPDATE):
 * redemptions of one code run one after another, each seeing the uses counted before it.
 * Undefined when there is no such code.
 */
export async function lockPromoCode(tx: Prisma.TransactionClient, code: string): Promise<number | undefined> {
  const rows = await tx.$queryRaw<Array<{ id: number }>>`SELECT id FROM promo_codes WHERE code = ${code} FOR UPDATE`;
  return rows[0]?.id;
}
