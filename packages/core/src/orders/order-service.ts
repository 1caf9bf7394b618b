import { randomUUID } from 'node:crypto';
import {
  type CreateOrderResponse,
  ErrorKeys,
  ORDER_TTL_MINUTES,
  type PaymentStatusResponse,
  type PaymentStatusValue,
  type PaymentType,
  promoDiscountMinor,
  type SpendResponse,
  STORE_CURRENCY,
} from '@store/contract';
import { type OrderStatus, type OrderType, prepare, type Queryable, qb, type SqlClient } from '@store/db';
import { createFulfilmentService, type FulfilmentOutcome, type PaidWith } from '../fulfilment/fulfilment-service.ts';
import { RESERVED_UNITS_MAX, reservation, reservationRelease, reserveRemaining } from '../fulfilment/fulfilment-sql.ts';
import { recordBalanceNotice } from '../ledger/balance-notice.ts';
import { accounts, BalanceOwedError, InsufficientFundsError, ledgerKeys, transfer } from '../ledger/ledger-service.ts';
import { enqueueEmailSend } from '../mail/outbox.ts';
import { openPayments } from '../payments/payment-deciding.ts';
import { enqueueProviderRefund, returnToPayer } from '../payments/provider-refunds.ts';
import { normalizePromoCode, type PromoService } from '../promo/promo-service.ts';
import { retakePromoUse } from '../promo/promo-sql.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';
import { minorToDisplay, wholeToMinor } from '../shared/money.ts';
import { actors, recordOrderEvent } from './order-events.ts';
import { type LockedOrder, lockCustomer, lockExpiredOrders, lockOrder, orderColumns } from './order-sql.ts';
import {
  COMPLETED_STATUSES,
  statusName,
  transitionOrders,
  typeName,
  UNPAID_ENDINGS,
  UNPAID_STATUSES,
} from './order-state.ts';

/** How long an unpaid order waits for its payment (ORDER_TTL_MINUTES of the contract). */
export const ORDER_TTL_MS = ORDER_TTL_MINUTES * 60_000;

const TYPE_BY_NAME: Record<PaymentType, OrderType> = { purchase: 'PURCHASE', balance: 'BALANCE', spending: 'SPENDING' };

export interface CreateOrderInput {
  /** The body's `type`. */
  type?: PaymentType | undefined;
  /** The query's `type` (`?type=spending`). */
  queryType?: PaymentType | undefined;
  code?: string | undefined;
  /** Whole units of the store currency, for a top-up. */
  replenishmentValue?: number | undefined;
}

/** A payment the provider confirmed, as the event processor hands it over. */
export interface PaidOrderInput {
  orderId: string;
  paymentId: string;
  /** The provider that took it: its clearing account is where the money came from. */
  provider: string;
  amountMinor: number;
  currency: string;
}

export type CompletionOutcome =
  /** The payment paid the order, which was fulfilled (or its shortfall refunded) now. */
  | { outcome: 'completed'; orderId: string; status: OrderStatus; refundedMinor: number }
  /** This payment had completed the order before: nothing changed. */
  | { outcome: 'already_completed'; orderId: string; status: OrderStatus; refundedMinor: number }
  /**
   * Another payment had paid the order: this one goes back to its card (`refundId`, the refund asked
   * of the provider, to send after the commit).
   */
  | { outcome: 'duplicate_refunded'; orderId: string; status: OrderStatus; refundedMinor: number; refundId: string }
  /**
   * Paid after it ended unpaid, with a promo code whose use it can no longer have: not completed;
   * the payment goes back to its card (`refundId`).
   */
  | { outcome: 'late_returned'; orderId: string; status: OrderStatus; refundedMinor: number; refundId: string };

/** A payment whose amount or currency is not the order's: nothing is changed. */
export class PaymentMismatchError extends ConflictError {}

export interface OrderServiceDeps {
  sql: SqlClient;
  promo: PromoService;
  /** Sends receipts after the commit; without it the outbox sweep sends them a minute later. */
  queue?: JobQueue;
  logger?: Logger;
  /** Where the store is opened; receipts link to the profile there. */
  publicUrl: string;
  clock?: () => Date;
  orderTtlMs?: number;
}

