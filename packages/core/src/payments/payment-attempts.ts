import { createHash, randomUUID } from 'node:crypto';
import { ErrorKeys, PAYMENT_UNDER_WAY } from '@store/contract';
import {
  type PaymentMethod,
  type PaymentStatus,
  type PrismaClient,
  type Queryable,
  qb,
  type SqlClient,
} from '@store/db';
import { plainDecimal } from '../display/display-rates.ts';
import { actors } from '../orders/order-events.ts';
import { type LockedOrder, lockOrder } from '../orders/order-sql.ts';
import { PAID_STATUSES, transitionUpdate, UNPAID_STATUSES } from '../orders/order-state.ts';
import { ConflictError, ValidationError } from '../shared/errors.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';
import { CHARGE_COLUMNS, type LockedCharge } from './charge-currency.ts';
import { settlingPayments } from './payment-deciding.ts';
import { type ReceiptSource, receiptSource } from './payment-receipts.ts';
import type { CardOutcome, PaymentProvider } from './provider.ts';

/**
 * Payment attempts: the store's record of each attempt at paying an order, opened under the order's
 * lock, and what the provider answered to it. One order is charged once: while a payment of it has
 * succeeded or is being decided, a new attempt is refused.
 */

/**
 * A payment of the order has succeeded or is being decided: a new attempt would charge it twice. A
 * 409 with PAYMENT_UNDER_WAY, which the web app answers with "paid, processing" and the order's status.
 */
export class PaymentUnderWayError extends ConflictError {
  constructor() {
    super(
      'A payment of this order has succeeded or is still being decided: wait for it rather than paying again.',
      PAYMENT_UNDER_WAY,
    );
  }
}

/** The provider's field names in a refusal, as the store's calls name them. */
const BODY_FIELD: Record<string, string> = {
  'card.number': 'card_number',
  'card.expMonth': 'month',
  'card.expYear': 'year',
  'card.cvc': 'cvc',
  successUrl: 'success_url',
  declineUrl: 'decline_url',
  cancelUrl: 'cancel_url',
  'payer.personalId': 'personalId',
  'payer.firstName': 'firstName',
  'customer.firstName': 'FirstName',
  'customer.accountNumber': 'AccountNumber',
  'customer.email': 'email',
  'customer.phone': 'phone',
  'customer.zip': 'zip',
  'customer.address': 'address',
};

/** The methods an attempt's token can name. */
const ATTEMPT_METHODS: PaymentMethod[] = ['CARD', 'WIDGET', 'HOSTED_PAGE', 'QR', 'UPI'];

/**
 * The store's payment id of an attempt the browser named with its token: the same order, method and
 * token always give the same id, which is the provider's idempotency key, so a repeated request
 * reaches the same provider payment. Shaped as a UUID (version 8, "custom").
 */
export function attemptPaymentId(orderId: string, method: PaymentMethod, token: string): string {
  return uuidOf(`${orderId}:${method}:${token}`);
}

/**
 * The id of the top-up a payment attempt makes when it names a value and no order: the same customer
 * and token always give the same order, so a repeated request tops up once.
 */
export function attemptTopUpId(userId: string, token: string): string {
  return uuidOf(`top-up:${userId}:${token}`);
}

