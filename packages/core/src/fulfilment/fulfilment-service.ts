import { type EmailTemplate, type Locale, RECEIPT_SEND_WINDOW_MINUTES } from '@store/contract';
import { prepare, prepareEach, type Queryable, qb } from '@store/db';
import { recordBalanceNotice } from '../ledger/balance-notice.ts';
import { accounts, creditCustomer, ledgerKeys, transfer } from '../ledger/ledger-service.ts';
import { emailRow, emailRowInsert } from '../mail/outbox.ts';
import { resolveLocale } from '../mail/templates.ts';
import { orderEventRow, orderEventRowInsert } from '../orders/order-events.ts';
import type { LockedOrder } from '../orders/order-sql.ts';
import { refuseTransition, type TransitionChanges, transitionOrder, transitionUpdate } from '../orders/order-state.ts';
import { type BoughtLines, basketRemoval, boughtLines, claimCodes } from './fulfilment-sql.ts';

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

/** How the order was paid: the provider's payment (its clearing account pays), or from the balance. */
export interface PaidWith {
  paymentId: string | null;
  /** The provider of `paymentId`; null for a spend from the balance or an order with nothing to pay. */
  provider: string | null;
}

export interface FulfilmentServiceDeps {
  /** Where the store is opened; the receipt links to the profile there. */
  publicUrl: string;
  clock?: () => Date;
}

/**
 * The order's move to PAID (its state machine's statement) and its customer's row, locked as
 * lockCustomer does, with what the receipt needs and the order's lines in products' id order (two
 * fulfilments never hold each other's product rows in a cycle): one statement, built once.
 */
const markPaidStatement = prepare(
  (a: TransitionChanges & { orderIds: readonly string[]; orderId: string; userId: string }) =>
    qb
      .with('paid', () => transitionUpdate(a.orderIds, 'PAID', a))
      .selectFrom('users as u')
      .select((eb) => [
        eb
          .selectFrom('paid')
          .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('paid'))
          .as('paid'),
        'u.email',
        'u.name',
        'u.locale',
        // The lines as JSON objects keyed by their columns' aliases.
        eb
          .selectFrom(
            eb
              .selectFrom('order_lines as ol')
              .select([
                'ol.id',
                'ol.product_id as productId',
                'ol.product_name as productName',
                'ol.quantity',
                'ol.unit_price_minor as unitPriceMinor',
                'ol.discount_minor as discountMinor',
              ])
              .where('ol.order_id', '=', a.orderId)
              .as('l'),
          )
          .select((eb) => eb.fn.jsonAgg('l').orderBy('l.productId').orderBy('l.id').as('lines'))
          .as('lines'),
      ])
      .where('u.id', '=', a.userId)
      .forNoKeyUpdate('u'),
);

/** What ends a fulfilment of codes, as fulfilmentEndStatement fills it in. */
interface FulfilmentEnd {
  userId: string;
  bought: BoughtLines;
  emailId: string;
  emailTo: string;
  emailTemplate: EmailTemplate;
  emailLocale: Locale;
  emailData: string;
  orderIds: readonly string[];
  orderId: string;
  actor: string;
  paymentId: string | null;
  detail: string | null;
  fulfilledAt: Date;
  refundedMinor: number;
}

/**
 * The end of a fulfilment of codes, one statement per status it ends in: the bought lines leave the
 * basket, the receipt goes into the outbox, the history says what was delivered, the order moves.
 */
const fulfilmentEndStatement = prepareEach(
  (status: 'FULFILLED' | 'PARTIALLY_REFUNDED' | 'REFUNDED', a: FulfilmentEnd) =>
    basketRemoval(a.userId, a.bought)
      .with('receipt', () =>
        emailRowInsert({
          id: a.emailId,
          to: a.emailTo,
          template: a.emailTemplate,
          locale: a.emailLocale,
          data: a.emailData,
        }),
      )
      .with('history', () =>
        orderEventRowInsert({
          orderId: a.orderId,
          actor: a.actor,
          kind: 'codes',
          amountMinor: null,
          paymentId: a.paymentId,
          detail: a.detail,
        }),
      )
      .with('moved', () =>
        transitionUpdate(a.orderIds, status, {
          actor: a.actor,
          fulfilledAt: a.fulfilledAt,
          refundedMinor: a.refundedMinor,
        }),
      )
      .selectFrom('moved')
      .select('id'),
);

/**
 * Marks a locked, unpaid order PAID and turns it into what it bought, in the caller's transaction: a
 * top-up is credited to the ledger and its owner told by email; a purchase claims its codes, refunds
 * any shortfall to the balance through the ledger, takes the bought lines out of the basket and
 * writes the receipt to the outbox. The order ends FULFILLED, PARTIALLY_REFUNDED or REFUNDED, all or
 * nothing with the payment.
 */