function paymentStatusValue(status: OrderStatus): PaymentStatusValue {
  switch (status) {
    case 'CREATED':
    case 'PENDING':
    case 'PAID':
      return 'init';
    case 'FAILED':
    case 'CANCELLED':
    case 'EXPIRED':
      return 'error';
    case 'FULFILLED':
      return 'success';
    case 'PARTIALLY_REFUNDED':
      return 'partially_refunded';
    case 'REFUNDED':
      return 'refunded';
  }
}

/** `?type=spending` turns a purchase into a spend from the balance; a top-up cannot be one. */
function resolveType({ type, queryType }: CreateOrderInput): OrderType {
  if (queryType === 'spending') {
    if (type === 'balance') {
      throw new ValidationError({ type: [ErrorKeys.invalidValue] }, 'A top-up cannot be paid from the balance.');
    }
    return 'SPENDING';
  }
  if (type && queryType && type !== queryType) {
    throw new ValidationError({ type: [ErrorKeys.invalidValue] }, 'The type in the query and in the body differ.');
  }
  const resolved = type ?? queryType;
  if (!resolved) throw ValidationError.field('type', ErrorKeys.requiredField);
  return TYPE_BY_NAME[resolved];
}

/** The order a payment status poll reads, the caller's own only. */
const orderStatusQuery = prepare((a: { orderId: string; userId: string }) =>
  qb
    .selectFrom('orders')
    .select(['id', 'status', 'type', 'refunded_minor as refundedMinor'])
    .where('id', '=', a.orderId)
    .where('user_id', '=', a.userId),
);

/** Why the order's newest failed payment failed: what a failed order's status answer names. */
const failureReasonQuery = prepare((a: { orderId: string }) =>
  qb
    .selectFrom('payments')
    .select('failure_reason as reason')
    .where('order_id', '=', a.orderId)
    .where('status', '=', 'FAILED')
    .orderBy('created_at', 'desc')
    .limit(1),
);

/**
 * The customer's orders but `orderId` that may still hold codes: unpaid, and younger than an order
 * lives (made after `recent`).
 */
function customerOrders(a: { userId: string; recent: Date; orderId: string }) {
  return qb
    .selectFrom('orders as o')
    .select('o.id')
    .where((eb) =>
      eb.and([
        eb('o.user_id', '=', a.userId),
        eb('o.created_at', '>', a.recent),
        eb('o.id', '<>', a.orderId),
        eb('o.status', 'in', UNPAID_STATUSES),
      ]),
    );
}

