import type { PaymentStatus, Queryable, SqlClient } from '@store/db';
import { accounts, ledgerKeys, transfer } from '../ledger/ledger-service.ts';
import { enqueueEmailSend } from '../mail/outbox.ts';
import { actors, recordOrderEvent } from '../orders/order-events.ts';
import type { CompletionOutcome, OrderService } from '../orders/order-service.ts';
import { type LockedOrder, lockOrder } from '../orders/order-sql.ts';
import { transitionOrders, UNPAID_STATUSES } from '../orders/order-state.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';
import { toStoreMinor } from './charge-currency.ts';
import { METHOD_OF, type StoredEvent, StoredEventSchema } from './payment-event-payload.ts';
import {
  adoptPayment,
  insertPayment,
  lockEvent,
  markFailed,
  markProcessed,
  noOtherPaymentOpen,
  type PaymentRow,
  type PaymentUpdate,
  updatePayment,
} from './payment-event-sql.ts';
import { type ReversalKind, reversePayment } from './payment-reversal.ts';
import type { ProviderPaymentStatus } from './provider.ts';
import { enqueueProviderRefund } from './provider-refunds.ts';

/**
 * Provider events: stored first, applied later, each once. A verified callback (or the provider's
 * own answer when the store asks about a payment) is checked against the store's payment or order,
 * stored under its unique provider event id (a duplicate stores nothing) and handed to the queue as a
 * `payment.event` job. Applying it (`processEvent`, run by the worker, or in-process when embedded)
 * is the one path that marks a provider-paid order paid and fulfils it.
 */

// The intake, which stores the events this applies, is reached under this module's name too.
export * from './payment-event-intake.ts';

/** What applying an event did (payment_events.outcome). */
export type EventOutcome =
  | CompletionOutcome['outcome']
  /** The payment had a newer state already: nothing changed. */
  | 'stale'
  /** The payment's state was recorded; the order was not completed by it. */
  | 'recorded'
  /** The payment failed and the order, with no other payment under way, failed with it. */
  | 'order_failed'
  /** The provider gave back all of the payment that paid the order: the order ended REFUNDED. */
  | 'order_refunded'
  /** The provider gave back part of the payment that paid the order: the order is PARTIALLY_REFUNDED. */
  | 'order_partially_refunded'
  /** The provider gave back (part of) a payment that did not pay the order: what it produced is reversed. */
  | 'reversed'
  /** The payment came in and went back before the store applied it: on the books, the order untouched. */
  | 'returned_unapplied'
  /** The event's amount or currency was not the payment's: nothing changed. */
  | 'amount_mismatch'
  /** The event named an order its payment does not belong to: nothing changed. */
  | 'order_mismatch'
  /** The event was processed before (a second job for it). */
  | 'already_processed'
  /** The event failed every attempt: set aside for an operator (`payments retry`). */
  | 'dead_lettered';

const STATUS_OF: Record<ProviderPaymentStatus, PaymentStatus> = {
  init: 'INIT',
  pending: 'PENDING',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
  refunded: 'REFUNDED',
};

/**
 * What of the payment the provider has given back, by refunds and by chargebacks. A payment it calls
 * `refunded` is all given back: without totals to say how, the rest counts as refunded.
 */
function givenBack(event: StoredEvent): { refundedMinor: number; chargedBackMinor: number } {
  const chargedBackMinor = Math.min(event.chargedBackMinor, event.amountMinor);
  const refundedMinor = Math.min(event.refundedMinor, event.amountMinor - chargedBackMinor);
  if (event.status === 'refunded') return { refundedMinor: event.amountMinor - chargedBackMinor, chargedBackMinor };
  return { refundedMinor, chargedBackMinor };
}

/**
 * The event in the store's currency: the payment's BRL amount for its charge, and what was given back
 * by the payment's own proportion (charge-currency.ts). An event of a payment charged in BRL is itself.
 */
function inStoreCurrency(
  event: StoredEvent,
  payment: { amountMinor: number; chargeMinor: number; currency: string },
): StoredEvent {
  if (event.currency === payment.currency && event.amountMinor === payment.amountMinor) return event;
  return {
    ...event,
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    refundedMinor: toStoreMinor(event.refundedMinor, payment),
    chargedBackMinor: toStoreMinor(event.chargedBackMinor, payment),
  };
}

