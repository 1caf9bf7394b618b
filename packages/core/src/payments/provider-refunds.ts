import { randomUUID } from 'node:crypto';
import { type Queryable, qb, type SqlClient } from '@store/db';
import { accounts, ledgerKeys, transfer } from '../ledger/ledger-service.ts';
import { actors } from '../orders/order-events.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';
import { toChargeMinor } from './charge-currency.ts';
import type { PaymentProvider, ProviderPayment } from './provider.ts';
import { type ProvidersByName, providersOf } from './provider-registry.ts';

type RefundingProvider = Pick<PaymentProvider, 'name' | 'refund' | 'getPayment'>;

/**
 * Refunds the store asks of the provider, to the card or account a payment came from. Asking is a
 * row (`provider_refunds`), written under its idempotency key in the transaction that decides it,
 * so the refund is asked for once and never lost; a `payment.refund` job then sends it, with the
 * row's id as the provider's idempotency key, so a retried send refunds once. Nothing moves in the
 * books here: once the provider has given the money back, its word on the payment (asked for at
 * once, and its callback) goes through the one event path, whose reversal takes the money out of
 * suspense, the goods or the balance (payment-reversal.ts).
 */

/** Why the store gives a payment back. */
export type ProviderRefundReason = 'second_charge' | 'late_payment' | 'operator';

export interface ProviderRefundRequest {
  orderId: string;
  paymentId: string;
  amountMinor: number;
  reason: ProviderRefundReason;
  /** `system`, or `operator:<name>`. */
  requestedBy: string;
  /** The same key asks once, however often it is asked. */
  key: string;
}

/**
 * Records a refund to ask of the provider inside `tx`, once per key. Answers the row's id, and
 * whether it was made now (a key asked before answers the first row's id).
 */
export async function requestProviderRefund(
  tx: Queryable,
  request: ProviderRefundRequest,
): Promise<{ id: string; created: boolean }> {
  if (!Number.isSafeInteger(request.amountMinor) || request.amountMinor <= 0) {
    throw new RangeError(`a refund is a positive whole number of minor units, not ${request.amountMinor}`);
  }
  const [row] = await tx.query(
    qb
      .with('made', (db) =>
        db
          .insertInto('provider_refunds')
          .values((eb) => ({
            id: randomUUID(),
            order_id: request.orderId,
            payment_id: request.paymentId,
            amount_minor: request.amountMinor,
            reason: request.reason,
            requested_by: request.requestedBy,
            idempotency_key: request.key,
            updated_at: eb.fn<Date>('now'),
          }))
          .onConflict((oc) => oc.column('idempotency_key').doNothing())
          .returning('id'),
      )
      .with('history', (db) =>
        db
          .insertInto('order_events')
          .columns(['order_id', 'actor', 'kind', 'amount_minor', 'payment_id', 'detail'])
          .expression((eb) =>
            eb.selectFrom('made').select((eb) => {
              // jsonb_build_object's text: a parameter there is typed by nothing else.
              const text = (value: string) => eb.cast<string>(eb.val(value), 'text');
              return [
                eb.val(request.orderId).as('order_id'),
                eb.val(request.requestedBy).as('actor'),
                eb.val('refund_asked').as('kind'),
                eb.val(request.amountMinor).as('amount_minor'),
                eb.val(request.paymentId).as('payment_id'),
                eb
                  .fn('jsonb_build_object', [text('refundId'), 'made.id', text('reason'), text(request.reason)])
                  .as('detail'),
              ];
            }),
          ),
      )
      .selectFrom('made')
      .select((eb) => ['id', eb.lit<boolean>(true).as('created')])
      .unionAll((eb) =>
        eb
          .selectFrom('provider_refunds')
          .select((eb) => ['id', eb.lit<boolean>(false).as('created')])
          .where('idempotency_key', '=', request.key)
          .where((eb) => eb.not(eb.exists(eb.selectFrom('made').select((eb) => eb.lit(1).as('one'))))),
      ),
  );
  if (!row) throw new Error(`the refund ${request.key} was neither made nor found`);
  return row;
}

/**
 * A payment that bought nothing (a second charge of an order paid already) goes back where it came
 * from, inside the caller's transaction: its money is put on the books in suspense, and the refund of
 * all of it is asked of the provider. Answers the refund's id, to enqueue after the commit.
 */
export async function returnToPayer(
  tx: Queryable,
  payment: { id: string; provider: string; orderId: string; amountMinor: number },
  reason: ProviderRefundReason,
): Promise<{ id: string; created: boolean }> {
  await transfer(tx, {
    key: ledgerKeys.unapplied(payment.id),
    kind: 'UNAPPLIED',
    from: accounts.clearing(payment.provider),
    to: accounts.suspense,
    amountMinor: payment.amountMinor,
    orderId: payment.orderId,
    paymentId: payment.id,
  });
  const refund = await requestProviderRefund(tx, {
    orderId: payment.orderId,
    paymentId: payment.id,
    amountMinor: payment.amountMinor,
    reason,
    requestedBy: 'system',
    key: `return:${payment.id}`,
  });
  return refund;
}

