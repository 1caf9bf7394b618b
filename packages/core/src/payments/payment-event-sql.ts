import { randomUUID } from 'node:crypto';
import { type PaymentMethod, type PaymentStatus, prepare, prepareEach, qb, sql } from '@store/db';
import { orderColumns } from '../orders/order-sql.ts';
import { CHARGE_COLUMNS } from './charge-currency.ts';
import { openPayments } from './payment-deciding.ts';
import { METHOD_OF, type StoredEvent } from './payment-event-payload.ts';
import type { ProviderPaymentMethod } from './provider.ts';
import type { RowOf } from './typed-sql.ts';

/**
 * The SQL of applying a provider event (payment-events.ts): the one statement that locks and reads
 * what it takes, the payment's writes, and the event's own mark, processed or failed.
 */

/**
 * The payment row an event is about, as the processor reads it; `refundedMinor` and
 * `chargedBackMinor`: what of it the store has reversed, refunds and chargebacks.
 */
const paymentColumns = [
  'id',
  'order_id as orderId',
  'status',
  'amount_minor as amountMinor',
  'currency',
  'charge_minor as chargeMinor',
  'charge_currency as chargeCurrency',
  'provider_payment_id as providerPaymentId',
  'provider_version as providerVersion',
  'refunded_minor as refundedMinor',
  'charged_back_minor as chargedBackMinor',
] as const;

/** METHOD_OF's pairs: the provider's name of a method, and the store's. */
const METHOD_PAIRS = Object.entries(METHOD_OF) as [
  [ProviderPaymentMethod, PaymentMethod],
  ...Array<[ProviderPaymentMethod, PaymentMethod]>,
];

const paymentRow = () => qb.selectFrom('payments').select(paymentColumns);
export type PaymentRow = RowOf<ReturnType<typeof paymentRow>>;

/**
 * Locks and reads, in one statement, what applying an event takes: the event's row, then (unless it
 * is processed) its order's, as every path that moves an order's money takes it first (two events of
 * one payment queue here), then the payment it is about. The payment is looked for only once the
 * order is locked (the EXISTS is checked before any payment row is read): known by the provider's
 * id, else the newest of the order's payments of the event's method still waiting for its id, each
 * looked up by its own index. The row answers the event's columns, the order's (null when the event
 * is processed, or its order is gone) and the payment, locked, as `payment` (null when none matches).
 */
export function lockEvent(eventId: string) {
  return lockEventStatement({ eventId });
}

const lockEventStatement = prepare(({ eventId }: { eventId: string }) =>
  qb
    .with('event', (db) =>
      db
        .selectFrom('payment_events')
        .select([
          'id',
          'provider',
          'provider_payment_id',
          'payload',
          'order_id',
          'received_at',
          'processed_at',
          'dead_at',
        ])
        .where('id', '=', eventId)
        .forUpdate(),
    )
    .with('locked', (db) =>
      db
        .selectFrom('orders')
        .select(orderColumns)
        .where('id', '=', (eb) =>
          eb.selectFrom('event').select('order_id').where('processed_at', 'is', null).where('dead_at', 'is', null),
        )
        .forNoKeyUpdate(),
    )
    .with('payment', (db) =>
      db
        .selectFrom('payments')
        .select(paymentColumns)
        .where((eb) => eb.exists(eb.selectFrom('locked').select((eb) => eb.lit(1).as('one'))))
        .where('id', '=', (eb) =>
          eb
            .selectFrom(
              eb
                .selectFrom(['payments as p', 'event as e'])
                .select((eb) => ['p.id', eb.lit<number>(1).as('rank'), 'p.created_at'])
                .whereRef('p.provider', '=', 'e.provider')
                .whereRef('p.provider_payment_id', '=', 'e.provider_payment_id')
                .unionAll(
                  eb
                    .selectFrom('payments as p')
                    .select((eb) => ['p.id', eb.lit<number>(2).as('rank'), 'p.created_at'])
                    .where('p.order_id', '=', (eb) => eb.selectFrom('locked').select('id'))
                    .where('p.provider', '=', (eb) => eb.selectFrom('event').select('provider'))
                    // The payment's method as the provider's events name it (METHOD_OF read backwards):
                    // the event's, in its payload.
                    .where((eb) => {
                      const [[name, method], ...others] = METHOD_PAIRS;
                      const named = others.reduce(
                        (cases, [name, method]) => cases.when(method).then(name),
                        eb.case('p.method').when(method).then(name),
                      );
                      return eb(
                        named.end(),
                        '=',
                        eb
                          .selectFrom('event')
                          .select((eb) =>
                            eb
                              .fn<ProviderPaymentMethod>('jsonb_extract_path_text', ['payload', eb.val('method')])
                              .as('method'),
                          ),
                      );
                    })
                    .where('p.provider_payment_id', 'is', null)
                    .where('p.status', '=', 'INIT'),
                )
                .as('candidates'),
            )
            .select('id')
            .orderBy('rank')
            .orderBy('created_at', 'desc')
            .limit(1),
        )
        // Checked again on the locked row: one that changed while this waited is not taken.
        .where((eb) =>
          eb.or([
            eb('provider_payment_id', '=', eb.selectFrom('event').select('provider_payment_id')),
            eb.and([eb('provider_payment_id', 'is', null), eb('status', '=', 'INIT')]),
          ]),
        )
        .forNoKeyUpdate(),
    )
    .selectFrom('event as e')
    .leftJoin('locked as o', (join) => join.onTrue())
    .select([
      'e.id as eventId',
      'e.provider',
      'e.payload',
      'e.order_id as eventOrderId',
      'e.received_at as receivedAt',
      'e.processed_at as processedAt',
      'e.dead_at as deadAt',
    ])
    .selectAll('o')
    .select((eb) =>
      eb
        .selectFrom('payment as p')
        .select((eb) => eb.fn<PaymentRow>('to_jsonb', [eb.table('p')]).as('payment'))
        .as('payment'),
    ),
);

