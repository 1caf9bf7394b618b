import { prepare, type Queryable, qb } from '@store/db';

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
  | 'promo_gone'
  | 'receipt_resent'
  | 'code_revealed';

export interface OrderEventInput {
  orderId: string;
  actor: string;
  kind: OrderEventKind;
  amountMinor?: number | null;
  paymentId?: string | null;
  /** What else there is to say: small, and never a secret (no code, no card number). */
  detail?: Record<string, unknown> | null;
}

/**
 * The event's insert, for a caller that runs it with others in one statement (as a CTE,
 * `qb.with('history', () => orderEventInsertion(event))`).
 */
export function orderEventInsertion(event: OrderEventInput) {
  return orderEventRowInsert(orderEventRow(event));
}

/** An event's row: what orderEventInsertion writes, the detail as JSON text. */
export interface OrderEventRow {
  orderId: string;
  actor: string;
  kind: OrderEventKind;
  amountMinor: number | null;
  paymentId: string | null;
  detail: string | null;
}

export function orderEventRow(event: OrderEventInput): OrderEventRow {
  return {
    orderId: event.orderId,
    actor: event.actor,
    kind: event.kind,
    amountMinor: event.amountMinor ?? null,
    paymentId: event.paymentId ?? null,
    detail: event.detail ? JSON.stringify(event.detail) : null,
  };
}

/** The insert of an event's row, for a prepared statement too: each value is one parameter. */
export function orderEventRowInsert(row: OrderEventRow) {
  return qb.insertInto('order_events').values({
    order_id: row.orderId,
    actor: row.actor,
    kind: row.kind,
    amount_minor: row.amountMinor,
    payment_id: row.paymentId,
    detail: row.detail,
  });
}

export async function recordOrderEvent(tx: Queryable, event: OrderEventInput): Promise<void> {
  await tx.execute(orderEventStatement(orderEventRow(event)));
}

const orderEventStatement = prepare(orderEventRowInsert);

/** The order's history, oldest first. */
export function orderHistory(sql: Queryable, orderId: string) {
  return sql.query(
    qb
      .selectFrom('order_events')
      .select([
        'id',
        'created_at as createdAt',
        'actor',
        'kind',
        'from_status as fromStatus',
        'to_status as toStatus',
        'amount_minor as amountMinor',
        'payment_id as paymentId',
        'detail',
      ])
      .where('order_id', '=', orderId)
      .orderBy('id')
      // What recordOrderEvent wrote: an object, or nothing.
      .$narrowType<{ detail: Record<string, unknown> | null }>(),
  );
}
