import { ErrorKeys } from '@store/contract';
import { int8ToNumber, type OrderStatus, type OrderType, type PrismaClient, sqlOf } from '@store/db';
import { recordBalanceNotice } from '../ledger/balance-notice.ts';
import { accounts, creditCustomer, ledgerKeys } from '../ledger/ledger-service.ts';
import { enqueueEmailSend } from '../mail/outbox.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';
import { lockCustomer, lockOrder } from './order-sql.ts';
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
  /** Where the store is opened; the refund's email links to the profile there. */
  publicUrl: string;
  /** Sends the refund's email at once; without it the outbox sweep sends it within a minute. */
  queue?: JobQueue;
  logger?: Logger;
}

/** What an operator does to orders from the command line: look them up and refund them. */
export function createOrderOperations({ db, publicUrl, queue, logger = silentLogger }: OrderOperationsDeps) {
  return {
    /**
     * Gives what is left of a paid order back to the balance (codes already delivered stay
     * delivered) and ends it REFUNDED, once: the ledger key carries the reason. The customer is told
     * by email (through the outbox, in the same transaction). A top-up is on the balance already; an
     * unpaid order has nothing to give back.
     */
    async refundOrder(
      orderId: string,
      reason = 'operator',
    ): Promise<{ refundedMinor: number; userId: string; emailId: string }> {
      if (!/^[a-z0-9-]{1,32}$/.test(reason)) throw ValidationError.field('reason', ErrorKeys.invalidValue);
      const result = await sqlOf(db).transaction(async (tx) => {
        const order = await lockOrder(tx, orderId);
        if (!order) throw new NotFoundError('Order');
        if (order.type === 'BALANCE') throw new ConflictError('A top-up is on the balance already.');
        const amountMinor = order.totalMinor - order.refundedMinor;
        const refundable = order.status === 'PAID' || COMPLETED_STATUSES.includes(order.status);
        if (!refundable || order.status === 'REFUNDED' || amountMinor <= 0) {
          throw new ConflictError(`Order ${orderId} is ${order.status}: there is nothing paid left to refund.`);
        }
        await lockCustomer(tx, order.userId);
        await creditCustomer(tx, {
          userId: order.userId,
          key: ledgerKeys.refund(orderId, reason),
          kind: 'REFUND',
          from: accounts.refunds,
          amountMinor,
          orderId,
          paymentId: order.paymentId,
        });
        await transitionOrder(tx, orderId, 'REFUNDED', { refundedMinor: order.totalMinor });
        const emailId = await recordBalanceNotice(tx, {
          userId: order.userId,
          orderId,
          currency: order.currency,
          amountMinor,
          cause: 'order_refunded',
          publicUrl,
        });
        return { refundedMinor: amountMinor, userId: order.userId, emailId };
      });
      if (queue) void enqueueEmailSend(queue, result.emailId, logger);
      logger.info({ orderId, refundedMinor: result.refundedMinor, reason }, 'order refunded to the balance');
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
