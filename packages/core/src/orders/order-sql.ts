import { type OrderStatus, type OrderType, Prisma, type Queryable } from '@store/db';

/** Raw SQL of orders: the row locks Prisma's query builder cannot take, on the driver (sql-client.ts). */

export interface LockedOrder {
  id: string;
  userId: string;
  type: OrderType;
  status: OrderStatus;
  subtotalMinor: number;
  discountMinor: number;
  totalMinor: number;
  refundedMinor: number;
  currency: string;
  paymentId: string | null;
  expiresAt: Date | null;
  /** The promo code the order was priced with, if any. */
  promoCodeId: number | null;
}

/** The columns of a LockedOrder, for a statement that answers an order. */
export const ORDER_COLUMNS = Prisma.sql`
  id, user_id AS "userId", type, status, subtotal_minor AS "subtotalMinor",
  discount_minor AS "discountMinor", total_minor AS "totalMinor", refunded_minor AS "refundedMinor",
  currency, payment_id AS "paymentId", expires_at AS "expiresAt", promo_code_id AS "promoCodeId"`;

/**
 * Takes the order's row until the transaction ends: a completion, a spend, a refund and the expiry
 * sweep each see the status the one before left. NO KEY UPDATE leaves the row free for the
 * foreign-key checks of a payment being recorded for it.
 */
export async function lockOrder(tx: Queryable, orderId: string): Promise<LockedOrder | undefined> {
  const rows = await tx.query<LockedOrder>(Prisma.sql`
    SELECT ${ORDER_COLUMNS}
    FROM orders WHERE id = ${orderId}::uuid
    FOR NO KEY UPDATE`);
  return rows[0];
}

/**
 * Takes the customer's row (the lock the basket's writes take too). Every path that moves money or
 * codes locks in one order, order -> customer -> products (by id), so two of them never wait on
 * each other in a cycle.
 */
export async function lockCustomer(tx: Queryable, userId: string): Promise<void> {
  await tx.query(Prisma.sql`SELECT 1 FROM users WHERE id = ${userId}::uuid FOR NO KEY UPDATE`);
}

/**
 * Unpaid orders whose time is up, oldest first, locked; SKIP LOCKED leaves an order that a payment
 * is completing right now to that payment.
 */
export function lockExpiredOrders(tx: Queryable, now: Date, limit: number) {
  return tx.query<{ id: string }>(Prisma.sql`
    SELECT id FROM orders
    WHERE status IN ('CREATED', 'PENDING') AND expires_at <= ${now}
    ORDER BY expires_at
    LIMIT ${limit}
    FOR NO KEY UPDATE SKIP LOCKED`);
}
