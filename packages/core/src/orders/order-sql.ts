import { type OrderStatus, type OrderType, prepare, type Queryable, qb } from '@store/db';

/**
 * Statements of orders: the row locks Prisma's query builder cannot take, built with `qb` from the
 * tables' types and run on the driver (sql-client.ts).
 */

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

/**
 * The columns of a LockedOrder, for a statement on orders that answers an order:
 * `qb.selectFrom('orders').select(orderColumns)`, or `.returning(orderColumns)`.
 */
export const orderColumns = [
  'id',
  'user_id as userId',
  'type',
  'status',
  'subtotal_minor as subtotalMinor',
  'discount_minor as discountMinor',
  'total_minor as totalMinor',
  'refunded_minor as refundedMinor',
  'currency',
  'payment_id as paymentId',
  'expires_at as expiresAt',
  'promo_code_id as promoCodeId',
] as const;

/**
 * Takes the order's row until the transaction ends: a completion, a spend, a refund and the expiry
 * sweep each see the status the one before left. NO KEY UPDATE leaves the row free for the
 * foreign-key checks of a payment being recorded for it.
 */
export async function lockOrder(tx: Queryable, orderId: string): Promise<LockedOrder | undefined> {
  const rows = await tx.query(lockOrderStatement({ orderId }));
  return rows[0];
}

const lockOrderStatement = prepare((a: { orderId: string }) =>
  qb.selectFrom('orders').select(orderColumns).where('id', '=', a.orderId).forNoKeyUpdate(),
);

/**
 * Takes the customer's row (the lock the basket's writes take too). Every path that moves money or
 * codes locks in one order, order -> customer -> products (by id), so two of them never wait on
 * each other in a cycle.
 */
export async function lockCustomer(tx: Queryable, userId: string): Promise<void> {
  await tx.query(lockCustomerStatement({ userId }));
}

const lockCustomerStatement = prepare((a: { userId: string }) =>
  qb.selectFrom('users').select('id').where('id', '=', a.userId).forNoKeyUpdate(),
);

/**
 * Unpaid orders whose time is up, oldest first, locked; SKIP LOCKED leaves an order that a payment
 * is completing right now to that payment.
 */
export function lockExpiredOrders(tx: Queryable, now: Date, limit: number) {
  return tx.query(
    qb
      .selectFrom('orders')
      .select('id')
      .where('status', 'in', ['CREATED', 'PENDING'])
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .forNoKeyUpdate()
      .skipLocked(),
  );
}