/** A UUID (version 8, "custom") made from `text`'s SHA-256. */
function uuidOf(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The order cannot be paid (any more): a 422 on its id. */
export function notPayable(message = 'This order can no longer be paid.'): ValidationError {
  return new ValidationError({ orderId: [ErrorKeys.orderNotPayable] }, message);
}

export interface PaymentAttemptsDeps {
  db: PrismaClient;
  sql: SqlClient;
  logger?: Logger;
  clock?: () => Date;
}

/** Opening attempts, and recording what the provider answered to them. */
export function createPaymentAttempts({
  db,
  sql,
  logger = silentLogger,
  clock = () => new Date(),
}: PaymentAttemptsDeps) {
  return {
    /** An order paid already is a 409 (paid, processing: the client follows its status); one that ended unpaid a 422. */
    assertPayable(order: LockedOrder) {
      if (PAID_STATUSES.includes(order.status)) throw new PaymentUnderWayError();
      const expired = order.expiresAt !== null && order.expiresAt <= clock();
      if (!UNPAID_STATUSES.includes(order.status) || expired || order.totalMinor <= 0) throw notPayable();
    },

    async isKnownAttempt(orderId: string, token: string): Promise<boolean> {
      const ids = ATTEMPT_METHODS.map((method) => attemptPaymentId(orderId, method, token));
      return (await db.payment.count({ where: { id: { in: ids }, orderId } })) > 0;
    },

    /**
     * The store's record of an attempt, made under the order's lock (the order is then PENDING). With
     * a token, the same attempt again finds its record. While another payment of the order has
     * succeeded or is being decided (payment-deciding.ts), a new attempt is refused with
     * PaymentUnderWayError: one order is charged once. A new record comes with what a receipt needs:
     * the customer's email and the order's lines.
     */
    async openPayment(
      order: LockedOrder,
      method: PaymentMethod,
      charge: LockedCharge,
      /** The provider that serves the method: its name is kept with the payment. */
      provider: Pick<PaymentProvider, 'name'>,
      token?: string,
    ): Promise<{ id: string; receipt?: ReceiptSource; charge: LockedCharge }> {
      const id = token ? attemptPaymentId(order.id, method, token) : randomUUID();
      // Under the order's lock, while it waits for its payment: the record, the order's move to
      // PENDING (its state machine's statement) and the receipt's source, in one statement.
      const statement = qb
        .with('target', (db) =>
          db
            .selectFrom('orders')
            .select(['id', 'user_id', 'status', 'total_minor', 'currency'])
            .where('id', '=', order.id)
            .forNoKeyUpdate(),
        )
        .with('under_way', (db) =>
          db.selectNoFrom((eb) => eb.exists(settlingPayments(order.id, clock())).as('settling')),
        )
        .with('opened', (db) =>
          db
            .insertInto('payments')
            .columns([
              'id',
              'order_id',
              'provider',
              'method',
              'amount_minor',
              'currency',
              ...CHARGE_COLUMNS,
              'updated_at',
            ])
            .expression((eb) =>
              eb
                .selectFrom(['target as t', 'under_way as u'])
                .select((eb) => [
                  eb.val(id).as('id'),
                  't.id as order_id',
                  eb.val(provider.name).as('provider'),
                  eb.val(method).as('method'),
                  't.total_minor as amount_minor',
                  't.currency',
                  eb.val(charge.chargeMinor).as('charge_minor'),
                  eb.val(charge.currency).as('charge_currency'),
                  eb.val(charge.rate).as('charge_rate'),
                  eb.cast<Date | null>(eb.val(charge.rateSetAt), 'timestamptz').as('charge_rate_set_at'),
                  eb.cast<Date>(eb.val(charge.lockedAt), 'timestamptz').as('charge_locked_at'),
                  eb.fn<Date>('now').as('updated_at'),
                ])
                .where('t.status', 'in', UNPAID_STATUSES)
                .where((eb) => eb.not(eb.ref('u.settling'))),
            )
            .returning('id'),
        )
        .with('moved', () => transitionUpdate([order.id], 'PENDING', { actor: actors.customer }))
        .selectFrom((eb) =>
          receiptSource(order.id, eb.selectFrom('target').select('user_id').$asScalar()).as('receipt'),
        )
        // The target's row is there whenever the customer's is: its one status, and under_way's one row.
        .select((eb) => [
          eb.exists(eb.selectFrom('opened').select((eb) => eb.lit(1).as('one'))).as('opened'),
          eb.selectFrom('under_way').select('settling').$asScalar().$notNull().as('settling'),
          eb.selectFrom('target').select('status').$asScalar().$notNull().as('status'),
        ])
        .selectAll('receipt');
      const open = async (on: Queryable) => {
        const [opened] = await on.query(statement);
        if (opened?.settling || (opened && PAID_STATUSES.includes(opened.status))) throw new PaymentUnderWayError();
        if (!opened?.opened) throw notPayable();
        return { id, receipt: { email: opened.email, locale: opened.locale, lines: opened.lines }, charge };
      };
      // A widget, hosted page or QR attempt is one statement: it charges nothing by itself (the
      // customer pays in the provider's page), so its look at the order's payments as the statement
      // began is enough, and should a payment slip through anyway, its second charge goes back to its
      // card. A card attempt is the charge itself: it takes the order's lock first, so that its look
      // sees every attempt made before it (a double click's second request waits here, then is
      // refused). A repeated attempt (its token) finds its own record under the lock too.
      if (!token && method !== 'CARD') return open(sql);
      return sql.transaction(async (tx) => {
        const locked = await lockOrder(tx, order.id);
        if (token) {
          // The attempt again: charged as it was first, whatever the rate says now.
          const [existing] = await tx.query(
            qb
              .selectFrom('payments')
              .select((eb) => [
                'id',
                eb.fn.coalesce('charge_minor', 'amount_minor').as('chargeMinor'),
                eb.fn.coalesce('charge_currency', 'currency').as('currency'),
                eb.cast<string | null>('charge_rate', 'text').as('rate'),
                'charge_rate_set_at as rateSetAt',
                eb.fn.coalesce('charge_locked_at', 'created_at').as('lockedAt'),
              ])
              .where('id', '=', id),
          );
          if (existing) {
            const { id: existingId, rate, ...kept } = existing;
            return { id: existingId, charge: { ...kept, rate: rate ? plainDecimal(rate) : '1' } };
          }
        }
        if (locked && PAID_STATUSES.includes(locked.status)) throw new PaymentUnderWayError();
        if (!locked || !UNPAID_STATUSES.includes(locked.status)) throw notPayable();
        return open(tx);
      });
    },

    /**
     * The provider's id of an attempt, once it answered, and what its answer says: a card charged or
     * waiting for 3-D Secure is being decided (PENDING: no new attempt starts; its callback, not this
     * answer, pays the order), a card declined has failed. A callback that came first may have written
     * the id, and moved the payment on: its status is left as the callback made it.
     */
    async recordProviderPayment(
      paymentId: string,
      providerPaymentId: string,
      card?: { brand: string; last4: string },
      answer?: CardOutcome,
    ) {
      // One statement: the id and the status change together, so that no other attempt ever sees the
      // payment known to the provider yet still waiting for its answer (which would let it through).
      const answered: PaymentStatus | null = answer ? (answer.status === 'failure' ? 'FAILED' : 'PENDING') : null;
      const reason = answer?.status === 'failure' ? answer.reason : null;
      const count = await sql.execute(
        qb
          .updateTable('payments')
          .set((eb) => {
            // The answer as text: a parameter is typed by its column, and a bare one is not.
            const answeredText = eb.cast<string | null>(eb.val(answered), 'text');
            const unanswered = [eb('status', '=', 'INIT'), eb('provider_version', '=', 0)];
            return {
              provider_payment_id: providerPaymentId,
              card_brand: eb.fn.coalesce(eb.val(card ? card.brand.slice(0, 32) : null), 'card_brand'),
              card_last4: eb.fn.coalesce(eb.val(card?.last4 ?? null), 'card_last4'),
              status: eb
                .case()
                .when(eb.and([eb(answeredText, 'is not', null), ...unanswered]))
                .then(answered)
                .else(eb.ref('status'))
                .end()
                // The answer when there is one, else the status as it is: never null.
                .$notNull(),
              failure_reason: eb
                .case()
                .when(eb.and([eb(answeredText, '=', 'FAILED'), ...unanswered]))
                .then(reason)
                .else(eb.ref('failure_reason'))
                .end(),
              updated_at: eb.fn<Date>('now'),
            };
          })
          .where('id', '=', paymentId)
          .where((eb) =>
            eb.or([eb('provider_payment_id', 'is', null), eb('provider_payment_id', '=', providerPaymentId)]),
          ),
      );
      if (count === 0) {
        logger.warn({ paymentId, providerPaymentId }, 'payment already belongs to another provider payment');
      }
    },

    /** A refusal by the provider names the fields of the store's own call. */
    async refusedAttempt<T>(paymentId: string, start: () => Promise<T>): Promise<T> {
      try {
        return await start();
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        // The provider made no payment: the attempt is over before it began.
        await db.payment.updateMany({
          where: { id: paymentId, providerPaymentId: null, status: 'INIT' },
          data: { status: 'FAILED', failureReason: 'refused_by_provider' },
        });
        const errors = Object.fromEntries(
          Object.entries(error.errors).map(([field, keys]) => [BODY_FIELD[field] ?? field, keys]),
        );
        throw new ValidationError(errors, error.message);
      }
    },
  };
}

export type PaymentAttempts = ReturnType<typeof createPaymentAttempts>;
