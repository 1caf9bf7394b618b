import type { OrderStatusName, PaymentType } from '@store/contract';
import { type OrderStatus, type OrderType, prepareEach, type Queryable, qb } from '@store/db';
import { reservationRelease } from '../fulfilment/fulfilment-sql.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';

/**
 * The order state machine: for each status, the statuses an order may reach it from.
 *
 *   CREATED -> PENDING -> PAID -> FULFILLED | PARTIALLY_REFUNDED | REFUNDED
 *   CREATED | PENDING -> FAILED | CANCELLED | EXPIRED
 *
 * EXPIRED is its own ending rather than CANCELLED, so a payment that lands late can be told from
 * one that was called off. A payment confirmed by the provider after any unpaid ending still moves
 * the order to PAID: the money then buys the goods, or goes back to the balance where the codes are
 * gone, and is never kept without either. REFUNDED is reached by a fulfilment that delivered
 * nothing, by an operator refunding a paid order, or by the provider giving all of its payment back;
 * PARTIALLY_REFUNDED by a shortfall at fulfilment or a part given back later, and again by each
 * further part (its refunded amount grows) until the whole is back.
 */
export const ALLOWED_FROM: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  CREATED: [],
  PENDING: ['CREATED'],
  PAID: ['CREATED', 'PENDING', 'EXPIRED', 'FAILED', 'CANCELLED'],
  FULFILLED: ['PAID'],
  PARTIALLY_REFUNDED: ['PAID', 'FULFILLED', 'PARTIALLY_REFUNDED'],
  REFUNDED: ['PAID', 'FULFILLED', 'PARTIALLY_REFUNDED'],
  FAILED: ['CREATED', 'PENDING'],
  CANCELLED: ['CREATED', 'PENDING'],
  EXPIRED: ['CREATED', 'PENDING'],
};

/** Waiting for its payment. */
export const UNPAID_STATUSES: readonly OrderStatus[] = ['CREATED', 'PENDING'];
/** Ended without a payment; a late payment still completes it. */
export const UNPAID_ENDINGS: readonly OrderStatus[] = ['FAILED', 'CANCELLED', 'EXPIRED'];
/** Paid and done with: codes delivered or their price refunded, a top-up credited. */
export const COMPLETED_STATUSES: readonly OrderStatus[] = ['FULFILLED', 'PARTIALLY_REFUNDED', 'REFUNDED'];
/** Paid: what a payment made of the order, whatever came after. */
export const PAID_STATUSES: readonly OrderStatus[] = ['PAID', ...COMPLETED_STATUSES];

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ALLOWED_FROM[to].includes(from);
}

/** The status as the API names it. */
export function statusName(status: OrderStatus): OrderStatusName {
  return status.toLowerCase() as OrderStatusName;
}

/** The order type as the API names it (docs/api.md, "Basket, orders and delivery"). */
export function typeName(type: OrderType): PaymentType {
  return type.toLowerCase() as PaymentType;
}

/** A transition the state machine does not allow from where the order is now. */
export class IllegalTransitionError extends ConflictError {
  constructor(
    readonly orderId: string,
    readonly from: OrderStatus,
    readonly to: OrderStatus,
  ) {
    super(`Order ${orderId} cannot go from ${from} to ${to}.`);
  }
}

/** What a transition writes beside the status. */
export interface TransitionChanges {
  /** Who makes the change, as the order's history records it (order-events.ts `actors`). */
  actor: string;
  paidAt?: Date;
  paymentId?: string;
  fulfilledAt?: Date;
  refundedMinor?: number;
}

/**
 * Leaving an order unpaid gives back what it held: its promo code (the customer may use it on
 * another order), here, and its reserved codes (back in stock), with reservationRelease.
 */
async function releasePromoRedemptions(tx: Queryable, orderIds: string[]) {
  const released = await tx.query(
    qb
      .deleteFrom('promo_redemptions')
      .where((eb) => eb('order_id', '=', eb.fn.any(eb.val(orderIds))))
      .returning('promo_code_id as promoCodeId'),
  );
  const perCode = new Map<number, number>();
  for (const { promoCodeId } of released) perCode.set(promoCodeId, (perCode.get(promoCodeId) ?? 0) + 1);
  // One code at a time, in id order: two releases never wait on each other's codes in a cycle.
  for (const [id, count] of [...perCode].sort(([a], [b]) => a - b)) {
    await tx.execute(
      qb
        .updateTable('promo_codes')
        .set((eb) => ({ used_count: eb('used_count', '-', count) }))
        .where('id', '=', id),
    );
  }
}