/**
 * A new payment row for one the store never started (the widget retried inside its frame). Charged in
 * another currency than the order's, it stands for the BRL amount of the order's payment opened at
 * that charge (the same request, paid again), whose rate it keeps; without one, it is recorded as
 * charged, and the processor finds it does not match.
 */
export function insertPayment(provider: string, event: StoredEvent) {
  const id = randomUUID();
  return qb
    .insertInto('payments')
    .columns([
      'id',
      'order_id',
      'provider',
      'method',
      'amount_minor',
      'currency',
      ...CHARGE_COLUMNS,
      'provider_payment_id',
      'updated_at',
    ])
    .expression(
      qb
        .selectFrom(qb.selectNoFrom((eb) => eb.lit(1).as('one')).as('one'))
        .leftJoin(
          (eb) =>
            eb
              .selectFrom('payments')
              .select(['amount_minor', 'currency', 'charge_rate', 'charge_rate_set_at', 'charge_locked_at'])
              .where('order_id', '=', event.orderId)
              .where('provider', '=', provider)
              .where('charge_currency', '=', event.currency)
              .where('charge_minor', '=', event.amountMinor)
              .orderBy('created_at', 'desc')
              .limit(1)
              .as('opened'),
          (join) => join.onTrue(),
        )
        .select((eb) => [
          eb.val(id).as('id'),
          eb.val(event.orderId).as('order_id'),
          eb.val(provider).as('provider'),
          eb.val(METHOD_OF[event.method]).as('method'),
          eb.fn.coalesce('opened.amount_minor', eb.val(event.amountMinor)).as('amount_minor'),
          eb.fn.coalesce('opened.currency', eb.val(event.currency)).as('currency'),
          eb.case().when('opened.amount_minor', 'is not', null).then(event.amountMinor).end().as('charge_minor'),
          eb.case().when('opened.amount_minor', 'is not', null).then(event.currency).end().as('charge_currency'),
          'opened.charge_rate',
          'opened.charge_rate_set_at',
          'opened.charge_locked_at',
          eb.val(event.providerPaymentId).as('provider_payment_id'),
          eb.fn<Date>('now').as('updated_at'),
        ]),
    )
    .returning(paymentColumns);
}

/** A payment adopted by the event belongs to the provider's payment from here on, applied or not. */
export function adoptPayment(paymentId: string, providerPaymentId: string) {
  return { kind: 'adopt', paymentId, providerPaymentId } as const;
}

/** The event's state written on its payment; what was given back only ever grows. */
export function updatePayment(
  paymentId: string,
  status: PaymentStatus,
  event: StoredEvent,
  given: { refundedMinor: number; chargedBackMinor: number },
) {
  return {
    kind: 'update',
    paymentId,
    status,
    providerVersion: event.version,
    failureReason: event.failureReason,
    providerPaymentId: event.providerPaymentId,
    cardBrand: event.card?.brand ?? null,
    cardLast4: event.card?.last4 ?? null,
    refundedMinor: given.refundedMinor,
    chargedBackMinor: given.chargedBackMinor,
  } as const;
}

/** A change of the event's payment, written with the event's mark (adoptPayment, updatePayment). */
export type PaymentUpdate = ReturnType<typeof adoptPayment> | ReturnType<typeof updatePayment>;