export function createFulfilmentService({ publicUrl, clock = () => new Date() }: FulfilmentServiceDeps) {
  const orderLink = (orderId: string) => new URL(`/profile?order=${orderId}`, publicUrl).toString();

  /**
   * The order's move to PAID and its customer, locked, with the order's lines (markPaidStatement).
   */
  async function markPaid(tx: Queryable, order: LockedOrder, paid: TransitionChanges) {
    const [customer] = await tx.query(
      markPaidStatement({
        orderIds: [order.id],
        orderId: order.id,
        userId: order.userId,
        actor: paid.actor,
        paidAt: paid.paidAt,
        paymentId: paid.paymentId,
        fulfilledAt: paid.fulfilledAt,
        refundedMinor: paid.refundedMinor,
      }),
    );
    if (!customer) throw new Error(`customer ${order.userId} does not exist`);
    if (customer.paid === 0) await refuseTransition(tx, order.id, 'PAID');
    return customer;
  }

  /** The customer of an order being fulfilled, locked, with what the receipt needs, and the order's lines. */
  type PaidCustomer = Awaited<ReturnType<typeof markPaid>>;

  async function creditTopUp(
    tx: Queryable,
    order: LockedOrder,
    paidWith: PaidWith,
    actor: string,
  ): Promise<FulfilmentOutcome> {
    if (!paidWith.provider) throw new Error(`top-up ${order.id} is paid through a provider, not ${paidWith.paymentId}`);
    const credited =
      order.totalMinor > 0 &&
      (
        await creditCustomer(tx, {
          userId: order.userId,
          key: ledgerKeys.topUp(order.id),
          kind: 'TOPUP',
          from: accounts.clearing(paidWith.provider),
          amountMinor: order.totalMinor,
          orderId: order.id,
          paymentId: paidWith.paymentId,
        })
      ).moved;
    await transitionOrder(tx, order.id, 'FULFILLED', { fulfilledAt: clock(), actor });
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

  async function deliverCodes(
    tx: Queryable,
    order: LockedOrder,
    customer: PaidCustomer,
    paidWith: PaidWith,
    actor: string,
  ): Promise<FulfilmentOutcome> {
    const lines = customer.lines ?? [];
    // What came in through a provider is the store's revenue from here on; a spend moved it already.
    if (paidWith.provider && paidWith.paymentId && order.totalMinor > 0) {
      await transfer(tx, {
        key: ledgerKeys.purchase(paidWith.paymentId),
        kind: 'PURCHASE',
        from: accounts.clearing(paidWith.provider),
        to: accounts.revenue,
        amountMinor: order.totalMinor,
        orderId: order.id,
        paymentId: paidWith.paymentId,
      });
    }

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
      await creditCustomer(tx, {
        userId: order.userId,
        key: ledgerKeys.refund(order.id, 'shortfall'),
        kind: 'REFUND',
        from: accounts.refunds,
        amountMinor: refundedMinor,
        orderId: order.id,
        paymentId: paidWith.paymentId,
      });
    }
    const units = fulfilled.reduce((sum, line) => sum + line.quantity, 0);
    const delivered = fulfilled.reduce((sum, line) => sum + line.delivered, 0);
    const status = delivered === units ? 'FULFILLED' : delivered === 0 ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    const receipt = emailRow({
      to: customer.email,
      template: 'order-receipt',
      locale: resolveLocale(customer.locale),
      data: {
        name: customer.name,
        // The order's page (signed in, like the profile): its codes and its PDF receipt. No token, no code.
        link: orderLink(order.id),
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
    const history = orderEventRow({
      orderId: order.id,
      actor,
      kind: 'codes',
      paymentId: paidWith.paymentId,
      detail: {
        lines: fulfilled.map((line) => ({
          productId: line.productId,
          name: line.name,
          quantity: line.quantity,
          delivered: line.delivered,
        })),
      },
    });
    // The bought lines leave the basket, the order's history says what was delivered, the order
    // ends, the receipt goes into the outbox: one statement.
    const moved = await tx.query(
      fulfilmentEndStatement(status, {
        userId: order.userId,
        bought: boughtLines(lines),
        emailId: receipt.id,
        emailTo: receipt.to,
        emailTemplate: receipt.template,
        emailLocale: receipt.locale,
        emailData: receipt.data,
        orderIds: [order.id],
        orderId: order.id,
        actor,
        paymentId: history.paymentId,
        detail: history.detail,
        fulfilledAt: clock(),
        refundedMinor,
      }),
    );
    if (moved.length === 0) await refuseTransition(tx, order.id, status);
    return { status, refundedMinor, lines: fulfilled, emailId: receipt.id };
  }

  return {
    /**
     * Call with the order locked, in the transaction that takes its payment: `paid` is what the move
     * to PAID writes beside the status, `paidWith` where the money came from (a provider's payment,
     * whose clearing account pays the top-up or the revenue; or the balance, debited already). A
     * move the state machine refuses throws.
     */
    async payAndFulfil(
      tx: Queryable,
      order: LockedOrder,
      paid: TransitionChanges,
      paidWith: PaidWith,
    ): Promise<FulfilmentOutcome> {
      const customer = await markPaid(tx, order, paid);
      return order.type === 'BALANCE'
        ? creditTopUp(tx, order, paidWith, paid.actor)
        : deliverCodes(tx, order, customer, paidWith, paid.actor);
    },
  };
}

export type FulfilmentService = ReturnType<typeof createFulfilmentService>;
