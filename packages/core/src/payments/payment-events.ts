import { randomUUID } from 'node:crypto';
import { type PaymentMethod, type PaymentStatus, Prisma, type PrismaClient, type Queryable, sqlOf } from '@store/db';
import { z } from 'zod';
import { accounts, ledgerKeys, transfer } from '../ledger/ledger-service.ts';
import { enqueueEmailSend } from '../mail/outbox.ts';
import { actors, recordOrderEvent } from '../orders/order-events.ts';
import type { CompletionOutcome, OrderService } from '../orders/order-service.ts';
import { type LockedOrder, lockOrder, ORDER_COLUMNS } from '../orders/order-sql.ts';
import { transitionOrders, UNPAID_STATUSES } from '../orders/order-state.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';
import { noPaymentOpen } from './payment-deciding.ts';
import { type ReversalKind, reversePayment } from './payment-reversal.ts';
import type {
  PaymentCallbackEvent,
  PaymentEventType,
  ProviderPayment,
  ProviderPaymentMethod,
  ProviderPaymentStatus,
} from './provider.ts';
import { enqueueProviderRefund } from './provider-refunds.ts';

/**
 * Provider events: stored first, applied later, each once. A verified callback (or the provider's
 * own answer when the store asks about a payment) is checked against the store's payment or order,
 * stored under its unique provider event id (a duplicate stores nothing) and handed to the queue as a
 * `payment.event` job. Applying it (`processEvent`, run by the worker, or in-process when embedded)
 * is the one path that marks a provider-paid order paid and fulfils it.
 */

/** Why an event was set aside on arrival: it is kept, marked, and never applied. */
export type EventRejection = 'amount_mismatch' | 'currency_mismatch' | 'order_mismatch' | 'unknown_order';

/** Where a stored event came from. */
export type EventSource = 'callback' | 'poll';

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

export interface ReceivedEvent {
  /** The stored row; null when the event was a duplicate. */
  eventId: string | null;
  duplicate: boolean;
  rejection: EventRejection | null;
}

const METHOD_OF: Record<ProviderPaymentMethod, PaymentMethod> = {
  widget: 'WIDGET',
  hosted_page: 'HOSTED_PAGE',
  card: 'CARD',
  qr: 'QR',
  upi: 'UPI',
};

const STATUS_OF: Record<ProviderPaymentStatus, PaymentStatus> = {
  init: 'INIT',
  pending: 'PENDING',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
  refunded: 'REFUNDED',
};

const EVENT_TYPE_OF: Record<ProviderPaymentStatus, PaymentEventType> = {
  init: 'payment.pending',
  pending: 'payment.pending',
  succeeded: 'payment.succeeded',
  failed: 'payment.failed',
  refunded: 'payment.refunded',
};

/** The event as the store reads it, kept in payment_events.payload beside the provider's own body. */
const StoredEventSchema = z.object({
  type: z.string(),
  occurredAt: z.iso.datetime(),
  providerPaymentId: z.string(),
  orderId: z.string(),
  method: z.enum(['widget', 'hosted_page', 'card', 'qr', 'upi']),
  status: z.enum(['init', 'pending', 'succeeded', 'failed', 'refunded']),
  amountMinor: z.int().positive(),
  currency: z.string(),
  refundedMinor: z.int().nonnegative(),
  /** Events stored before chargebacks were read carry none. */
  chargedBackMinor: z.int().nonnegative().default(0),
  failureReason: z.string().nullable(),
  card: z.object({ brand: z.string().max(32), last4: z.string().regex(/^\d{4}$/) }).nullable(),
  version: z.int().nonnegative(),
});
type StoredEvent = z.infer<typeof StoredEventSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
 * An event that fails is tried again later, at most this many times (the queue's own retries count
 * too), then set aside as dead for an operator: one that always fails never keeps others waiting.
 */
export const PAYMENT_EVENT_ATTEMPTS = 10;
/** The wait after the n-th failure: EVENT_RETRY_BASE_S * 2^(n-1) seconds, at most EVENT_RETRY_MAX_S. */
const EVENT_RETRY_BASE_S = 5;
const EVENT_RETRY_MAX_S = 3_600;

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

/** The event id under which the provider's answer about a payment is stored: one per version. */
export function polledEventId(payment: Pick<ProviderPayment, 'providerPaymentId' | 'version'>): string {
  return `poll:${payment.providerPaymentId}:v${payment.version}`;
}

