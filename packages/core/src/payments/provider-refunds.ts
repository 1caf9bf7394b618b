import { randomUUID } from 'node:crypto';
import { Prisma, type PrismaClient, type Queryable, sqlOf } from '@store/db';
import { accounts, ledgerKeys, transfer } from '../ledger/ledger-service.ts';
import { actors } from '../orders/order-events.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';
import type { PaymentProvider, ProviderPayment } from './provider.ts';

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
  const [row] = await tx.query<{ id: string; created: boolean }>(Prisma.sql`
    WITH made AS (
      INSERT INTO provider_refunds (id, order_id, payment_id, amount_minor, reason, requested_by, idempotency_key,
                                    updated_at)
      VALUES (${randomUUID()}::uuid, ${request.orderId}::uuid, ${request.paymentId}::uuid, ${request.amountMinor}::bigint,
              ${request.reason}, ${request.requestedBy}, ${request.key}, now())
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING id
    ), history AS (
      INSERT INTO order_events (order_id, actor, kind, amount_minor, payment_id, detail)
      SELECT ${request.orderId}::uuid, ${request.requestedBy}, 'refund_asked', ${request.amountMinor}::bigint,
             ${request.paymentId}::uuid, jsonb_build_object('refundId', made.id, 'reason', ${request.reason}::text)
      FROM made
    )
    SELECT id, true AS created FROM made
    UNION ALL
    SELECT id, false FROM provider_refunds WHERE idempotency_key = ${request.key} AND NOT EXISTS (SELECT 1 FROM made)`);
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
  db: PrismaClient;
  provider: Pick<PaymentProvider, 'name' | 'refund' | 'getPayment'>;
  /** Where the provider's word on the refunded payment goes (the event intake), to be applied at once. */
  intake?: { receiveProviderPayment(provider: string, payment: ProviderPayment): Promise<unknown> };
  logger?: Logger;
  clock?: () => Date;
  maxAttempts?: number;
}

interface DueRefund {
  id: string;
  orderId: string;
  amountMinor: number;
  status: string;
  attempts: number;
  nextAttemptAt: Date;
  provider: string;
  providerPaymentId: string | null;
}

/** Sending the refunds the store asked for. */
export function createProviderRefunds({
  db,
  provider,
  intake,
  logger = silentLogger,
  clock = () => new Date(),
  maxAttempts = PROVIDER_REFUND_ATTEMPTS,
}: ProviderRefundsDeps) {
  const sql = sqlOf(db);

  /** Ends the refund, and says so in its order's history: one statement. */
  async function finish(
    id: string,
    status: 'SUCCEEDED' | 'FAILED',
    changes: { providerRefundId?: string; error?: string },
  ) {
    const error = changes.error?.slice(0, LAST_ERROR_MAX) ?? null;
    await sql.execute(Prisma.sql`
      WITH finished AS (
        UPDATE provider_refunds SET status = ${status}::provider_refund_status, attempts = attempts + 1,
          provider_refund_id = COALESCE(${changes.providerRefundId ?? null}, provider_refund_id),
          last_error = ${error}, finished_at = ${clock()}, updated_at = now()
        WHERE id = ${id}::uuid AND status = 'PENDING'
        RETURNING order_id, payment_id, amount_minor, provider_refund_id
      )
      INSERT INTO order_events (order_id, actor, kind, amount_minor, payment_id, detail)
      SELECT order_id, ${actors.provider(provider.name)}, ${status === 'SUCCEEDED' ? 'refund_sent' : 'refund_refused'},
             amount_minor, payment_id,
             jsonb_strip_nulls(jsonb_build_object('refundId', ${id}::text, 'providerRefundId', provider_refund_id,
                                                  'error', ${error}::text))
      FROM finished`);
  }

  return {
    /**
     * The `payment.refund` job: sends one refund to the provider, unless it is finished or not due.
     * A refusal (the provider says the payment cannot be refunded so) ends it FAILED for an operator;
     * a provider that cannot be reached leaves it PENDING until its next attempt, at most
     * `maxAttempts` times. Safe to run any number of times: the provider refunds once per row.
     */
    async sendRefund(refundId: string): Promise<RefundSendOutcome> {
      const [refund] = await sql.query<DueRefund>(Prisma.sql`
        SELECT r.id, r.order_id AS "orderId", r.amount_minor AS "amountMinor", r.status, r.attempts,
               r.next_attempt_at AS "nextAttemptAt", p.provider, p.provider_payment_id AS "providerPaymentId"
        FROM provider_refunds r JOIN payments p ON p.id = r.payment_id
        WHERE r.id = ${refundId}::uuid`);
      if (!refund) throw new NotFoundError('Refund');
      if (refund.status !== 'PENDING') return 'already_finished';
      const context = { refundId, orderId: refund.orderId, amountMinor: refund.amountMinor };
      if (refund.provider !== provider.name || !refund.providerPaymentId) {
        await finish(refundId, 'FAILED', { error: `payment of ${refund.provider} without a provider id to refund` });
        logger.error(
          context,
          'a refund to the card could not be sent: the payment is not one this provider can refund',
        );
        return 'refused';
      }
      try {
        const made = await provider.refund({
          providerPaymentId: refund.providerPaymentId,
          amountMinor: refund.amountMinor,
          idempotencyKey: refundId,
        });
        await finish(refundId, 'SUCCEEDED', { providerRefundId: made.refundId });
        logger.info({ ...context, providerRefundId: made.refundId }, 'refund to the card sent to the provider');
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof ValidationError || error instanceof ConflictError || error instanceof NotFoundError) {
          await finish(refundId, 'FAILED', { error: message });
          logger.error({ ...context, err: error }, 'the provider refused a refund to the card: an operator must look');
          return 'refused';
        }
        if (refund.attempts + 1 >= maxAttempts) {
          await finish(refundId, 'FAILED', { error: message });
          logger.error({ ...context, err: error }, 'a refund to the card was given up after every attempt');
          return 'given_up';
        }
        await sql.execute(Prisma.sql`
          UPDATE provider_refunds SET attempts = attempts + 1, last_error = ${message.slice(0, LAST_ERROR_MAX)},
            next_attempt_at = ${new Date(clock().getTime() + refundRetryDelayMs(refund.attempts + 1))}, updated_at = now()
          WHERE id = ${refundId}::uuid AND status = 'PENDING'`);
        logger.warn({ ...context, err: error }, 'the provider could not take a refund now; it is sent again later');
        return 'retry_later';
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
  { db, queue, now = () => new Date() }: { db: PrismaClient; queue: Pick<JobQueue, 'enqueue'>; now?: () => Date },
  { limit = 100 }: { limit?: number } = {},
): Promise<string[]> {
  const due = await sqlOf(db).query<{ id: string }>(Prisma.sql`
    SELECT id FROM provider_refunds
    WHERE status = 'PENDING' AND next_attempt_at <= ${now()}
    ORDER BY next_attempt_at
    LIMIT ${limit}`);
  const queued: string[] = [];
  for (const { id } of due) {
    const outcome = await queue.enqueue({ kind: 'payment.refund', refundId: id }, { jobId: id });
    if (outcome === 'queued') queued.push(id);
  }
  return queued;
}
