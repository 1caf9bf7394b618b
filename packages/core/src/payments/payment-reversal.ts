import { type LedgerAccount, type Queryable, qb } from '@store/db';
import { type Account, accounts, ledgerKeys, transfer } from '../ledger/ledger-service.ts';
import { actors, recordOrderEvent } from '../orders/order-events.ts';
import type { LockedOrder } from '../orders/order-sql.ts';
import { transitionOrders } from '../orders/order-state.ts';
import type { Logger } from '../shared/logger.ts';

/**
 * The one reconciliation rule for what the provider gives back on its own: a refund (through its API
 * or its dashboard) or a chargeback of X on payment P reverses what P produced in the store, once.
 *
 * What P produced is read from the books, by the transfers that name it: credit on the customer's
 * balance (a top-up, a shortfall or an operator's refund of the order it paid, a second payment's
 * credit), money held in suspense (a charge that bought nothing), and goods (its purchase's revenue,
 * less what went back to the balance for them). X reverses them in that order: what the customer
 * got back on the balance comes back first, since the card now has it, then suspense, then the goods,
 * whose refund is the order's. Credit the balance no longer covers (it was spent) becomes the
 * customer's receivable: what they owe, which the next money onto their balance pays first.
 *
 * Each new running total of refunds (or chargebacks) of P is reversed once: the transfers' keys carry
 * it, and the payment's `refunded_minor` / `charged_back_minor` (written by the caller with the
 * event) say how much is reversed already.
 */

export type ReversalKind = 'refund' | 'chargeback';

export interface ReversalInput {
  kind: ReversalKind;
  payment: { id: string; provider: string };
  /** The order the payment belongs to, locked by the caller. */
  order: LockedOrder;
  /** The provider's running total of this kind for the payment, after this reversal. */
  totalMinor: number;
  /** What is new in it: the total minus what the store reversed before. */
  amountMinor: number;
}

export interface ReversalOutcome {
  /** Taken back from the customer's balance. */
  fromBalanceMinor: number;
  /** Credit the balance no longer covered: now owed by the customer. */
  owedMinor: number;
  /** Held in suspense (a charge that bought nothing), now gone back. */
  fromSuspenseMinor: number;
  /** The goods' refund: the order's refunded amount grows by it. */
  goodsMinor: number;
  /** More than the store ever recorded for the payment: taken from adjustments, for an operator to look at. */
  unrecordedMinor: number;
  /** The order's status after it, when the reversal changed it. */
  orderStatus: 'REFUNDED' | 'PARTIALLY_REFUNDED' | null;
}

/**
 * What the payment's transfers left standing on each kind of account, net of earlier reversals, and
 * the customer's balance, whose row is locked.
 */
async function readStanding(tx: Queryable, paymentId: string, userId: string) {
  const [row] = await tx.query(
    qb
      .with('customer', (db) =>
        db.selectFrom('users').select('balance_minor').where('id', '=', userId).forNoKeyUpdate(),
      )
      .selectFrom('ledger_transfers as t')
      .innerJoin('ledger_entries as e', 'e.transfer_id', 't.id')
      .select((eb) => {
        const standing = (accounts: LedgerAccount[]) =>
          eb.cast<number>(
            eb.fn.coalesce(eb.fn.sum<number>('e.amount_minor').filterWhere('e.account', 'in', accounts), eb.lit(0)),
            'bigint',
          );
        return [
          standing(['CUSTOMER_BALANCE', 'CUSTOMER_RECEIVABLE']).as('customer'),
          standing(['SUSPENSE']).as('suspense'),
          standing(['REVENUE', 'REFUNDS']).as('goods'),
          // The order's customer: there is one.
          eb.selectFrom('customer').select('balance_minor').$asScalar().$notNull().as('balance'),
        ];
      })
      .where('t.payment_id', '=', paymentId),
  );
  return row ?? { customer: 0, suspense: 0, goods: 0, balance: 0 };
}

/**
 * Reverses `amountMinor` of the payment inside the caller's transaction, with the order locked.
 * Moves the money in the books and, for the payment that paid the order, the order's refunded
 * amount and status; the caller records the new totals on the payment.
 */
export async function reversePayment(tx: Queryable, input: ReversalInput, logger: Logger): Promise<ReversalOutcome> {
  const { kind, payment, order, totalMinor, amountMinor } = input;
  const standing = await readStanding(tx, payment.id, order.userId);
  let rest = amountMinor;
  const take = (available: number) => {
    const part = Math.max(0, Math.min(rest, available));
    rest -= part;
    return part;
  };
  const customerPart = take(standing.customer);
  const fromSuspenseMinor = take(standing.suspense);
  const goodsMinor = take(standing.goods);
  const unrecordedMinor = rest;
  const fromBalanceMinor = Math.min(customerPart, Math.max(0, standing.balance));
  const owedMinor = customerPart - fromBalanceMinor;

  const clearing = accounts.clearing(payment.provider);
  const move = (part: string, from: Account, amount: number) =>
    amount > 0
      ? transfer(tx, {
          key: ledgerKeys.reversal(kind, payment.id, totalMinor, part),
          kind: kind === 'refund' ? 'PROVIDER_REFUND' : 'CHARGEBACK',
          from,
          to: clearing,
          amountMinor: amount,
          orderId: order.id,
          paymentId: payment.id,
        })
      : undefined;
  await move('balance', accounts.balance(order.userId), fromBalanceMinor);
  await move('receivable', accounts.receivable(order.userId), owedMinor);
  await move('suspense', accounts.suspense, fromSuspenseMinor);
  await move('goods', accounts.refunds, goodsMinor);
  await move('unrecorded', accounts.adjustments, unrecordedMinor);
  if (unrecordedMinor > 0) {
    logger.error(
      { orderId: order.id, paymentId: payment.id, kind, unrecordedMinor },
      'the provider gave back more of a payment than the store recorded taking; held in adjustments',
    );
  }
  if (owedMinor > 0) {
    logger.warn(
      { orderId: order.id, paymentId: payment.id, userId: order.userId, owedMinor },
      'a reversed payment took back credit already spent: the customer owes it',
    );
  }

  await recordOrderEvent(tx, {
    orderId: order.id,
    actor: actors.provider(payment.provider),
    kind: 'reversal',
    amountMinor,
    paymentId: payment.id,
    detail: {
      kind,
      totalMinor,
      fromBalanceMinor,
      owedMinor,
      fromSuspenseMinor,
      goodsMinor,
      ...(unrecordedMinor > 0 ? { unrecordedMinor } : {}),
    },
  });

  let orderStatus: ReversalOutcome['orderStatus'] = null;
  if (order.paymentId === payment.id) {
    // What went back to the customer grows by the goods (a purchase) or by the whole of it (a top-up,
    // whose credit was what it bought); credit taken back from the balance only changed where the
    // refund went, not how much.
    const grows = goodsMinor + (order.type === 'BALANCE' ? customerPart : 0) + unrecordedMinor;
    const refundedMinor = Math.min(order.totalMinor, order.refundedMinor + grows);
    if (grows > 0) {
      const to = refundedMinor >= order.totalMinor ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
      const moved = await transitionOrders(tx, [order.id], to, {
        refundedMinor,
        actor: actors.provider(payment.provider),
      });
      if (moved.length > 0) orderStatus = to;
    }
  }
  return { fromBalanceMinor, owedMinor, fromSuspenseMinor, goodsMinor, unrecordedMinor, orderStatus };
}