/** The provider's answer about a payment, as an event of the same shape as a callback. */
export function eventFromProviderPayment(provider: string, payment: ProviderPayment): PaymentCallbackEvent {
  return {
    provider,
    eventId: polledEventId(payment),
    type: EVENT_TYPE_OF[payment.status],
    occurredAt: payment.updatedAt,
    providerPaymentId: payment.providerPaymentId,
    orderId: payment.orderId,
    method: payment.method,
    status: payment.status,
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    refundedMinor: payment.refundedMinor,
    chargedBackMinor: payment.chargedBackMinor,
    failureReason: payment.failureReason,
    card: payment.card,
    version: payment.version,
    payload: null,
  };
}

export interface PaymentEventsDeps {
  db: PrismaClient;
  /** Where stored events are handed on; without it only the sweep hands them on. */
  queue?: Pick<JobQueue, 'enqueue'>;
  logger?: Logger;
  clock?: () => Date;
}

/** Storing events as they arrive, and handing them to the queue. */
export function createPaymentEventIntake({
  db,
  queue,
  logger = silentLogger,
  clock = () => new Date(),
}: PaymentEventsDeps) {
  const sql = sqlOf(db);

  /**
   * The payment or order the event must match, and why it does not (null when it does): the
   * provider's payment when the store knows it, else the order the event names.
   */
  function verdict(event: PaymentCallbackEvent): Prisma.Sql {
    const namedOrder = UUID.test(event.orderId) ? event.orderId : null;
    return Prisma.sql`
      SELECT e."orderId",
             CASE WHEN e."orderId" IS NULL THEN 'unknown_order'
                  WHEN e."orderId"::text <> ${event.orderId} THEN 'order_mismatch'
                  WHEN e.currency <> ${event.currency} THEN 'currency_mismatch'
                  WHEN e."amountMinor" <> ${event.amountMinor} THEN 'amount_mismatch'
             END AS rejection
      FROM (SELECT 1) AS one
      LEFT JOIN (
        SELECT "orderId", "amountMinor", currency FROM (
          SELECT order_id AS "orderId", amount_minor AS "amountMinor", currency, 1 AS rank
          FROM payments WHERE provider = ${event.provider} AND provider_payment_id = ${event.providerPaymentId}
          UNION ALL
          SELECT id, total_minor, currency, 2 FROM orders WHERE id = ${namedOrder}::uuid
        ) AS candidates
        ORDER BY rank LIMIT 1
      ) AS e ON true`;
  }

  /** `eventId`: the row just stored. */
  function enqueue(eventId: string) {
    if (!queue) return;
    // Never waited for: a callback is answered at once, and an event the queue did not take (Redis
    // away) is stored already, for the sweep to hand on.
    queue.enqueue({ kind: 'payment.event', eventId }, { jobId: eventId, newId: true }).catch((error: unknown) => {
      logger.warn({ err: error, eventId }, 'payment event not enqueued; the sweep hands it on later');
    });
  }

  async function record(event: PaymentCallbackEvent, source: EventSource): Promise<ReceivedEvent> {
    const stored: StoredEvent = {
      type: event.type,
      occurredAt: event.occurredAt.toISOString(),
      providerPaymentId: event.providerPaymentId,
      orderId: event.orderId,
      method: event.method,
      status: event.status,
      amountMinor: event.amountMinor,
      currency: event.currency,
      refundedMinor: event.refundedMinor,
      chargedBackMinor: event.chargedBackMinor,
      failureReason: event.failureReason,
      card: event.card,
      version: event.version,
    };
    // Checked and stored in one statement, since every callback waits for it before it is
    // acknowledged. INSERT ... ON CONFLICT DO NOTHING RETURNING: a second copy of the event stores
    // nothing, however many arrive at once. One that does not match is stored already processed.
    const [row] = await sql.query<{ id: string; rejection: EventRejection | null }>(Prisma.sql`
      WITH verdict AS (${verdict(event)})
      INSERT INTO payment_events (id, provider, provider_event_id, type, payload, source, provider_payment_id,
                                  order_id, version, rejection, processed_at)
      SELECT ${randomUUID()}::uuid, ${event.provider}, ${event.eventId}, ${event.type},
             ${JSON.stringify({ ...stored, body: event.payload ?? null })}::jsonb, ${source}, ${event.providerPaymentId},
             v."orderId", ${event.version}, v.rejection,
             CASE WHEN v.rejection IS NULL THEN NULL ELSE ${clock()}::timestamptz END
      FROM verdict v
      ON CONFLICT (provider, provider_event_id) DO NOTHING
      RETURNING id, rejection`);
    if (!row) return { eventId: null, duplicate: true, rejection: null };
    const { rejection } = row;
    if (rejection) {
      // Money the store cannot attribute or whose amount is not the order's: an operator must look.
      logger.error(
        { eventId: row.id, providerEventId: event.eventId, orderId: event.orderId, rejection },
        'payment event set aside: it does not match the store’s payment or order',
      );
    } else {
      enqueue(row.id);
    }
    return { eventId: row.id, duplicate: false, rejection };
  }

  return {
    /** A verified callback: stored (or found a duplicate) and handed on. */
    receiveCallback(event: PaymentCallbackEvent): Promise<ReceivedEvent> {
      return record(event, 'callback');
    },

    /** What the provider said when asked (a confirm, the sweep): stored once per version, handed on. */
    receiveProviderPayment(provider: string, payment: ProviderPayment): Promise<ReceivedEvent> {
      return record(eventFromProviderPayment(provider, payment), 'poll');
    },
  };
}