/** placeOrder's statement, built once (see placeOrder). */
const placeOrderStatement = prepare(
  (a: {
    userId: string;
    orderId: string;
    type: 'PURCHASE' | 'SPENDING';
    free: boolean;
    createdAt: Date;
    expiresAt: Date;
    recent: Date;
    currency: string;
  }) => {
    const mine = customerOrders(a);
    return (
      qb
        .with('customer', (q) =>
          q
            .selectFrom('users')
            .select(['id', 'balance_minor', 'owed_minor'])
            .where('id', '=', a.userId)
            .forNoKeyUpdate(),
        )
        .with('basket', (q) =>
          q
            .selectFrom('customer as c')
            .innerJoin('basket_lines as bl', 'bl.user_id', 'c.id')
            .innerJoin('products as p', (join) =>
              join.onRef('p.id', '=', 'bl.product_id').on((eb) => eb.ref('p.is_active')),
            )
            .select(['p.id', 'p.name', 'p.price_minor', 'p.stock_count', 'bl.quantity', 'bl.position']),
        )
        .with('fit', (q) =>
          q
            .selectFrom('basket')
            .select((eb) =>
              eb
                .cast<number>(
                  eb.fn.coalesce(eb.fn.sum(eb('price_minor', '*', eb.ref('quantity'))), eb.lit(0)),
                  'bigint',
                )
                .as('subtotal'),
            )
            .having((eb) => eb(eb.fn.countAll(), '>', eb.lit(0))),
        )
        .with('created', (q) =>
          q
            .insertInto('orders')
            .columns([
              'id',
              'user_id',
              'type',
              'subtotal_minor',
              'total_minor',
              'currency',
              'created_at',
              'expires_at',
              'updated_at',
            ])
            .expression((eb) =>
              eb
                .selectFrom('fit')
                .select((eb) => [
                  eb.val(a.orderId).as('id'),
                  eb.val(a.userId).as('user_id'),
                  eb.val(a.type).as('type'),
                  'subtotal as subtotal_minor',
                  'subtotal as total_minor',
                  eb.val(a.currency).as('currency'),
                  eb.val(a.createdAt).as('created_at'),
                  eb.val(a.expiresAt).as('expires_at'),
                  eb.fn<Date>('now').as('updated_at'),
                ])
                .where((eb) => eb.or([eb.val(a.free), eb('subtotal', '>', eb.lit(0))])),
            )
            .returning('id'),
        )
        // The lines' CTE is `lines`, as the reservation's CTEs that follow read it.
        .with('lines', (q) =>
          q
            .insertInto('order_lines')
            .columns(['id', 'order_id', 'product_id', 'product_name', 'quantity', 'unit_price_minor'])
            .expression((eb) =>
              eb
                .selectFrom(['created', 'basket as b'])
                .select((eb) => [
                  eb.fn<string>('gen_random_uuid').as('id'),
                  'created.id as order_id',
                  'b.id as product_id',
                  'b.name as product_name',
                  'b.quantity',
                  'b.price_minor as unit_price_minor',
                ]),
            )
            .returning(['id', 'product_id', 'quantity']),
        )
        .with('stock', () => reservation.stock)
        .with('picked', () => reservation.picked)
        .with('reserved', () => reservation.reserved)
        .selectFrom('basket as b')
        .select((eb) => [
          'b.id',
          'b.name',
          'b.price_minor',
          'b.stock_count',
          'b.quantity',
          eb.selectFrom('created').select('created.id').as('orderId'),
          eb.selectFrom('customer').select('customer.balance_minor').as('balanceMinor'),
          eb.selectFrom('customer').select('customer.owed_minor').as('owedMinor'),
          eb
            .selectFrom('reserved as r')
            .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('count'))
            .whereRef('r.product_id', '=', 'b.id')
            .as('reserved'),
          eb(
            eb.selectFrom('reserved').select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('count')),
            '+',
            eb
              .selectFrom('product_codes as pc')
              .innerJoin('order_lines as ol', 'ol.id', 'pc.order_line_id')
              .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('count'))
              .where('ol.order_id', 'in', mine)
              .where('pc.status', '=', 'RESERVED'),
          ).as('held'),
          eb
            .exists(
              eb
                .selectFrom(mine.as('m'))
                .select(eb.lit(1).as('one'))
                .where((eb) => eb.not(eb.exists(openPayments(eb.ref('m.id'))))),
            )
            .as('givenUp'),
        ])
        .orderBy('b.position')
        .orderBy('b.id')
        // A count is never null, and the customer is there when the basket's lines are.
        .$narrowType<{ balanceMinor: number; owedMinor: number; reserved: number; held: number; givenUp: boolean }>()
    );
  },
);

/**
 * Orders (docs/orders.md): creating them from the server basket or for a top-up,
 * spending the balance on one, completing one that a provider payment paid, and the status the
 * browser polls. Every status change goes through the state machine (order-state.ts); every movement
 * of money through the ledger; paying and fulfilling happen in one transaction, so an order is never
 * paid without its codes or its refund.
 */
