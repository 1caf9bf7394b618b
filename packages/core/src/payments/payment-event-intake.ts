import { randomUUID } from 'node:crypto';
import { qb, type SqlClient } from '@store/db';
import type { JobQueue } from '../queue/job-queue.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';
import type { StoredEvent } from './payment-event-payload.ts';
import type { PaymentCallbackEvent, PaymentEventType, ProviderPayment, ProviderPaymentStatus } from './provider.ts';

/**
 * The intake of provider events: a verified callback (or the provider's own answer when the store
 * asks about a payment) is checked against the store's payment or order, stored under its unique
 * provider event id (a duplicate stores nothing) and handed to the queue as a `payment.event` job,
 * which the processor (payment-events.ts) applies.
 */

/** Why an event was set aside on arrival: it is kept, marked, and never applied. */
export type EventRejection = 'amount_mismatch' | 'currency_mismatch' | 'order_mismatch' | 'unknown_order';

/** Where a stored event came from. */
export type EventSource = 'callback' | 'poll';

export interface ReceivedEvent {
  /** The stored row; null when the event was a duplicate. */
  eventId: string | null;
  duplicate: boolean;
  rejection: EventRejection | null;
}

const EVENT_TYPE_OF: Record<ProviderPaymentStatus, PaymentEventType> = {
  init: 'payment.pending',
  pending: 'payment.pending',
  succeeded: 'payment.succeeded',
  failed: 'payment.failed',
  refunded: 'payment.refunded',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  sql: SqlClient;
  /** Where stored events are handed on; without it only the sweep hands them on. */
  queue?: Pick<JobQueue, 'enqueue'>;
  logger?: Logger;
  clock?: () => Date;
}

/** Storing events as they arrive, and handing them to the queue. */
export function createPaymentEventIntake({
  sql,
  queue,
  logger = silentLogger,
  clock = () => new Date(),
}: PaymentEventsDeps) {
  /**
   * The payment or order the event must match, and why it does not (null when it does): the
   * provider's payment when the store knows it; else one of the named order's payments opened at the
   * event's charge (a widget or hosted page payment is first known by its order); else the order. A
   * payment is matched on what it was charged (docs/currency.md): its rail's currency, not the order's.
   */
  function verdict(event: PaymentCallbackEvent) {
    const namedOrder = UUID.test(event.orderId) ? event.orderId : null;
    const charged = (rank: number) =>
      qb
        .selectFrom('payments')
        .select((eb) => [
          'order_id as orderId',
          eb.fn.coalesce('charge_minor', 'amount_minor').as('amountMinor'),
          eb.fn.coalesce('charge_currency', 'currency').as('currency'),
          eb.lit<number>(rank).as('rank'),
        ])
        .where('provider', '=', event.provider);
    const candidates = charged(1)
      .where('provider_payment_id', '=', event.providerPaymentId)
      .unionAll(
        charged(2)
          .where('order_id', '=', namedOrder)
          .where('charge_currency', '=', event.currency)
          .where('charge_minor', '=', event.amountMinor),
      )
      .unionAll(
        qb
          .selectFrom('orders')
          .select((eb) => ['id as orderId', 'total_minor as amountMinor', 'currency', eb.lit<number>(3).as('rank')])
          .where('id', '=', namedOrder),
      );
    return qb
      .selectFrom(qb.selectNoFrom((eb) => eb.lit(1).as('one')).as('one'))
      .leftJoin(
        (eb) =>
          eb
            .selectFrom(candidates.as('candidates'))
            .select(['orderId', 'amountMinor', 'currency'])
            .orderBy('rank')
            .limit(1)
            .as('e'),
        (join) => join.onTrue(),
      )
      .select((eb) => [
        'e.orderId',
        eb
          .case()
          .when('e.orderId', 'is', null)
          .then<EventRejection>('unknown_order')
          .when(eb.cast('e.orderId', 'text'), '<>', event.orderId)
          .then('order_mismatch')
          .when('e.currency', '<>', event.currency)
          .then('currency_mismatch')
          .when('e.amountMinor', '<>', event.amountMinor)
          .then('amount_mismatch')
          .end()
          .as('rejection'),
      ]);
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
    const [row] = await sql.query(
      qb
        .with('verdict', () => verdict(event))
        .insertInto('payment_events')
        .columns([
          'id',
          'provider',
          'provider_event_id',
          'type',
          'payload',
          'source',
          'provider_payment_id',
          'order_id',
          'version',
          'rejection',
          'processed_at',
        ])
        .expression((eb) =>
          eb.selectFrom('verdict as v').select((eb) => [
            eb.val(randomUUID()).as('id'),
            eb.val(event.provider).as('provider'),
            eb.val(event.eventId).as('provider_event_id'),
            eb.val(event.type).as('type'),
            eb.val(JSON.stringify({ ...stored, body: event.payload ?? null })).as('payload'),
            eb.val(source).as('source'),
            eb.val(event.providerPaymentId).as('provider_payment_id'),
            'v.orderId as order_id',
            eb.val(event.version).as('version'),
            'v.rejection',
            eb
              .case()
              .when('v.rejection', 'is', null)
              .then(null)
              .else(eb.cast<Date>(eb.val(clock()), 'timestamptz'))
              .end()
              .as('processed_at'),
          ]),
        )
        .onConflict((oc) => oc.columns(['provider', 'provider_event_id']).doNothing())
        .returning((eb) => ['id', eb.ref('rejection').$castTo<EventRejection | null>().as('rejection')]),
    );
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