/** Hands a refund just asked for to the queue; the payment sweep sends it should this not reach it. */
export async function enqueueProviderRefund(
  queue: Pick<JobQueue, 'enqueue'>,
  refundId: string,
  logger: Logger,
): Promise<void> {
  try {
    await queue.enqueue({ kind: 'payment.refund', refundId }, { jobId: refundId });
  } catch (error) {
    logger.warn({ err: error, refundId }, 'refund job not enqueued; the payment sweep sends it later');
  }
}

/** A refund is sent this many times at most before it is given up for an operator to look at. */
export const PROVIDER_REFUND_ATTEMPTS = 8;
const LAST_ERROR_MAX = 500;

/** How long a refund waits before it is sent again after the provider could not be reached. */
export function refundRetryDelayMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

export type RefundSendOutcome = 'succeeded' | 'refused' | 'retry_later' | 'given_up' | 'already_finished';

export interface ProviderRefundsDeps {
  sql: SqlClient;
  /** Each refund goes to the provider of its payment, by the name stored with it. */
  providers?: ProvidersByName<RefundingProvider>;
  /** One provider for every payment (tests). */
  provider?: RefundingProvider;
  /** Where the provider's word on the refunded payment goes (the event intake), to be applied at once. */
  intake?: { receiveProviderPayment(provider: string, payment: ProviderPayment): Promise<unknown> };
  logger?: Logger;
  clock?: () => Date;
  maxAttempts?: number;
}

