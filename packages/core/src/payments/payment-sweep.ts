import type { PrismaClient, SqlClient } from '@store/db';
import type { JobQueue } from '../queue/job-queue.ts';
import type { Logger } from '../shared/logger.ts';
import { repeatEvery } from '../shared/repeat.ts';
import type { PaymentReconciler, ReconcileOptions } from './payment-reconcile.ts';
import { sweepProviderRefunds } from './provider-refunds.ts';

export const PAYMENT_SWEEP_INTERVAL_MS = 30_000;

export interface PaymentEventSweepDeps {
  db: PrismaClient;
  sql: SqlClient;
  queue: Pick<JobQueue, 'enqueue'>;
  now?: () => Date;
}

export interface PaymentEventSweepResult {
  /** Events whose job was gone or finished (lost with Redis, a worker killed twice): queued anew. */
  requeued: string[];
  /** Events whose job still waits, runs or waits for a retry: left to it. */
  alreadyQueued: number;
}

/**
 * Makes sure every stored event not yet processed nor dead, older than `olderThanMs` and due, has a
 * job: the one enqueued on arrival may never have reached Redis, or have failed for good. The job id is the
 * event's id, as in the outbox sweep: a job still waiting, running or retrying absorbs the enqueue,
 * a finished one is replaced (bullmq-queue.ts), and applying an event twice changes nothing.
 */
export async function sweepPaymentEvents(
  { db, queue, now = () => new Date() }: PaymentEventSweepDeps,
  { olderThanMs = PAYMENT_SWEEP_INTERVAL_MS, limit = 200 }: { olderThanMs?: number; limit?: number } = {},
): Promise<PaymentEventSweepResult> {
  // In the order they are due: one that keeps failing waits longer each time, and a dead one not at
  // all, so the batch is never filled by the same few.
  const at = now();
  const rows = await db.paymentEvent.findMany({
    where: {
      processedAt: null,
      deadAt: null,
      nextAttemptAt: { lte: at },
      receivedAt: { lt: new Date(at.getTime() - olderThanMs) },
    },
    orderBy: { nextAttemptAt: 'asc' },
    take: limit,
    select: { id: true },
  });
  const result: PaymentEventSweepResult = { requeued: [], alreadyQueued: 0 };
  for (const { id } of rows) {
    const outcome = await queue.enqueue({ kind: 'payment.event', eventId: id }, { jobId: id });
    if (outcome === 'queued') result.requeued.push(id);
    else result.alreadyQueued++;
  }
  return result;
}

export interface PaymentSweepOptions extends ReconcileOptions {
  intervalMs?: number;
  /** Events younger than this are left to the job enqueued on their arrival. */
  eventAgeMs?: number;
}

export interface PaymentSweeper {
  stop(): Promise<void>;
}

/**
 * Runs now (picking up what a crash left) and then on an interval: hands on stored events that have
 * no job and refunds to the card that are due, and asks the provider about payments waiting too long
 * (when a reconciler is given). A
 * failed run is logged and tried at the next tick; a tick never overlaps the previous one.
 */
export function startPaymentSweep(
  deps: PaymentEventSweepDeps & { logger: Logger; reconciler?: Pick<PaymentReconciler, 'reconcilePending'> },
  { intervalMs = PAYMENT_SWEEP_INTERVAL_MS, eventAgeMs = intervalMs, ...reconcile }: PaymentSweepOptions = {},
): PaymentSweeper {
  const { logger, reconciler } = deps;
  const sweep = async () => {
    try {
      const { requeued, alreadyQueued } = await sweepPaymentEvents(deps, { olderThanMs: eventAgeMs });
      if (requeued.length > 0) {
        logger.info({ eventIds: requeued, alreadyQueued }, 'payment sweep re-enqueued events that had no job');
      }
    } catch (error) {
      logger.error({ err: error }, 'payment event sweep failed');
    }
    try {
      const refunds = await sweepProviderRefunds(deps);
      if (refunds.length > 0) logger.info({ refundIds: refunds }, 'payment sweep handed on refunds to the card');
    } catch (error) {
      logger.error({ err: error }, 'refund sweep failed');
    }
    if (!reconciler) return;
    try {
      const { orders, updates } = await reconciler.reconcilePending(reconcile);
      if (updates > 0) logger.info({ orders, updates }, 'payment sweep found news of pending payments at the provider');
    } catch (error) {
      logger.error({ err: error }, 'pending payment sweep failed');
    }
  };
  // Each half logs its own failure, so one failing does not keep the other from running.
  return repeatEvery(intervalMs, sweep, (error) => logger.error({ err: error }, 'payment sweep failed'));
}