export type PaymentEventIntake = ReturnType<typeof createPaymentEventIntake>;

export interface PaymentEventProcessorDeps {
  db: PrismaClient;
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

interface PaymentRow {
  id: string;
  orderId: string;
  status: PaymentStatus;
  amountMinor: number;
  currency: string;
  providerPaymentId: string | null;
  providerVersion: number;
  /** What of it the store has reversed: refunds, chargebacks. */
  refundedMinor: number;
  chargedBackMinor: number;
}

/** The payment row an event is about, as the processor reads it. */
const PAYMENT_COLUMNS = Prisma.sql`
  id, order_id AS "orderId", status, amount_minor AS "amountMinor", currency,
  provider_payment_id AS "providerPaymentId", provider_version AS "providerVersion",
  refunded_minor AS "refundedMinor", charged_back_minor AS "chargedBackMinor"`;

/** The event's row, its order's and its payment's, as processEvent's one statement locks and reads them. */
interface LockedEventRow extends Partial<LockedOrder> {
  eventId: string;
  provider: string;
  payload: unknown;
  eventOrderId: string | null;
  receivedAt: Date;
  processedAt: Date | null;
  deadAt: Date | null;
  /** The payment, locked: null when none matches (or the event is processed, or its order is gone). */
  payment: PaymentRow | null;
}

/** The payment methods as the provider's events name them, for SQL that reads them from a stored event. */
const METHOD_VALUES = Prisma.join(
  Object.entries(METHOD_OF).map(([name, method]) => Prisma.sql`(${name}, ${method}::payment_method)`),
);

/**
 * Locks and reads, in one statement, what applying an event takes: the event's row, then (unless it
 * is processed) its order's, as every path that moves an order's money takes it first (two events of
 * one payment queue here), then the payment it is about. The payment is looked for only once the
 * order is locked (the EXISTS is checked before any payment row is read): known by the provider's
 * id, else the newest of the order's payments of the event's method still waiting for its id, each
 * looked up by its own index.
 */
function lockEvent(eventId: string): Prisma.Sql {
  return Prisma.sql`
    WITH event AS (
      SELECT id, provider, provider_payment_id, payload, order_id, received_at, processed_at, dead_at
      FROM payment_events
      WHERE id = ${eventId}::uuid
      FOR UPDATE
    ), locked AS (
      SELECT ${ORDER_COLUMNS} FROM orders
      WHERE id = (SELECT order_id FROM event WHERE processed_at IS NULL AND dead_at IS NULL)
      FOR NO KEY UPDATE
    ), payment AS (
      SELECT ${PAYMENT_COLUMNS} FROM payments
      WHERE EXISTS (SELECT 1 FROM locked)
        AND id = (
          SELECT id FROM (
            SELECT p.id, 1 AS rank, p.created_at FROM payments p, event e
            WHERE p.provider = e.provider AND p.provider_payment_id = e.provider_payment_id
            UNION ALL
            SELECT p.id, 2, p.created_at FROM payments p
            WHERE p.order_id = (SELECT id FROM locked) AND p.provider = (SELECT provider FROM event)
              AND p.method = (SELECT m.method FROM event e, (VALUES ${METHOD_VALUES}) AS m(name, method)
                              WHERE m.name = e.payload->>'method')
              AND p.provider_payment_id IS NULL AND p.status = 'INIT'
          ) AS candidates
          ORDER BY rank, created_at DESC
          LIMIT 1)
        -- Checked again on the locked row: one that changed while this waited is not taken.
        AND (provider_payment_id = (SELECT provider_payment_id FROM event)
             OR (provider_payment_id IS NULL AND status = 'INIT'))
      FOR NO KEY UPDATE
    )
    SELECT e.id AS "eventId", e.provider, e.payload, e.order_id AS "eventOrderId",
           e.received_at AS "receivedAt", e.processed_at AS "processedAt", e.dead_at AS "deadAt", o.*,
           (SELECT to_jsonb(p) FROM payment p) AS payment
    FROM event e LEFT JOIN locked o ON true`;
}

/**
 * Applies stored events, each once, whatever the order and however often they are delivered. Per
 * payment, an event whose `version` is not above the one applied last changes nothing, so a late
 * `pending` never undoes a `succeeded`. Everything an event changes (the payment, the order, the
 * codes, the ledger, the receipt, and the event's own `processed_at`) is written in one transaction.
 */
export function createPaymentEventProcessor({
  db,
  orders,
  queue,
  logger = silentLogger,
  clock = () => new Date(),
  adoptAfterMs = ADOPT_UNKNOWN_PAYMENT_AFTER_MS,
  maxAttempts = PAYMENT_EVENT_ATTEMPTS,
}: PaymentEventProcessorDeps) {
  const sql = sqlOf(db);

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
    const [created] = await tx.query<PaymentRow>(Prisma.sql`
      INSERT INTO payments (id, order_id, provider, method, amount_minor, currency, provider_payment_id, updated_at)
      VALUES (${randomUUID()}::uuid, ${event.orderId}::uuid, ${provider}, ${method}::payment_method,
              ${event.amountMinor}, ${event.currency}, ${event.providerPaymentId}, now())
      RETURNING ${PAYMENT_COLUMNS}`);
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
    event: StoredEvent,
    order: LockedOrder | undefined,
    found: PaymentRow | null,
  ): Promise<ProcessResult & { emailId: string | null; refundId: string | null; paymentUpdate: Prisma.Sql | null }> {
    const none = { orderId: row.orderId, paymentId: null, emailId: null, refundId: null, paymentUpdate: null };
    if (!row.orderId || !order) return { outcome: 'order_mismatch', ...none };
    const payment = await paymentFor(tx, row.provider, event, row.receivedAt, found);
    // A payment adopted just now belongs to the provider's payment from here on, applied or not.
    const adopted =
      payment.providerPaymentId === null
        ? Prisma.sql`
          UPDATE payments SET provider_payment_id = ${event.providerPaymentId}, updated_at = now()
          WHERE id = ${payment.id}::uuid`
        : null;
    const base = { orderId: order.id, paymentId: payment.id, emailId: null, refundId: null, paymentUpdate: adopted };
    if (payment.orderId !== order.id || event.orderId !== order.id) return { outcome: 'order_mismatch', ...base };
    if (payment.amountMinor !== event.amountMinor || payment.currency !== event.currency) {
      return { outcome: 'amount_mismatch', ...base };
    }
    if (event.version <= payment.providerVersion) return { outcome: 'stale', ...base };
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
      },
    });

    const status = STATUS_OF[event.status];
    const { refundedMinor, chargedBackMinor } = givenBack(event);
    const applied = {
      ...base,
      paymentUpdate: Prisma.sql`
        UPDATE payments SET status = ${status}::payment_status, provider_version = ${event.version},
          failure_reason = ${event.failureReason},
          provider_payment_id = ${event.providerPaymentId},
          card_brand = COALESCE(${event.card?.brand ?? null}, card_brand),
          card_last4 = COALESCE(${event.card?.last4 ?? null}, card_last4),
          refunded_minor = GREATEST(refunded_minor, ${refundedMinor}::bigint),
          charged_back_minor = GREATEST(charged_back_minor, ${chargedBackMinor}::bigint),
          updated_at = now()
        WHERE id = ${payment.id}::uuid`,
    };

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
      const [others] = await tx.query<{ none: boolean }>(
        Prisma.sql`SELECT ${noPaymentOpen(Prisma.sql`${order.id}::uuid`, Prisma.sql`${payment.id}::uuid`)} AS none`,
      );
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
          const [found] = await tx.query<LockedEventRow>(lockEvent(eventId));
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
          const processed = Prisma.sql`
            UPDATE payment_events SET processed_at = ${clock()}, outcome = ${applied.outcome},
              payment_id = ${applied.paymentId}::uuid, attempts = attempts + 1, last_error = NULL
            WHERE id = ${eventId}::uuid`;
          // The payment's change and the event's mark, one statement.
          await tx.execute(paymentUpdate ? Prisma.sql`WITH payment AS (${paymentUpdate}) ${processed}` : processed);
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
          .query<{ dead: boolean; attempts: number }>(Prisma.sql`
            UPDATE payment_events SET
              attempts = attempts + ${counted ? 1 : 0}, last_error = ${message.slice(0, LAST_ERROR_MAX)},
              next_attempt_at = ${clock()}::timestamptz
                + make_interval(secs => LEAST(${EVENT_RETRY_MAX_S}, ${EVENT_RETRY_BASE_S} * power(2, attempts))),
              dead_at = CASE WHEN attempts + ${counted ? 1 : 0} >= ${maxAttempts} THEN ${clock()}::timestamptz END
            WHERE id = ${eventId}::uuid AND processed_at IS NULL AND dead_at IS NULL
            RETURNING dead_at IS NOT NULL AS dead, attempts`)
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
