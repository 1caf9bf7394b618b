import { RECEIPT_SEND_WINDOW_MINUTES } from '@store/contract';
import { Prisma, type Queryable } from '@store/db';
import { recordBalanceNotice } from '../ledger/balance-notice.ts';
import { creditBalance, ledgerKeys } from '../ledger/ledger-service.ts';
import { recordEmail } from '../mail/outbox.ts';
import { resolveLocale } from '../mail/templates.ts';
import { type LockedOrder, lockCustomer } from '../orders/order-sql.ts';
import { transitionOrder } from '../orders/order-state.ts';
import { claimCodes, removeBoughtFromBasket } from './fulfilment-sql.ts';

export interface FulfilledLine {
  lineId: string;
  productId: number;
  name: string;
  quantity: number;
  delivered: number;
}

export interface FulfilmentOutcome {
  status: 'FULFILLED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
  refundedMinor: number;
  lines: FulfilledLine[];
  /** The receipt (a top-up: the balance notice) in the outbox, to enqueue after the commit. */
  emailId: string | null;
}

/**
 * What the customer paid for `missing` of a line's `quantity` units: the line's share of the price
 * after its discount, rounded half up, all of it when nothing of the line was delivered.
 */
export function shortfallRefundMinor(
  line: { quantity: number; unitPriceMinor: number; discountMinor: number },
  missing: number,
): number {
  const paid = line.unitPriceMinor * line.quantity - line.discountMinor;
  if (missing >= line.quantity) return paid;
  return Math.floor((paid * missing * 2 + line.quantity) / (2 * line.quantity));
}

export interface FulfilmentServiceDeps {
  /** Where the store is opened; the receipt links to the profile there. */
  publicUrl: string;
  clock?: () => Date;
}

/**
 * Turns a PAID order into what it bought, inside the transaction that marked it paid: a top-up is
 * credited to the ledger and its owner told by email; a purchase claims its codes, refunds any shortfall to the balance through
 * the ledger, takes the bought lines out of the basket and writes the receipt to the outbox. The
 * order ends FULFILLED, PARTIALLY_REFUNDED or REFUNDED, all or nothing with the payment.
 */
export function createFulfilmentService({ publicUrl, clock = () => new Date() }: FulfilmentServiceDeps) {
  const profileLink = new URL('/profile', publicUrl).toString();

  async function creditTopUp(tx: Queryable, order: LockedOrder): Promise<FulfilmentOutcome> {
    await lockCustomer(tx, order.userId);
    const credited =
      order.totalMinor > 0 &&
      (await creditBalance(tx, {
        userId: order.userId,
        orderId: order.id,
        kind: 'TOPUP',
        amountMinor: order.totalMinor,
        key: ledgerKeys.topUp(order.id),
      }));
    await transitionOrder(tx, order.id, 'FULFILLED', { fulfilledAt: clock() });
    const emailId = credited
      ? await recordBalanceNotice(tx, {
          userId: order.userId,
          orderId: order.id,
          currency: order.currency,
          amountMinor: order.totalMinor,
          cause: 'topup',
          publicUrl,
        })
      : null;
    return { status: 'FULFILLED', refundedMinor: 0, lines: [], emailId };
  }

  async function deliverCodes(tx: Queryable, order: LockedOrder): Promise<FulfilmentOutcome> {
    // The customer's row, locked as lockCustomer does, with what the receipt needs and the order's
    // lines, in products' id order: two fulfilments never hold each other's product rows in a cycle.
    const [customer] = await tx.query<{
      email: string;
      name: string;
      locale: string;
      lines: Array<{
        id: string;
        productId: number;
        productName: string;
        quantity: number;
        unitPriceMinor: number;
        discountMinor: number;
      }> | null;
    }>(Prisma.sql`
      SELECT u.email, u.name, u.locale,
             (SELECT json_agg(json_build_object('id', ol.id, 'productId', ol.product_id,
                                                'productName', ol.product_name, 'quantity', ol.quantity,
                                                'unitPriceMinor', ol.unit_price_minor,
                                                'discountMinor', ol.discount_minor)
                              ORDER BY ol.product_id, ol.id)
              FROM order_lines ol WHERE ol.order_id = ${order.id}::uuid) AS lines
      FROM users u WHERE u.id = ${order.userId}::uuid
      FOR NO KEY UPDATE OF u`);
    if (!customer) throw new Error(`customer ${order.userId} does not exist`);
    const lines = customer.lines ?? [];

    const fulfilled: FulfilledLine[] = [];
    let refundedMinor = 0;
    for (const line of lines) {
      const claimed = await claimCodes(tx, line.productId, line.id, line.quantity);
      const delivered = claimed.length;
      if (delivered < line.quantity) refundedMinor += shortfallRefundMinor(line, line.quantity - delivered);
      fulfilled.push({
        lineId: line.id,
        productId: line.productId,
        name: line.productName,
        quantity: line.quantity,
        delivered,
      });
    }

    if (refundedMinor > 0) {
      await creditBalance(tx, {
        userId: order.userId,
        orderId: order.id,
        kind: 'REFUND',
        amountMinor: refundedMinor,
        key: ledgerKeys.refund(order.id, 'shortfall'),
      });
    }
    await removeBoughtFromBasket(
      tx,
      order.userId,
      lines.map((line) => ({ productId: line.productId, quantity: line.quantity })),
    );

    const units = fulfilled.reduce((sum, line) => sum + line.quantity, 0);
    const delivered = fulfilled.reduce((sum, line) => sum + line.delivered, 0);
    const status = delivered === units ? 'FULFILLED' : delivered === 0 ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    await transitionOrder(tx, order.id, status, { fulfilledAt: clock(), refundedMinor });

    const emailId = await recordEmail(tx, {
      to: customer.email,
      template: 'order-receipt',
      locale: resolveLocale(customer.locale),
      data: {
        name: customer.name,
        link: profileLink,
        expiresInMinutes: RECEIPT_SEND_WINDOW_MINUTES,
        receipt: {
          orderId: order.id,
          currency: order.currency,
          totalMinor: order.totalMinor,
          refundedMinor,
          lines: fulfilled.map(({ name, quantity, delivered: count }) => ({ name, quantity, delivered: count })),
        },
      },
    });
    return { status, refundedMinor, lines: fulfilled, emailId };
  }

  return {
    /** Call with the order locked and just moved to PAID, in the same transaction. */
    fulfilPaidOrder(tx: Queryable, order: LockedOrder): Promise<FulfilmentOutcome> {
      return order.type === 'BALANCE' ? creditTopUp(tx, order) : deliverCodes(tx, order);
    },
  };
}

export type FulfilmentService = ReturnType<typeof createFulfilmentService>;