/** Sending the refunds the store asked for. */
export function createProviderRefunds({
  sql,
  intake,
  logger = silentLogger,
  clock = () => new Date(),
  maxAttempts = PROVIDER_REFUND_ATTEMPTS,
  ...given
}: ProviderRefundsDeps) {
  const lookup = providersOf(given);
  /** Ends the refund, and says so in its order's history: one statement. */
  async function finish(
    id: string,
    status: 'SUCCEEDED' | 'FAILED',
    changes: { providerRefundId?: string; error?: string },
    providerName: string,
  ) {
    const error = changes.error?.slice(0, LAST_ERROR_MAX) ?? null;
    await sql.execute(
      qb
        .with('finished', (db) =>
          db
            .updateTable('provider_refunds')
            .set((eb) => ({
              status,
              attempts: eb('attempts', '+', eb.lit(1)),
              provider_refund_id: eb.fn.coalesce(eb.val(changes.providerRefundId ?? null), 'provider_refund_id'),
              last_error: error,
              finished_at: clock(),
              updated_at: eb.fn<Date>('now'),
            }))
            .where('id', '=', id)
            .where('status', '=', 'PENDING')
            .returning(['order_id', 'payment_id', 'amount_minor', 'provider_refund_id']),
        )
        .insertInto('order_events')
        .columns(['order_id', 'actor', 'kind', 'amount_minor', 'payment_id', 'detail'])
        .expression((eb) =>
          eb.selectFrom('finished').select((eb) => {
            // jsonb_build_object's text: a parameter there is typed by nothing else.
            const text = (value: string | null) => eb.cast<string | null>(eb.val(value), 'text');
            return [
              'order_id',
              eb.val(actors.provider(providerName)).as('actor'),
              eb.val(status === 'SUCCEEDED' ? 'refund_sent' : 'refund_refused').as('kind'),
              'amount_minor',
              'payment_id',
              eb
                .fn('jsonb_strip_nulls', [
                  eb.fn('jsonb_build_object', [
                    text('refundId'),
                    text(id),
                    text('providerRefundId'),
                    'provider_refund_id',
                    text('error'),
                    text(error),
                  ]),
                ])
                .as('detail'),
            ];
          }),
        ),
    );
  }

  /**
   * A refund row's BRL amount in the currency the payment was charged in (the books are in BRL; the
   * provider gives back what it took). By the payment's proportion, half up; a refund of all that is
   * left of the payment asks for all that is left at the provider, so that rounding never strands a
   * few kopeks or paise there.
   */
  async function inChargeCurrency(
    refund: {
      amountMinor: number;
      paymentMinor: number;
      chargeMinor: number | null;
      paymentRefundedMinor: number;
      paymentChargedBackMinor: number;
    },
    provider: RefundingProvider,
    providerPaymentId: string,
  ): Promise<number> {
    const payment = { amountMinor: refund.paymentMinor, chargeMinor: refund.chargeMinor ?? refund.paymentMinor };
    if (payment.chargeMinor === payment.amountMinor) return refund.amountMinor;
    const leftMinor = payment.amountMinor - refund.paymentRefundedMinor - refund.paymentChargedBackMinor;
    if (refund.amountMinor < leftMinor) return toChargeMinor(refund.amountMinor, payment);
    const atProvider = await provider.getPayment(providerPaymentId);
    return Math.max(1, atProvider.amountMinor - atProvider.refundedMinor - atProvider.chargedBackMinor);
  }

  /** A refund that could not be sent now: due again later, or given up after `maxAttempts`. */
  async function retryLater(
    refundId: string,
    refund: { attempts: number; provider: string },
    context: Record<string, unknown>,
    message: string,
    error?: unknown,
  ): Promise<RefundSendOutcome> {
    const err = error ?? message;
    if (refund.attempts + 1 >= maxAttempts) {
      await finish(refundId, 'FAILED', { error: message }, refund.provider);
      logger.error({ ...context, err }, 'a refund to the card was given up after every attempt');
      return 'given_up';
    }
    await sql.execute(
      qb
        .updateTable('provider_refunds')
        .set((eb) => ({
          attempts: eb('attempts', '+', eb.lit(1)),
          last_error: message.slice(0, LAST_ERROR_MAX),
          next_attempt_at: new Date(clock().getTime() + refundRetryDelayMs(refund.attempts + 1)),
          updated_at: eb.fn<Date>('now'),
        }))
        .where('id', '=', refundId)
        .where('status', '=', 'PENDING'),
    );
    logger.warn({ ...context, err }, 'the provider could not take a refund now; it is sent again later');
    return 'retry_later';
  }

  return {
    /**
     * The `payment.refund` job: sends one refund to the provider, unless it is finished or not due.
     * A refusal (the provider says the payment cannot be refunded so) ends it FAILED for an operator;
     * a provider that cannot be reached leaves it PENDING until its next attempt, at most
     * `maxAttempts` times. Safe to run any number of times: the provider refunds once per row.
     */
    async sendRefund(refundId: string): Promise<RefundSendOutcome> {
      const [refund] = await sql.query(
        qb
          .selectFrom('provider_refunds as r')
          .innerJoin('payments as p', 'p.id', 'r.payment_id')
          .select([
            'r.id',
            'r.order_id as orderId',
            'r.amount_minor as amountMinor',
            'r.status',
            'r.attempts',
            'r.next_attempt_at as nextAttemptAt',
            'p.provider',
            'p.provider_payment_id as providerPaymentId',
            'p.amount_minor as paymentMinor',
            'p.charge_minor as chargeMinor',
            'p.refunded_minor as paymentRefundedMinor',
            'p.charged_back_minor as paymentChargedBackMinor',
          ])
          .where('r.id', '=', refundId),
      );
      if (!refund) throw new NotFoundError('Refund');
      if (refund.status !== 'PENDING') return 'already_finished';
      const context = { refundId, orderId: refund.orderId, amountMinor: refund.amountMinor };
      const provider = lookup.byName(refund.provider);
      if (!provider) {
        // Its provider's settings may come back (a routing being changed): sent again later, as
        // when the provider cannot be reached, and given up after every attempt.
        return await retryLater(refundId, refund, context, `${refund.provider} is not configured here`);
      }
      if (!refund.providerPaymentId) {
        await finish(
          refundId,
          'FAILED',
          { error: `payment of ${refund.provider} without a provider id to refund` },
          refund.provider,
        );
        logger.error(context, 'a refund to the card could not be sent: the payment has no id at its provider');
        return 'refused';
      }
      try {
        const made = await provider.refund({
          providerPaymentId: refund.providerPaymentId,
          amountMinor: await inChargeCurrency(refund, provider, refund.providerPaymentId),
          idempotencyKey: refundId,
        });
        await finish(refundId, 'SUCCEEDED', { providerRefundId: made.refundId }, provider.name);
        logger.info({ ...context, providerRefundId: made.refundId }, 'refund to the card sent to the provider');
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof ValidationError || error instanceof ConflictError || error instanceof NotFoundError) {
          await finish(refundId, 'FAILED', { error: message }, provider.name);
          logger.error({ ...context, err: error }, 'the provider refused a refund to the card: an operator must look');
          return 'refused';
        }
        return await retryLater(refundId, refund, context, message, error);
      }
      // The provider's word on the payment now carries the refund: applied at once rather than when
      // its callback comes (the same event path, once per version).
      if (intake) {
        try {
          await intake.receiveProviderPayment(provider.name, await provider.getPayment(refund.providerPaymentId));
        } catch (error) {
          logger.warn(
            { ...context, err: error },
            'the refunded payment could not be read back; its callback brings it',
          );
        }
      }
      return 'succeeded';
    },
  };
}

export type ProviderRefunds = ReturnType<typeof createProviderRefunds>;

/**
 * Hands on refunds still to send whose time has come: the job enqueued when one was asked for may
 * never have reached the queue, and one waiting after an unreachable provider is due again.
 */
export async function sweepProviderRefunds(
  { sql, queue, now = () => new Date() }: { sql: SqlClient; queue: Pick<JobQueue, 'enqueue'>; now?: () => Date },
  { limit = 100 }: { limit?: number } = {},
): Promise<string[]> {
  const due = await sql.query(
    qb
      .selectFrom('provider_refunds')
      .select('id')
      .where('status', '=', 'PENDING')
      .where('next_attempt_at', '<=', now())
      .orderBy('next_attempt_at')
      .limit(limit),
  );
  const queued: string[] = [];
  for (const { id } of due) {
    const outcome = await queue.enqueue({ kind: 'payment.refund', refundId: id }, { jobId: id });
    if (outcome === 'queued') queued.push(id);
  }
  return queued;
}