/**
 * The statement of a transition, for a caller that runs it with others in one statement (as a CTE,
 * `qb.with('moved', () => transitionUpdate(...))`): the same conditional update transitionOrders
 * runs, answering the orders that moved (id, status, userId). Not for the unpaid endings, which also
 * give promo codes back.
 */
export function transitionUpdate(orderIds: readonly string[], to: OrderStatus, changes: TransitionChanges) {
  if (UNPAID_ENDINGS.includes(to)) throw new RangeError(`a move to ${to} goes through transitionOrders`);
  return transitionQuery(orderIds, to, changes);
}

/**
 * The conditional update of a transition; a change left out keeps its column as it is (COALESCE of
 * a null parameter), and the statuses it may come from are one text[] parameter compared with the
 * status's label, so that every transition is the one statement text (and the array one PGlite can
 * send: it has no encoder for an array of order_status).
 */
function transitionQuery(orderIds: readonly string[], to: OrderStatus, changes: TransitionChanges) {
  return qb
    .updateTable('orders')
    .set((eb) => ({
      status: to,
      paid_at: eb.fn.coalesce(eb.cast<Date | null>(eb.val(changes.paidAt ?? null), 'timestamptz'), 'paid_at'),
      payment_id: eb.fn.coalesce(eb.cast<string | null>(eb.val(changes.paymentId ?? null), 'uuid'), 'payment_id'),
      fulfilled_at: eb.fn.coalesce(
        eb.cast<Date | null>(eb.val(changes.fulfilledAt ?? null), 'timestamptz'),
        'fulfilled_at',
      ),
      refunded_minor: eb.fn.coalesce(
        eb.cast<number | null>(eb.val(changes.refundedMinor ?? null), 'bigint'),
        'refunded_minor',
      ),
      changed_by: changes.actor,
      updated_at: eb.fn<Date>('now'),
    }))
    .where((eb) =>
      eb.and([
        eb('id', '=', eb.fn.any(eb.val(orderIds))),
        eb(eb.cast<string>('status', 'text'), '=', eb.fn.any(eb.val<readonly string[]>(ALLOWED_FROM[to]))),
      ]),
    )
    .returning(['id', 'status', 'user_id as userId']);
}

/** transitionQuery, prepared once for each status moved to (its allowed-from list is fixed with it). */
const transitionStatement = prepareEach((to: OrderStatus, a: TransitionChanges & { orderIds: readonly string[] }) =>
  transitionQuery(a.orderIds, to, a),
);

/**
 * The one function that changes an order's status; the trigger on orders writes each change into
 * the order's history with `changes.actor`. Each move is a conditional update,
 * `UPDATE orders SET status = $to ... WHERE id = ANY($ids) AND status = ANY($allowedFrom)`, so two
 * runs racing for the same order cannot both apply it: the second finds the status moved and its
 * update touches nothing. Answers the orders that moved; the others are left as they were.
 */
export async function transitionOrders(
  tx: Queryable,
  orderIds: string[],
  to: OrderStatus,
  changes: TransitionChanges,
): Promise<Array<{ id: string; status: OrderStatus; userId: string }>> {
  if (orderIds.length === 0) return [];
  const ending = UNPAID_ENDINGS.includes(to);
  const moved = await tx.query(
    transitionStatement(to, {
      orderIds,
      actor: changes.actor,
      paidAt: changes.paidAt,
      paymentId: changes.paymentId,
      fulfilledAt: changes.fulfilledAt,
      refundedMinor: changes.refundedMinor,
    }),
  );
  if (ending && moved.length > 0) {
    const ended = moved.map((order) => order.id);
    await releasePromoRedemptions(tx, ended);
    await tx.execute(reservationRelease(ended));
  }
  return moved;
}

/** One order's transition; one that the state machine refuses (or a race has taken) throws. */
export async function transitionOrder(
  tx: Queryable,
  orderId: string,
  to: OrderStatus,
  changes: TransitionChanges,
): Promise<void> {
  const [moved] = await transitionOrders(tx, [orderId], to, changes);
  if (!moved) await refuseTransition(tx, orderId, to);
}

/**
 * Why a transition to `to` moved nothing: the order does not exist, or the state machine refuses it
 * from where it is.
 */
export async function refuseTransition(tx: Queryable, orderId: string, to: OrderStatus): Promise<never> {
  const [current] = await tx.query(qb.selectFrom('orders').select('status').where('id', '=', orderId));
  if (!current) throw new NotFoundError('Order');
  throw new IllegalTransitionError(orderId, current.status, to);
}
