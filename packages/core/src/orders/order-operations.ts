import { ErrorKeys } from '@store/contract';
import {
  int8ToNumber,
  type OrderStatus,
  type OrderType,
  type PrismaClient,
  type Queryable,
  qb,
  type SqlClient,
} from '@store/db';
import { recordBalanceNotice } from '../ledger/balance-notice.ts';
import { accounts, creditCustomer, ledgerKeys } from '../ledger/ledger-service.ts';
import { enqueueEmailSend } from '../mail/outbox.ts';
import { enqueueProviderRefund, requestProviderRefund } from '../payments/provider-refunds.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';
import { actors } from './order-events.ts';
import { type LockedOrder, lockCustomer, lockOrder } from './order-sql.ts';
import { COMPLETED_STATUSES, transitionOrder } from './order-state.ts';

export interface OrderListItem {
  id: string;
  email: string;
  type: OrderType;
  status: OrderStatus;
  totalMinor: number;
  refundedMinor: number;
  currency: string;
  createdAt: Date;
  expiresAt: Date | null;
}

export interface OrderOperationsDeps {
  db: PrismaClient;
  sql: SqlClient;
  /** Where the store is opened; the refund's email links to the profile there. */
  publicUrl: string;
  /** Sends the refund's email at once; without it the outbox sweep sends it within a minute. */
  queue?: JobQueue;
  logger?: Logger;
}

/** Where an operator's refund goes: the customer's balance, or the card or account the order was paid with. */
export type RefundDestination = 'balance' | 'card';

export interface RefundOrderInput {
  to?: RefundDestination;
  /** Minor units; what is left to refund when not given. */
  amountMinor?: number;
  /** Names the refund, so that the same one asked again is refused: lower-case letters, digits and -. */
  reason?: string;
  /** Who asks, as the order's history records it. */
  operator?: string;
  /**
   * Runs in the refund's transaction once it is made: the console writes its audit row here, so the
   * refund and its record commit together.
   */
  within?: (tx: Queryable, result: RefundOrderResult) => Promise<void>;
}

export type RefundOrderResult =
  | { to: 'balance'; refundedMinor: number; userId: string; emailId: string; status: OrderStatus }
  | { to: 'card'; refundedMinor: number; userId: string; refundId: string };

/** Reasons the store itself uses in the ledger's keys: an operator's refund may not take them. */
const RESERVED_REASONS = new Set(['shortfall', 'payment']);