/**
 * An event that fails is tried again later, at most this many times (the queue's own retries count
 * too), then set aside as dead for an operator: one that always fails never keeps others waiting.
 */
export const PAYMENT_EVENT_ATTEMPTS = 10;
/** Errors are kept on the row for the operator, never with more than this. */
const LAST_ERROR_MAX = 500;

/**
 * A payment of the store's own started with the provider (card, QR, UPI) has its provider id written
 * once the provider answers; a callback may arrive first. Such an event waits (the job is retried)
 * this long for that answer before it is applied to the payment it must belong to anyway.
 */
export const ADOPT_UNKNOWN_PAYMENT_AFTER_MS = 30_000;

/** The payment is not yet known by its provider id; the job is retried. */
export class PaymentNotYetKnownError extends Error {
  constructor(providerPaymentId: string) {
    super(`provider payment ${providerPaymentId} is not yet recorded; the event waits for it`);
    this.name = 'PaymentNotYetKnownError';
  }
}

export interface PaymentEventProcessorDeps {
  sql: SqlClient;
  orders: Pick<OrderService, 'completePaidOrderInTransaction'>;
  /** Sends receipts after the commit; without it the outbox sweep sends them a minute later. */
  queue?: Pick<JobQueue, 'enqueue'>;
  logger?: Logger;
  clock?: () => Date;
  adoptAfterMs?: number;
  /** Failures before an event is set aside as dead. */
  maxAttempts?: number;
}

export interface ProcessResult {
  outcome: EventOutcome;
  orderId: string | null;
  paymentId: string | null;
}

/**
 * Applies stored events, each once, whatever the order and however often they are delivered. Per
 * payment, an event whose `version` is not above the one applied last changes nothing, so a late
 * `pending` never undoes a `succeeded`. Everything an event changes (the payment, the order, the
 * codes, the ledger, the receipt, and the event's own `processed_at`) is written in one transaction.
 */