export function createOrderService({
  sql,
  promo,
  queue,
  logger = silentLogger,
  publicUrl,
  clock = () => new Date(),
  orderTtlMs = ORDER_TTL_MS,
}: OrderServiceDeps) {
  const fulfilment = createFulfilmentService({ publicUrl, clock });

  async function enqueueEmail(emailId: string | null) {
    if (emailId && queue) await enqueueEmailSend(queue, emailId, logger);
  }

  /** Marks the locked order paid and fulfils it: the one completion path of every payment. */
  function payAndFulfil(tx: Queryable, order: LockedOrder, paidWith: PaidWith): Promise<FulfilmentOutcome> {
    const { paymentId } = paidWith;
    const actor = paidWith.provider ? actors.provider(paidWith.provider) : actors.customer;
    return fulfilment.payAndFulfil(
      tx,
      order,
      { paidAt: clock(), actor, ...(paymentId ? { paymentId } : {}) },
      paidWith,
    );
  }

  function createResponse(order: {
    id: string;
    type: OrderType;
    status: OrderStatus;
    totalMinor: number;
    currency: string;
    expiresAt: Date | null;
  }): CreateOrderResponse {
    return {
      order_id: order.id,
      total_price: minorToDisplay(order.totalMinor),
      total_minor: order.totalMinor,
      currency: order.currency,
      type: typeName(order.type),
      status: statusName(order.status),
      expires_at: order.expiresAt?.toISOString() ?? null,
    };
  }

  /**
   * A top-up of `replenishmentValue` whole units. `id`, when given, is the order's id made from the
   * payment attempt that asks for it: the same attempt again finds the order it made (whatever has
   * happened to it since) rather than a second one, and an id already holding another amount is a
   * 409.
   */
  async function createTopUp(userId: string, replenishmentValue: number | undefined, id?: string) {
    if (replenishmentValue === undefined) throw ValidationError.field('replenishmentValue', ErrorKeys.requiredField);
    const amountMinor = wholeToMinor(replenishmentValue);
    const made = async () => {
      if (!id) return undefined;
      const [existing] = await sql.query(
        qb.selectFrom('orders').select(orderColumns).where('id', '=', id).where('user_id', '=', userId),
      );
      if (existing && (existing.type !== 'BALANCE' || existing.totalMinor !== amountMinor)) {
        throw new ConflictError('This payment attempt already made a top-up of another amount.');
      }
      return existing;
    };
    const earlier = await made();
    if (earlier) return createResponse(earlier);
    // Made at the service's clock, as its expiry is: the newest order is the one made last.
    const at = clock();
    const [order] = await sql.query(
      qb
        .insertInto('orders')
        .values((eb) => ({
          id: id ?? randomUUID(),
          user_id: userId,
          type: 'BALANCE',
          subtotal_minor: amountMinor,
          total_minor: amountMinor,
          currency: STORE_CURRENCY,
          created_at: at,
          expires_at: new Date(at.getTime() + orderTtlMs),
          updated_at: eb.fn<Date>('now'),
        }))
        .onConflict((oc) => oc.column('id').doNothing())
        .returning(orderColumns),
    );
    // Lost a race with the same attempt: the order the other request made.
    const result = order ?? (await made());
    if (!result) throw new ConflictError('This payment attempt is already under way.');
    return createResponse(result);
  }

  /**
   * Locks the customer's basket (their row), reads its lines at the database's prices, makes the
   * order and its lines, and reserves each line's codes: one statement, in the caller's transaction.
   * The lock serialises the basket's writers; the lines are read as the statement found them when it
   * began, so a flush that committed while it waited for the lock lands wholly after the order. A
   * line whose codes are not all there (held by the customer's own orders given up, which give them
   * to this one, or gone) is refused with a 422 on `products.<id>`, and the transaction rolled back.
   * `free` allows an order whose subtotal is zero (it must be completed in the same transaction).
   */
  async function placeOrder(
    tx: Queryable,
    { userId, type, free }: { userId: string; type: 'PURCHASE' | 'SPENDING'; free: boolean },
  ) {
    const orderId = randomUUID();
    const createdAt = clock();
    const expiresAt = new Date(createdAt.getTime() + orderTtlMs);
    // Orders younger than an order lives are the only ones that may still hold codes.
    const recent = new Date(createdAt.getTime() - orderTtlMs);
    const rows = await tx.query(
      placeOrderStatement({ userId, orderId, type, free, createdAt, expiresAt, recent, currency: STORE_CURRENCY }),
    );
    if (rows.length === 0) throw new ValidationError({ basket: [ErrorKeys.emptyBasket] }, 'Your basket is empty.');
    const first = rows[0] as (typeof rows)[number];
    let lines = rows;
    if (first.orderId && first.givenUp && rows.some((row) => row.reserved < row.quantity)) {
      // The customer's orders that no payment is open on (the widget closed, the page left) give
      // their codes to this one: each Pay makes a new order, and the one before must not keep them.
      const mine = customerOrders({ userId, recent, orderId });
      await tx.execute(reservationRelease(mine.where((eb) => eb.not(eb.exists(openPayments(eb.ref('o.id')))))));
      const more = await reserveRemaining(tx, first.orderId);
      lines = rows.map((row) => ({ ...row, reserved: row.reserved + (more.get(row.id) ?? 0) }));
    }
    const short = first.orderId ? lines.filter((row) => row.reserved < row.quantity) : [];
    if (short.length > 0) {
      throw new ValidationError(
        Object.fromEntries(short.map((row) => [`products.${row.id}`, [ErrorKeys.outOfStock]])),
        `Not enough codes in stock for: ${short.map((row) => row.name).join(', ')}.`,
      );
    }
    if (first.held > RESERVED_UNITS_MAX) {
      throw new ValidationError(
        { basket: [ErrorKeys.tooManyHeld] },
        'Your unpaid orders hold as many codes as one customer may: pay for them, or wait for them to end.',
      );
    }
    const subtotalMinor = rows.reduce((sum, row) => sum + row.price_minor * row.quantity, 0);
    const order: LockedOrder | null = first.orderId
      ? {
          id: first.orderId,
          userId,
          type,
          status: 'CREATED',
          subtotalMinor,
          discountMinor: 0,
          totalMinor: subtotalMinor,
          refundedMinor: 0,
          currency: STORE_CURRENCY,
          paymentId: null,
          expiresAt,
          promoCodeId: null,
        }
      : null;
    return { order, rows, balanceMinor: first.balanceMinor, owedMinor: first.owedMinor };
  }

  /**
   * A promo code applied again while an earlier unpaid order of the customer's holds it, with no
   * payment deciding on that order (its widget was closed, its page left): that order is given up
   * (CANCELLED), which gives the code back for the new one. An order whose payment the provider is
   * deciding keeps the code. The earlier order is locked in a transaction of its own, before the new
   * order's locks the customer, as every path that moves an order's money takes the order first;
   * should its payment succeed after all, it is still delivered (CANCELLED -> PAID).
   */
  async function releaseAbandonedHold(userId: string, code: string) {
    await sql.transaction(async (tx) => {
      const [held] = await tx.query(
        qb
          .selectFrom('promo_redemptions as r')
          .innerJoin('promo_codes as pc', 'pc.id', 'r.promo_code_id')
          .select('r.order_id as orderId')
          .where('pc.code', '=', normalizePromoCode(code))
          .where('r.user_id', '=', userId),
      );
      if (!held) return;
      const order = await lockOrder(tx, held.orderId);
      if (!order || !UNPAID_STATUSES.includes(order.status)) return;
      const [idle] = await tx.query(qb.selectNoFrom((eb) => eb.not(eb.exists(openPayments(order.id))).as('idle')));
      if (!idle?.idle) return;
      const moved = await transitionOrders(tx, [order.id], 'CANCELLED', { actor: actors.customer });
      if (moved.length > 0) logger.info({ orderId: order.id }, 'an unpaid order gave its promo code up to a new one');
    });
  }

  async function createPurchase(userId: string, type: 'PURCHASE' | 'SPENDING', code: string | undefined) {
    if (code) await releaseAbandonedHold(userId, code);
    const { order, emailId } = await sql.transaction(async (tx) => {
      const placed = await placeOrder(tx, { userId, type, free: true });
      let order = placed.order as LockedOrder;
      const { rows } = placed;

      if (code) {
        const discount = await promo.redeemPromoCode(tx, {
          code,
          userId,
          orderId: order.id,
          lines: rows.map((row) => ({ id: row.id, price_minor: row.price_minor, quantity: row.quantity })),
        });
        // Each line's share, by the promo service's own arithmetic, so the shares add up to the
        // order's discount and a shortfall refunds a line at what was paid for it.
        const discounted = rows.filter((row) => discount.appliesTo.includes(row.id));
        const totalMinor = order.subtotalMinor - discount.discountMinor;
        const shares = discounted.map((row) => ({
          productId: row.id,
          minor: promoDiscountMinor([row], discount.percent, [row.id]),
        }));
        // The shares are one JSON parameter, so the statement is the same whatever their number.
        await tx.execute(
          qb
            .with('share', (q) =>
              q
                .selectFrom((eb) =>
                  eb
                    .fn<{ value: (typeof shares)[number] }>('jsonb_array_elements', [eb.val(JSON.stringify(shares))])
                    .as('s'),
                )
                .select((eb) => [
                  eb.cast<number>(eb.ref('s.value', '->>').key('productId'), 'integer').as('product_id'),
                  eb.cast<number>(eb.ref('s.value', '->>').key('minor'), 'integer').as('minor'),
                ]),
            )
            .with('shares', (q) =>
              q
                .updateTable('order_lines as ol')
                .from('share')
                .set((eb) => ({ discount_minor: eb.ref('share.minor') }))
                .where('ol.order_id', '=', order.id)
                .whereRef('ol.product_id', '=', 'share.product_id'),
            )
            .updateTable('orders')
            .set((eb) => ({
              promo_code_id: discount.promoCodeId,
              discount_minor: discount.discountMinor,
              total_minor: totalMinor,
              updated_at: eb.fn<Date>('now'),
            }))
            .where('id', '=', order.id),
        );
        order = { ...order, discountMinor: discount.discountMinor, totalMinor, promoCodeId: discount.promoCodeId };
      }

      if (type === 'SPENDING' && placed.owedMinor > 0 && order.totalMinor > 0) throw new BalanceOwedError();
      if (type === 'SPENDING' && placed.balanceMinor < order.totalMinor) throw new InsufficientFundsError();
      if (order.totalMinor > 0) return { order, emailId: null };
      // Nothing left to pay (a promo code took the whole price): the order completes now.
      const outcome = await payAndFulfil(tx, order, { paymentId: null, provider: null });
      return { order: { ...order, status: outcome.status }, emailId: outcome.emailId };
    });
    await enqueueEmail(emailId);
    return createResponse(order);
  }

  /**
   * A payment that bought nothing goes back to its card (in suspense until then, its refund asked of
   * the provider) and the customer is told, once: the refund's id and the email's, to send after the
   * commit.
   */
  async function sendBack(
    tx: Queryable,
    order: LockedOrder,
    input: PaidOrderInput,
    reason: 'second_charge' | 'late_payment',
  ): Promise<{ refundId: string; emailId: string | null }> {
    const refund = await returnToPayer(
      tx,
      { id: input.paymentId, provider: input.provider, orderId: order.id, amountMinor: input.amountMinor },
      reason,
    );
    const emailId = refund.created
      ? await recordBalanceNotice(tx, {
          userId: order.userId,
          orderId: order.id,
          currency: order.currency,
          amountMinor: input.amountMinor,
          cause: reason === 'second_charge' ? 'paid_twice' : 'late_returned',
          publicUrl,
        })
      : null;
    return { refundId: refund.id, emailId };
  }

  /**
   * `locked`: the order as the caller locked it in this same transaction, having checked that the
   * payment is the order's (the event processor does both first); saves locking and reading again.
   */
  async function completeInTransaction(
    tx: Queryable,
    input: PaidOrderInput,
    locked?: LockedOrder,
  ): Promise<CompletionOutcome & { emailId: string | null }> {
    let order = locked;
    if (order?.id !== input.orderId) {
      order = await lockOrder(tx, input.orderId);
      if (!order) throw new NotFoundError('Order');
      const [payment] = await tx.query(
        qb.selectFrom('payments').select('order_id as orderId').where('id', '=', input.paymentId),
      );
      if (!payment || payment.orderId !== order.id) throw new NotFoundError('Payment');
    }
    if (input.amountMinor !== order.totalMinor || input.currency !== order.currency || input.amountMinor <= 0) {
      throw new PaymentMismatchError(
        `Payment of ${input.amountMinor} ${input.currency} does not match order ${order.id} (${order.totalMinor} ${order.currency}).`,
      );
    }
    const base = { orderId: order.id, status: order.status, refundedMinor: order.refundedMinor };
    if (order.paymentId === input.paymentId) return { outcome: 'already_completed', ...base, emailId: null };
    if (order.paymentId !== null || isPaid(order.status)) {
      // Paid twice (two methods, two tabs, a widget left open): the second payment goes back to its
      // card or account, never kept, and the customer is told.
      const { refundId, emailId } = await sendBack(tx, order, input, 'second_charge');
      logger.warn(
        { orderId: order.id, paymentId: input.paymentId, refundId },
        'order paid twice; the second payment goes back to its card',
      );
      return { outcome: 'duplicate_refunded', ...base, refundedMinor: input.amountMinor, emailId, refundId };
    }
    if (UNPAID_ENDINGS.includes(order.status) && order.promoCodeId !== null) {
      // Paid after it ended unpaid, when its promo code's use went back: the order takes the use
      // again, or, when the code has none left (another order of the customer's has it now, or its
      // last use went to someone else), its price cannot be honoured and the payment goes back to its
      // card. The customer's row before the code's, as a new order takes them.
      await lockCustomer(tx, order.userId);
      const kept = await retakePromoUse(tx, {
        promoCodeId: order.promoCodeId,
        userId: order.userId,
        orderId: order.id,
      });
      await recordOrderEvent(tx, {
        orderId: order.id,
        actor: actors.provider(input.provider),
        kind: kept ? 'promo_retaken' : 'promo_gone',
        paymentId: input.paymentId,
        detail: { promoCodeId: order.promoCodeId },
      });
      if (!kept) {
        const { refundId, emailId } = await sendBack(tx, order, input, 'late_payment');
        logger.warn(
          { orderId: order.id, paymentId: input.paymentId, refundId },
          'a late payment of an order whose promo code is gone goes back to its card',
        );
        return { outcome: 'late_returned', ...base, emailId, refundId };
      }
    }
    const outcome = await payAndFulfil(tx, order, { paymentId: input.paymentId, provider: input.provider });
    return {
      outcome: 'completed',
      orderId: order.id,
      status: outcome.status,
      refundedMinor: outcome.refundedMinor,
      emailId: outcome.emailId,
    };
  }

  function isPaid(status: OrderStatus) {
    return status === 'PAID' || COMPLETED_STATUSES.includes(status);
  }

  return {
    /**
     * POST /orders/create. A purchase or spend is made from the server basket at the database's
     * prices, with the promo code redeemed in the same transaction; a line the stock cannot cover
     * now refuses the order (422 on `products.<id>`). A spend the balance cannot cover is refused
     * at once (422 on `balance`). A top-up is `replenishmentValue` whole units.
     */
    async createOrder(userId: string, input: CreateOrderInput): Promise<CreateOrderResponse> {
      const type = resolveType(input);
      if (type === 'BALANCE') return createTopUp(userId, input.replenishmentValue);
      return createPurchase(userId, type, input.code);
    },

    /**
     * The top-up a payment attempt makes (POST /payment with `value` and no order): `orderId` is
     * made from the attempt's token, so the same attempt repeated reaches the same order.
     */
    createTopUpFor(userId: string, replenishmentValue: number, orderId: string): Promise<CreateOrderResponse> {
      return createTopUp(userId, replenishmentValue, orderId);
    },

    /**
     * POST /payment/spending-balance-handle: pays a spending order from the balance and fulfils it,
     * in one transaction. A short balance is a 422 on `balance` and changes nothing; a spend retried
     * after it went through answers the order as it is.
     */
    async spendBalance(userId: string, orderId: string): Promise<SpendResponse> {
      const { order, emailId, balanceMinor } = await sql.transaction(async (tx) => {
        const locked = await lockOrder(tx, orderId);
        if (!locked || locked.userId !== userId) throw new NotFoundError('Order');
        if (locked.type !== 'SPENDING') {
          throw new ValidationError(
            { orderId: [ErrorKeys.orderNotPayable] },
            'This order is not paid from the balance.',
          );
        }
        let current: { status: OrderStatus; refundedMinor: number } = locked;
        let receipt: string | null = null;
        if (!isPaid(locked.status)) {
          const expired = locked.expiresAt !== null && locked.expiresAt <= clock();
          if (!UNPAID_STATUSES.includes(locked.status) || expired) {
            throw new ValidationError({ orderId: [ErrorKeys.orderNotPayable] }, 'This order can no longer be paid.');
          }
          const payment = { id: randomUUID() };
          await tx.execute(
            qb.insertInto('payments').values((eb) => ({
              id: payment.id,
              order_id: orderId,
              provider: 'balance',
              method: 'BALANCE',
              status: 'SUCCEEDED',
              amount_minor: locked.totalMinor,
              currency: locked.currency,
              updated_at: eb.fn<Date>('now'),
            })),
          );
          await transfer(tx, {
            key: ledgerKeys.spend(orderId),
            kind: 'SPEND',
            from: accounts.balance(userId),
            to: accounts.revenue,
            amountMinor: locked.totalMinor,
            orderId,
            paymentId: payment.id,
            spend: true,
          });
          const outcome = await payAndFulfil(tx, locked, { paymentId: payment.id, provider: null });
          current = { status: outcome.status, refundedMinor: outcome.refundedMinor };
          receipt = outcome.emailId;
        }
        const [user] = await tx.query(
          qb.selectFrom('users').select('balance_minor as balanceMinor').where('id', '=', userId),
        );
        return { order: { ...locked, ...current }, emailId: receipt, balanceMinor: user?.balanceMinor ?? 0 };
      });
      await enqueueEmail(emailId);
      return {
        order_id: order.id,
        status: statusName(order.status),
        total_minor: order.totalMinor,
        refunded_minor: order.refundedMinor,
        balance: minorToDisplay(balanceMinor),
        balance_minor: balanceMinor,
      };
    },

    /**
     * Completes an order that a provider payment paid: what the payment event processor calls, once
     * per confirmed payment, however often. The order (CREATED, PENDING, or already EXPIRED, FAILED
     * or CANCELLED) moves to PAID and is fulfilled in the same transaction: a top-up is credited, a
     * purchase gets its codes and any shortfall back on the balance, so money is never kept without
     * the goods. The same payment again changes nothing; another payment for an order already paid
     * is credited to the balance. A wrong amount or currency throws PaymentMismatchError and changes
     * nothing.
     */
    async completePaidOrder(input: PaidOrderInput): Promise<CompletionOutcome> {
      const { emailId, ...outcome } = await sql.transaction((tx) => completeInTransaction(tx, input));
      await enqueueEmail(emailId);
      if ((outcome.outcome === 'duplicate_refunded' || outcome.outcome === 'late_returned') && queue) {
        await enqueueProviderRefund(queue, outcome.refundId, logger);
      }
      return outcome;
    },

    /**
     * The same inside the caller's transaction (the event processor marks its event processed in
     * it); the caller enqueues `email.send` for `emailId` after its commit.
     */
    completePaidOrderInTransaction: completeInTransaction,

    /** POST /payment/status: reads the order, never changes it. Someone else's order: 404. */
    async paymentStatus(userId: string, orderId: string): Promise<PaymentStatusResponse> {
      // The browser polls this every second while a payment is open: one read by primary key, on the
      // driver, of a statement compiled once.
      const [order] = await sql.query(orderStatusQuery({ orderId, userId }));
      if (!order) throw new NotFoundError('Order');
      const status = paymentStatusValue(order.status);
      // Only a failed order reads why, so the poll of a payment still open stays one statement.
      let reason: string | null | undefined;
      if (order.status === 'EXPIRED') reason = 'expired';
      else if (status === 'error') [{ reason } = { reason: null }] = await sql.query(failureReasonQuery({ orderId }));
      return {
        status,
        order_id: order.id,
        order_status: statusName(order.status),
        type: typeName(order.type),
        refunded_minor: order.refundedMinor,
        ...(reason ? { reason } : {}),
      };
    },

    /**
     * The customer's newest order of this type still waiting for its payment: how a payment call
     * that names no order finds one.
     */
    async findPayableOrder(userId: string, type: PaymentType): Promise<LockedOrder | null> {
      const [order] = await sql.query(
        qb
          .selectFrom('orders')
          .select(orderColumns)
          .where((eb) =>
            eb.and([
              eb('user_id', '=', userId),
              eb('type', '=', TYPE_BY_NAME[type]),
              eb('status', 'in', UNPAID_STATUSES),
              eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', clock())]),
            ]),
          )
          .orderBy('created_at', 'desc')
          .limit((eb) => eb.lit(1)),
      );
      return order ?? null;
    },

    /**
     * Expires unpaid orders whose time is up, a batch at a time; answers how many. Their promo codes
     * become usable again. A payment confirmed later still completes them.
     */
    async expireOrders({ limit = 100 }: { limit?: number } = {}): Promise<number> {
      return sql.transaction(async (tx) => {
        const due = await lockExpiredOrders(tx, clock(), limit);
        const moved = await transitionOrders(
          tx,
          due.map((order) => order.id),
          'EXPIRED',
          { actor: actors.system },
        );
        return moved.length;
      });
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
