import { Prisma, type Queryable, qb } from '@store/db';
import { UNPAID_STATUSES } from '../orders/order-state.ts';
import { noPaymentOpen } from '../payments/payment-deciding.ts';

/** Raw SQL of promo codes: a code with its scope and the customer's use of it, locked when asked. */

/** A promo code as its rules need it. */
export interface PromoRule {
  id: number;
  code: string;
  discountPercent: number;
  validFrom: Date | null;
  validUntil: Date | null;
  maxUses: number | null;
  usedCount: number;
  isActive: boolean;
  /** The scope: categories and products; both empty is the whole basket. */
  categoryIds: number[];
  productIds: number[];
  /**
   * The customer's own use of it (one at most): `held` by an order still waiting for a payment that
   * is open (payment-deciding.ts: the use comes back if that order ends unpaid); `abandoned` by an
   * order still unpaid that no payment is open on (the widget was closed, the page left), which
   * gives the code up to the customer's next order; `used` by any other; null when none.
   */
  customerUse: 'held' | 'abandoned' | 'used' | null;
}

/**
 * The code (normalised) with its scope, and whether `userId` used it, in one statement. `lock` takes
 * the code's row until the transaction ends: redemptions of one code run one after another, each
 * seeing the uses counted before it. Undefined when there is no such code.
 */
export async function readPromoRule(
  tx: Queryable,
  code: string,
  userId: string,
  { lock = false }: { lock?: boolean } = {},
): Promise<PromoRule | undefined> {
  const rows = await tx.query<PromoRule>(Prisma.sql`
    SELECT pc.id, pc.code, pc.discount_percent AS "discountPercent", pc.valid_from AS "validFrom",
           pc.valid_until AS "validUntil", pc.max_uses AS "maxUses", pc.used_count AS "usedCount",
           pc.is_active AS "isActive",
           ARRAY(SELECT category_id FROM promo_code_categories WHERE promo_code_id = pc.id) AS "categoryIds",
           ARRAY(SELECT product_id FROM promo_code_products WHERE promo_code_id = pc.id) AS "productIds",
           (SELECT CASE WHEN o.status <> ALL(${[...UNPAID_STATUSES]}::text[]::order_status[]) THEN 'used'
                        WHEN ${noPaymentOpen(Prisma.sql`o.id`)} THEN 'abandoned'
                        ELSE 'held' END
            FROM promo_redemptions r JOIN orders o ON o.id = r.order_id
            WHERE r.promo_code_id = pc.id AND r.user_id = ${userId}::uuid) AS "customerUse"
    FROM promo_codes pc WHERE pc.code = ${code}
    ${lock ? Prisma.sql`FOR UPDATE OF pc` : Prisma.empty}`);
  return rows[0];
}

/**
 * Takes a promo code's use again for an order paid after it ended unpaid (its use was given back
 * then), as a redemption does: under the code's lock, so uses are counted one at a time. Refused
 * (false) when the code has no use left, or when the customer's one use of it belongs to another
 * order now. The customer's row must be locked first (the order in which a new order takes them).
 */
export async function retakePromoUse(
  tx: Queryable,
  { promoCodeId, userId, orderId }: { promoCodeId: number; userId: string; orderId: string },
): Promise<boolean> {
  const rows = await tx.query(
    qb
      .with('code', (db) =>
        db.selectFrom('promo_codes').select(['id', 'max_uses', 'used_count']).where('id', '=', promoCodeId).forUpdate(),
      )
      .with('used', (db) =>
        db
          .insertInto('promo_redemptions')
          .columns(['id', 'promo_code_id', 'user_id', 'order_id'])
          .expression((eb) =>
            eb
              .selectFrom('code as c')
              .select((eb) => [
                eb.fn<string>('gen_random_uuid').as('id'),
                'c.id as promo_code_id',
                eb.val(userId).as('user_id'),
                eb.val(orderId).as('order_id'),
              ])
              .where((eb) => eb.or([eb('c.max_uses', 'is', null), eb('c.used_count', '<', eb.ref('c.max_uses'))])),
          )
          .onConflict((oc) => oc.doNothing())
          .returning('promo_code_id'),
      )
      .updateTable('promo_codes')
      .set((eb) => ({ used_count: eb('used_count', '+', eb.lit(1)) }))
      .where((eb) => eb('id', '=', eb.selectFrom('used').select('promo_code_id')))
      .returning('id'),
  );
  return rows.length === 1;
}
