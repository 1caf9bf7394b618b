import { type Queryable, qb } from '@store/db';
import { UNPAID_STATUSES } from '../orders/order-state.ts';
import { openPayments } from '../payments/payment-deciding.ts';

/** Statements of promo codes: a code with its scope and the customer's use of it, locked when asked. */

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
  const rows = await tx.query(
    qb
      .selectFrom('promo_codes as pc')
      .select((eb) => [
        'pc.id',
        'pc.code',
        'pc.discount_percent as discountPercent',
        'pc.valid_from as validFrom',
        'pc.valid_until as validUntil',
        'pc.max_uses as maxUses',
        'pc.used_count as usedCount',
        'pc.is_active as isActive',
        // ARRAY(subquery): the scope's ids, empty when there are none.
        eb
          .fn<number[]>('array', [
            eb.selectFrom('promo_code_categories').select('category_id').whereRef('promo_code_id', '=', 'pc.id'),
          ])
          .as('categoryIds'),
        eb
          .fn<number[]>('array', [
            eb.selectFrom('promo_code_products').select('product_id').whereRef('promo_code_id', '=', 'pc.id'),
          ])
          .as('productIds'),
        eb
          .selectFrom('promo_redemptions as r')
          .innerJoin('orders as o', 'o.id', 'r.order_id')
          .select((eb) =>
            eb
              .case()
              .when(eb.not(eb('o.status', 'in', UNPAID_STATUSES)))
              .then('used' as const)
              .when(eb.not(eb.exists(openPayments(eb.ref('o.id')))))
              .then('abandoned' as const)
              .else('held' as const)
              .end()
              .as('customerUse'),
          )
          .whereRef('r.promo_code_id', '=', 'pc.id')
          .where('r.user_id', '=', userId)
          .as('customerUse'),
      ])
      .where('pc.code', '=', code)
      .$if(lock, (query) => query.forUpdate('pc')),
  );
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
