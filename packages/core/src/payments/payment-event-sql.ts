import { randomUUID } from 'node:crypto';
import { type PaymentStatus, Prisma } from '@store/db';
import { type LockedOrder, ORDER_COLUMNS } from '../orders/order-sql.ts';
import { noPaymentOpen } from './payment-deciding.ts';
import { METHOD_OF, type StoredEvent } from './payment-event-payload.ts';

/**
 * The SQL of applying a provider event (payment-events.ts): the one statement that locks and reads
 * what it takes, the payment's writes, and the event's own mark, processed or failed.
 */

export interface PaymentRow {
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
export interface LockedEventRow extends Partial<LockedOrder> {
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
export function lockEvent(eventId: string): Prisma.Sql {
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

/** A new payment row for one the store never started (the widget retried inside its frame). */
export function insertPayment(provider: string, event: StoredEvent): Prisma.Sql {
  return Prisma.sql`
      INSERT INTO payments (id, order_id, provider, method, amount_minor, currency, provider_payment_id, updated_at)
      VALUES (${randomUUID()}::uuid, ${event.orderId}::uuid, ${provider}, ${METHOD_OF[event.method]}::payment_method,
              ${event.amountMinor}, ${event.currency}, ${event.providerPaymentId}, now())
      RETURNING ${PAYMENT_COLUMNS}`;
}

/** A payment adopted by the event belongs to the provider's payment from here on, applied or not. */
export function adoptPayment(paymentId: string, providerPaymentId: string): Prisma.Sql {
  return Prisma.sql`
          UPDATE payments SET provider_payment_id = ${providerPaymentId}, updated_at = now()
          WHERE id = ${paymentId}::uuid`;
}

/** The event's state written on its payment; what was given back only ever grows. */
export function updatePayment(
  paymentId: string,
  status: PaymentStatus,
  event: StoredEvent,
  given: { refundedMinor: number; chargedBackMinor: number },
): Prisma.Sql {
  return Prisma.sql`
        UPDATE payments SET status = ${status}::payment_status, provider_version = ${event.version},
          failure_reason = ${event.failureReason},
          provider_payment_id = ${event.providerPaymentId},
          card_brand = COALESCE(${event.card?.brand ?? null}, card_brand),
          card_last4 = COALESCE(${event.card?.last4 ?? null}, card_last4),
          refunded_minor = GREATEST(refunded_minor, ${given.refundedMinor}::bigint),
          charged_back_minor = GREATEST(charged_back_minor, ${given.chargedBackMinor}::bigint),
          updated_at = now()
        WHERE id = ${paymentId}::uuid`;
}

/** Whether no payment of the order but `paymentId` may still bring its money. */
export function noOtherPaymentOpen(orderId: string, paymentId: string): Prisma.Sql {
  return Prisma.sql`SELECT ${noPaymentOpen(Prisma.sql`${orderId}::uuid`, Prisma.sql`${paymentId}::uuid`)} AS none`;
}

/** The event's mark, with the payment's change (`paymentUpdate`) when there is one: one statement. */
export function markProcessed(
  eventId: string,
  processedAt: Date,
  result: { outcome: string; paymentId: string | null },
  paymentUpdate: Prisma.Sql | null,
): Prisma.Sql {
  const processed = Prisma.sql`
            UPDATE payment_events SET processed_at = ${processedAt}, outcome = ${result.outcome},
              payment_id = ${result.paymentId}::uuid, attempts = attempts + 1, last_error = NULL
            WHERE id = ${eventId}::uuid`;
  return paymentUpdate ? Prisma.sql`WITH payment AS (${paymentUpdate}) ${processed}` : processed;
}

/** The wait after the n-th failure: EVENT_RETRY_BASE_S * 2^(n-1) seconds, at most EVENT_RETRY_MAX_S. */
const EVENT_RETRY_BASE_S = 5;
const EVENT_RETRY_MAX_S = 3_600;

/**
 * A failure of an event not processed yet: its error kept, its next attempt put off, and (past
 * `maxAttempts` failures counted) the event set aside as dead.
 */
export function markFailed(
  eventId: string,
  now: Date,
  failure: { counted: boolean; lastError: string; maxAttempts: number },
): Prisma.Sql {
  const counted = failure.counted ? 1 : 0;
  return Prisma.sql`
            UPDATE payment_events SET
              attempts = attempts + ${counted}, last_error = ${failure.lastError},
              next_attempt_at = ${now}::timestamptz
                + make_interval(secs => LEAST(${EVENT_RETRY_MAX_S}, ${EVENT_RETRY_BASE_S} * power(2, attempts))),
              dead_at = CASE WHEN attempts + ${counted} >= ${failure.maxAttempts} THEN ${now}::timestamptz END
            WHERE id = ${eventId}::uuid AND processed_at IS NULL AND dead_at IS NULL
            RETURNING dead_at IS NOT NULL AS dead, attempts`;
}
