import { type OrderStatus, Prisma, type PrismaClient, type Queryable, sqlOf } from '@store/db';

/**
 * An order's history (order_events). Changes of status are written by a trigger on orders, with the
 * actor the change named (`changed_by`, set by order-state.ts with every status); what else happens
 * to an order (a payment's news, codes delivered, a refund asked of the provider and its answer, a
 * reversal, a promo code's use taken again or lost) is written here, by the code that does it, in the
 * same transaction.
 */

/** Who did it: the customer, the store by itself, the provider (by name), an operator (by name). */
export const actors = {
  customer: 'customer',
  system: 'system',
  provider: (name: string) => `provider:${name}`.slice(0, 64),
  operator: (name: string) => `operator:${name}`.slice(0, 64),
};

export type OrderEventKind =
  | 'payment'
  | 'codes'
  | 'refund_asked'
  | 'refund_sent'
  | 'refund_refused'
  | 'reversal'
  | 'promo_retaken'
  | 'promo_gone';

export interface OrderEventInput {
  orderId: string;
  actor: string;
  kind: OrderEventKind;
  amountMinor?: number | null;
  paymentId?: string | null;
  /** What else there is to say: small, and never a secret (no code, no card number). */
  detail?: Record<string, unknown> | null;
}

/** The event's insert, for a caller that runs it with others in one statement (as a CTE). */
export function orderEventInsert(event: OrderEventInput): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO order_events (order_id, actor, kind, amount_minor, payment_id, detail)
    VALUES (${event.orderId}::uuid, ${event.actor}, ${event.kind}, ${event.amountMinor ?? null}::bigint,
            ${event.paymentId ?? null}::uuid, ${event.detail ? JSON.stringify(event.detail) : null}::jsonb)`;
}

export async function recordOrderEvent(tx: Queryable, event: OrderEventInput): Promise<void> {
  await tx.execute(orderEventInsert(event));
}

export interface OrderEventView {
  id: number;
  createdAt: Date;
  actor: string;
  kind: string;
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus | null;
  amountMinor: number | null;
  paymentId: string | null;
  detail: Record<string, unknown> | null;
}

/** The order's history, oldest first. */
export function orderHistory(db: PrismaClient, orderId: string): Promise<OrderEventView[]> {
  return sqlOf(db).query<OrderEventView>(Prisma.sql`
    SELECT id, created_at AS "createdAt", actor, kind, from_status AS "fromStatus", to_status AS "toStatus",
           amount_minor AS "amountMinor", payment_id AS "paymentId", detail
    FROM order_events WHERE order_id = ${orderId}::uuid
    ORDER BY id`);
}