/** Whether no payment of the order but `paymentId` may still bring its money (payment-deciding.ts). */
export function noOtherPaymentOpen(orderId: string, paymentId: string) {
  return noOtherPaymentOpenStatement({ orderId, paymentId });
}

const noOtherPaymentOpenStatement = prepare((a: { orderId: string; paymentId: string }) =>
  qb.selectNoFrom((eb) => eb.not(eb.exists(openPayments(a.orderId, a.paymentId))).as('none')),
);

type Mark = {
  eventId: string;
  processedAt: Date;
  outcome: string;
  resultPaymentId: string | null;
};
type AdoptChange = Omit<ReturnType<typeof adoptPayment>, 'kind'>;
type UpdateChange = Omit<ReturnType<typeof updatePayment>, 'kind'>;

/**
 * The event's mark, and with it (as a CTE, `payment`) the change of its payment when there is one:
 * a statement prepared for each of the three shapes. The payment's values are typed by the columns
 * they fill; the given-back amounts are compared as bigint.
 */
const markStatement = prepareEach(
  (kind: PaymentUpdate['kind'] | 'none', a: Mark & Partial<AdoptChange & UpdateChange>) => {
    const change = a as Mark & AdoptChange & UpdateChange;
    const adopt = qb
      .updateTable('payments')
      .set((eb) => ({ provider_payment_id: change.providerPaymentId, updated_at: eb.fn<Date>('now') }))
      .where('id', '=', change.paymentId);
    const update = qb
      .updateTable('payments')
      .set((eb) => ({
        status: change.status,
        provider_version: change.providerVersion,
        failure_reason: change.failureReason,
        provider_payment_id: change.providerPaymentId,
        card_brand: eb.fn.coalesce(eb.val(change.cardBrand), 'card_brand'),
        card_last4: eb.fn.coalesce(eb.val(change.cardLast4), 'card_last4'),
        refunded_minor: eb.fn('greatest', ['refunded_minor', eb.cast<number>(eb.val(change.refundedMinor), 'bigint')]),
        charged_back_minor: eb.fn('greatest', [
          'charged_back_minor',
          eb.cast<number>(eb.val(change.chargedBackMinor), 'bigint'),
        ]),
        updated_at: eb.fn<Date>('now'),
      }))
      .where('id', '=', change.paymentId);
    const mark = (db: Pick<typeof qb, 'updateTable'>) =>
      db
        .updateTable('payment_events')
        .set((eb) => ({
          processed_at: a.processedAt,
          outcome: a.outcome,
          payment_id: a.resultPaymentId,
          attempts: eb('attempts', '+', eb.lit(1)),
          last_error: null,
        }))
        .where('id', '=', a.eventId);
    if (kind === 'adopt') return mark(qb.with('payment', () => adopt));
    if (kind === 'update') return mark(qb.with('payment', () => update));
    return mark(qb);
  },
);

/** The event's mark, with the payment's change (`paymentUpdate`) when there is one: one statement. */
export function markProcessed(
  eventId: string,
  processedAt: Date,
  result: { outcome: string; paymentId: string | null },
  paymentUpdate: PaymentUpdate | null,
) {
  const mark: Mark = { eventId, processedAt, outcome: result.outcome, resultPaymentId: result.paymentId };
  if (!paymentUpdate) return markStatement('none', mark);
  const { kind, ...change } = paymentUpdate;
  return markStatement(kind, { ...mark, ...change });
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
) {
  const counted = failure.counted ? 1 : 0;
  return qb
    .updateTable('payment_events')
    .set((eb) => {
      const at = eb.cast<Date>(eb.val(now), 'timestamptz');
      const waitS = eb.fn('least', [
        eb.val(EVENT_RETRY_MAX_S),
        eb(eb.val(EVENT_RETRY_BASE_S), '*', eb.fn<number>('power', [eb.lit(2), 'attempts'])),
      ]);
      // Typed as the time it is added to, since Kysely types both sides of an addition alike.
      const wait = sql<Date>`make_interval(secs => ${waitS})`;
      return {
        attempts: eb('attempts', '+', counted),
        last_error: failure.lastError,
        next_attempt_at: eb(at, '+', wait),
        dead_at: eb
          .case()
          .when(eb('attempts', '+', counted), '>=', failure.maxAttempts)
          .then(at)
          .end(),
      };
    })
    .where('id', '=', eventId)
    .where('processed_at', 'is', null)
    .where('dead_at', 'is', null)
    .returning((eb) => [eb('dead_at', 'is not', null).as('dead'), 'attempts']);
}