export function createPaymentEventProcessor({
  sql,
  orders,
  queue,
  logger = silentLogger,
  clock = () => new Date(),
  adoptAfterMs = ADOPT_UNKNOWN_PAYMENT_AFTER_MS,
  maxAttempts = PAYMENT_EVENT_ATTEMPTS,
}: PaymentEventProcessorDeps) {
  /**
   * The store's payment the event is about: `found`, as processEvent's statement locked it (by the
   * provider's id, else one of the order's payments of that method still without one: a widget or
   * hosted page payment is first known by its callback, and a card payment may call back before its
   * route wrote the id); else a new row, for a payment the store never started (the widget retried
   * inside its frame).
   */
  async function paymentFor(
    tx: Queryable,
    provider: string,
    event: StoredEvent,
    receivedAt: Date,
    found: PaymentRow | null,
  ): Promise<PaymentRow> {
    const method = METHOD_OF[event.method];
    if (found?.providerPaymentId === event.providerPaymentId) return found;
    const startedByStore = method === 'CARD' || method === 'QR' || method === 'UPI';
    if (startedByStore && clock().getTime() - receivedAt.getTime() < adoptAfterMs) {
      throw new PaymentNotYetKnownError(event.providerPaymentId);
    }
    // A waiting one is adopted: its provider id (still null here) is written with the event's update
    // of the payment (or by setAside, when the event is not applied).
    if (found) return found;
    const [created] = await tx.query(insertPayment(provider, event));
    return created as PaymentRow;
  }

  /**
   * `order` and `found`: the event's order and payment, locked (processEvent takes them with the
   * event's own lock). What the event changes on the payment is not written here but answered as
   * `paymentUpdate`, which processEvent runs in the statement that marks the event processed: nothing
   * between reads the payment row.
   */
  async function apply(
    tx: Queryable,
    row: { id: string; provider: string; receivedAt: Date; orderId: string | null },
    charged: StoredEvent,
    order: LockedOrder | undefined,
    found: PaymentRow | null,
  ): Promise<ProcessResult & { emailId: string | null; refundId: string | null; paymentUpdate: PaymentUpdate | null }> {
    const none = { orderId: row.orderId, paymentId: null, emailId: null, refundId: null, paymentUpdate: null };
    if (!row.orderId || !order) return { outcome: 'order_mismatch', ...none };
    const payment = await paymentFor(tx, row.provider, charged, row.receivedAt, found);
    // A payment adopted just now belongs to the provider's payment from here on, applied or not.
    const adopted = payment.providerPaymentId === null ? adoptPayment(payment.id, charged.providerPaymentId) : null;
    const base = { orderId: order.id, paymentId: payment.id, emailId: null, refundId: null, paymentUpdate: adopted };
    if (payment.orderId !== order.id || charged.orderId !== order.id) return { outcome: 'order_mismatch', ...base };
    // The provider speaks of what it charged, in the charge's currency; the store goes on in BRL.
    const chargeMinor = payment.chargeMinor ?? payment.amountMinor;
    if (chargeMinor !== charged.amountMinor || (payment.chargeCurrency ?? payment.currency) !== charged.currency) {
      return { outcome: 'amount_mismatch', ...base };
    }
    if (charged.version <= payment.providerVersion) return { outcome: 'stale', ...base };
    const event = inStoreCurrency(charged, {
      amountMinor: payment.amountMinor,
      chargeMinor,
      currency: payment.currency,
    });
    // What the provider says goes into the order's history before what it makes the store do.
    await recordOrderEvent(tx, {
      orderId: order.id,
      actor: actors.provider(row.provider),
      kind: 'payment',
      amountMinor: event.amountMinor,
      paymentId: payment.id,
      detail: {
        status: event.status,
        method: event.method,
        providerPaymentId: event.providerPaymentId,
        version: event.version,
        ...(event.card ? { card: `${event.card.brand} ${event.card.last4}` } : {}),
        ...(event.failureReason ? { failureReason: event.failureReason } : {}),
        ...(event.refundedMinor > 0 ? { refundedMinor: event.refundedMinor } : {}),
        ...(event.chargedBackMinor > 0 ? { chargedBackMinor: event.chargedBackMinor } : {}),
        ...(charged !== event ? { charge: { amountMinor: charged.amountMinor, currency: charged.currency } } : {}),
      },
    });

    const status = STATUS_OF[event.status];
    const given = givenBack(event);
    const { refundedMinor, chargedBackMinor } = given;
    const applied = { ...base, paymentUpdate: updatePayment(payment.id, status, event, given) };

    // The money came in when the provider first says succeeded (or, late, refunded): the one moment
    // it pays the order, or is put on the books as having paid for nothing.
    const captured = payment.status === 'SUCCEEDED' || payment.status === 'REFUNDED';
    const moneyIn = status === 'SUCCEEDED' || status === 'REFUNDED';
    let outcome: EventOutcome = 'recorded';
    let emailId: string | null = null;
    let refundId: string | null = null;
    if (moneyIn && !captured && status === 'REFUNDED') {
      // Given back before the store applied it: it bought nothing, and the order is left as it is.
      await transfer(tx, {
        key: ledgerKeys.unapplied(payment.id),
        kind: 'UNAPPLIED',
        from: accounts.clearing(row.provider),
        to: accounts.suspense,
        amountMinor: event.amountMinor,
        orderId: order.id,
        paymentId: payment.id,
      });
      outcome = 'returned_unapplied';
    } else if (moneyIn && !captured) {
      // The order is locked above and the payment checked to be its own.
      const completion = await orders.completePaidOrderInTransaction(
        tx,
        {
          orderId: order.id,
          paymentId: payment.id,
          provider: row.provider,
          amountMinor: event.amountMinor,
          currency: event.currency,
        },
        order,
      );
      outcome = completion.outcome;
      emailId = completion.emailId;
      if (completion.outcome === 'duplicate_refunded' || completion.outcome === 'late_returned') {
        refundId = completion.refundId;
      }
    } else if (status === 'PENDING' || status === 'INIT') {
      await transitionOrders(tx, [order.id], 'PENDING', { actor: actors.provider(row.provider) });
    } else if (status === 'FAILED' && UNPAID_STATUSES.includes(order.status)) {
      // Another payment of the order that may still bring its money keeps the order open.
      const [others] = await tx.query(noOtherPaymentOpen(order.id, payment.id));
      if (others?.none) {
        await transitionOrders(tx, [order.id], 'FAILED', { actor: actors.provider(row.provider) });
        outcome = 'order_failed';
      }
    }

    if (moneyIn) {
      const reversals: Array<[ReversalKind, number, number]> = [
        ['refund', refundedMinor, payment.refundedMinor],
        ['chargeback', chargedBackMinor, payment.chargedBackMinor],
      ];
      for (const [kind, totalMinor, before] of reversals) {
        if (totalMinor <= before) continue;
        // As the completion above may have left it: paid by this payment, part refunded already.
        const current = (await lockOrder(tx, order.id)) ?? order;
        const reversal = await reversePayment(
          tx,
          {
            kind,
            payment: { id: payment.id, provider: row.provider },
            order: current,
            totalMinor,
            amountMinor: totalMinor - before,
          },
          logger,
        );
        logger.warn(
          { orderId: order.id, paymentId: payment.id, kind, totalMinor, ...reversal },
          'the provider gave back a payment: what it produced in the store is reversed',
        );
        if (outcome !== 'returned_unapplied') {
          outcome =
            reversal.orderStatus === 'REFUNDED'
              ? 'order_refunded'
              : reversal.orderStatus === 'PARTIALLY_REFUNDED'
                ? 'order_partially_refunded'
                : 'reversed';
        }
      }
    }
    return { outcome, ...applied, emailId, refundId };
  }

  async function sendReceipt(emailId: string | null) {
    if (emailId && queue) await enqueueEmailSend(queue, emailId, logger);
  }

  return {
    /**
     * Applies one stored event: the `payment.event` job. Safe to run any number of times, at once
     * too: the event's row is locked, and one already processed is left alone. A failure leaves it
     * unprocessed, with the error and the attempt counted, and is thrown for the queue to retry.
     */
    async processEvent(eventId: string): Promise<ProcessResult> {
      try {
        const { emailId, refundId, ...result } = await sql.transaction(async (tx) => {
          const [found] = await tx.query(lockEvent(eventId));
          if (!found) throw new Error(`payment event ${eventId} does not exist`);
          const {
            eventId: id,
            provider,
            payload,
            eventOrderId,
            receivedAt,
            processedAt,
            deadAt,
            payment,
            ...orderColumns
          } = found;
          if (processedAt || deadAt) {
            return {
              outcome: processedAt ? ('already_processed' as const) : ('dead_lettered' as const),
              orderId: eventOrderId,
              paymentId: null,
              emailId: null,
              refundId: null,
            };
          }
          const row = { id, provider, receivedAt, orderId: eventOrderId };
          const event = StoredEventSchema.parse(payload);
          const order = orderColumns.id ? (orderColumns as LockedOrder) : undefined;
          const { paymentUpdate, ...applied } = await apply(tx, row, event, order, payment);
          // The payment's change and the event's mark, one statement.
          await tx.execute(markProcessed(eventId, clock(), applied, paymentUpdate));
          return applied;
        });
        if (result.outcome !== 'already_processed' && result.outcome !== 'dead_lettered') {
          logger.info({ eventId, ...result }, 'payment event applied');
        }
        await sendReceipt(emailId);
        if (refundId && queue) await enqueueProviderRefund(queue, refundId, logger);
        return result;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // Waiting for the card attempt's own answer is not a failure: it is not counted.
        const counted = !(error instanceof PaymentNotYetKnownError);
        const [failed] = await sql
          .query(markFailed(eventId, clock(), { counted, lastError: message.slice(0, LAST_ERROR_MAX), maxAttempts }))
          .catch(() => []);
        if (failed?.dead) {
          // Given up: not thrown, so the queue stops retrying it too; an operator retries it.
          logger.error(
            { err: error, eventId, attempts: failed.attempts },
            'payment event failed every attempt and is set aside as dead: an operator must look',
          );
          return { outcome: 'dead_lettered', orderId: null, paymentId: null };
        }
        throw error;
      }
    },
  };
}

export type PaymentEventProcessor = ReturnType<typeof createPaymentEventProcessor>;