/** What an operator does to orders from the command line: look them up and refund them. */
export function createOrderOperations({ db, sql, publicUrl, queue, logger = silentLogger }: OrderOperationsDeps) {
  /**
   * What of the order may still be given back: its total less what went back already, less what is
   * on its way to the card (asked of the provider, not yet reversed); for a top-up to its card, no
   * more than is still on the balance (the rest was spent).
   */
  async function refundable(tx: Queryable, order: LockedOrder, to: RefundDestination): Promise<number> {
    const paying = qb
      .selectNoFrom((eb) => eb.cast<string | null>(eb.val(order.paymentId), 'uuid').as('id'))
      .as('paying');
    const [row] = await tx.query(
      qb
        .selectFrom(paying)
        .leftJoin('payments as p', 'p.id', 'paying.id')
        .select((eb) => [
          eb
            .cast<number>(
              eb.fn('greatest', [
                eb.lit(0),
                eb(
                  eb.fn.coalesce(
                    eb
                      .selectFrom('provider_refunds as r')
                      .select((eb) => eb.fn.sum<number>('r.amount_minor').as('sum'))
                      .whereRef('r.payment_id', '=', 'p.id')
                      .where('r.status', '<>', 'FAILED'),
                    eb.lit(0),
                  ),
                  '-',
                  eb.ref('p.refunded_minor'),
                ),
              ]),
              'bigint',
            )
            .as('inFlight'),
          eb.selectFrom('users').select('balance_minor').where('id', '=', order.userId).as('balanceMinor'),
        ]),
    );
    const left = order.totalMinor - order.refundedMinor - (row?.inFlight ?? 0);
    return to === 'card' && order.type === 'BALANCE' ? Math.min(left, row?.balanceMinor ?? 0) : left;
  }

  return {
    /**
     * Gives part or all of a paid order back, once per reason: to the balance at once (codes already
     * delivered stay delivered; the order ends PARTIALLY_REFUNDED or REFUNDED, and the customer is
     * emailed in the same transaction), or to the card or account it was paid with, asked of the
     * provider (a `provider_refunds` row sent by the running store); the order follows when the
     * provider has given the money back, through the same path as any refund at the provider. A
     * top-up goes back to its card only as far as it is still on the balance; an order paid from the
     * balance goes back to the balance; an unpaid order has nothing to give back.
     */
    async refundOrder(orderId: string, input: RefundOrderInput = {}): Promise<RefundOrderResult> {
      const { to = 'balance', reason = 'operator', operator = 'operator' } = input;
      if (!/^[a-z0-9-]{1,32}$/.test(reason) || RESERVED_REASONS.has(reason)) {
        throw ValidationError.field('reason', ErrorKeys.invalidValue);
      }
      if (input.amountMinor !== undefined && (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0)) {
        throw ValidationError.field('amount', ErrorKeys.invalidValue);
      }
      const result = await sql.transaction(async (tx): Promise<RefundOrderResult> => {
        const refunded = await refund(tx);
        await input.within?.(tx, refunded);
        return refunded;
      });
      async function refund(tx: Queryable): Promise<RefundOrderResult> {
        const order = await lockOrder(tx, orderId);
        if (!order) throw new NotFoundError('Order');
        const paid = order.status === 'PAID' || COMPLETED_STATUSES.includes(order.status);
        if (!paid || order.status === 'REFUNDED') {
          throw new ConflictError(`Order ${orderId} is ${order.status}: there is nothing paid left to refund.`);
        }
        if (to === 'balance' && order.type === 'BALANCE') {
          throw new ConflictError('A top-up is on the balance already: refund it to its card.');
        }
        const left = await refundable(tx, order, to);
        const amountMinor = input.amountMinor ?? left;
        if (amountMinor <= 0 || amountMinor > left) {
          throw new ConflictError(
            `Order ${orderId} has ${left} minor units left to refund${to === 'card' ? ' to its card' : ''}, not ${amountMinor}.`,
          );
        }
        if (to === 'card') {
          const [payment] = await tx.query(
            qb
              .selectFrom('payments')
              .select(['method', 'provider_payment_id as providerPaymentId'])
              .where('id', '=', order.paymentId),
          );
          if (!payment || payment.method === 'BALANCE' || !payment.providerPaymentId) {
            throw new ConflictError('This order was not paid with a card or account: refund it to the balance.');
          }
          const refund = await requestProviderRefund(tx, {
            orderId,
            paymentId: order.paymentId as string,
            amountMinor,
            reason: 'operator',
            requestedBy: `operator:${operator}`.slice(0, 64),
            key: `refund-card:${orderId}:${reason}`,
          });
          if (!refund.created) throw new ConflictError(`A refund named '${reason}' was asked for already.`);
          return { to: 'card', refundedMinor: amountMinor, userId: order.userId, refundId: refund.id };
        }
        await lockCustomer(tx, order.userId);
        const credited = await creditCustomer(tx, {
          userId: order.userId,
          key: ledgerKeys.refund(orderId, reason),
          kind: 'REFUND',
          from: accounts.refunds,
          amountMinor,
          orderId,
          paymentId: order.paymentId,
        });
        // The same reason again moves nothing, and must change nothing else either.
        if (!credited.moved) throw new ConflictError(`A refund named '${reason}' was made already.`);
        const refundedMinor = order.refundedMinor + amountMinor;
        const status = refundedMinor >= order.totalMinor ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
        await transitionOrder(tx, orderId, status, { refundedMinor, actor: actors.operator(operator) });
        const emailId = await recordBalanceNotice(tx, {
          userId: order.userId,
          orderId,
          currency: order.currency,
          amountMinor,
          cause: 'order_refunded',
          publicUrl,
        });
        return { to: 'balance', refundedMinor: amountMinor, userId: order.userId, emailId, status };
      }
      if (queue && result.to === 'balance') void enqueueEmailSend(queue, result.emailId, logger);
      if (queue && result.to === 'card') void enqueueProviderRefund(queue, result.refundId, logger);
      logger.info(
        { orderId, to, refundedMinor: result.refundedMinor, reason, operator },
        'order refunded by an operator',
      );
      return result;
    },

    /** Orders in a status (all when none is given), newest first. */
    async listOrders({ status, limit = 50 }: { status?: OrderStatus; limit?: number } = {}): Promise<OrderListItem[]> {
      const orders = await db.order.findMany({
        where: status ? { status } : {},
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: limit,
        include: { user: { select: { email: true } } },
      });
      return orders.map((order) => ({
        id: order.id,
        email: order.user.email,
        type: order.type,
        status: order.status,
        totalMinor: int8ToNumber(order.totalMinor),
        refundedMinor: int8ToNumber(order.refundedMinor),
        currency: order.currency,
        createdAt: order.createdAt,
        expiresAt: order.expiresAt,
      }));
    },
  };
}

export type OrderOperations = ReturnType<typeof createOrderOperations>;
