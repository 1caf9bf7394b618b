import type { PrismaClient } from '@store/db';
import type { JobQueue } from '../queue/job-queue.ts';
import type { Logger } from '../shared/logger.ts';
import { repeatEvery } from '../shared/repeat.ts';

export interface OutboxSweepDeps {
  db: PrismaClient;
  queue: JobQueue;
  now?: () => Date;
}

export interface SweepOptions {
  /** Rows younger than this are left to the job enqueued after their commit. */
  olderThanMs?: number;
  /** Rows per sweep, oldest first; the rest wait for the next one. */
  limit?: number;
}

export const OUTBOX_SWEEP_AGE_MS = 60_000;
export const OUTBOX_SWEEP_INTERVAL_MS = 60_000;

/** What one sweep found and did. */
export interface SweepResult {
  /** Rows whose job was gone or finished (lost after the commit, failed as stalled...): queued anew. */
  requeued: string[];
  /** Rows whose job still waits, runs or waits for a retry: left to it. */
  alreadyQueued: number;
}

/**
 * Makes sure every PENDING row older than a minute has a job that will send it: the job enqueued
 * after the commit may have been lost (Redis down, the process killed in between) or have finished
 * without sending (a worker killed mid-send twice fails its job as stalled). The job id is the row
 * id: a job that is still waiting, running or retrying absorbs the enqueue, a finished one is
 * replaced. The handler skips a row that is no longer PENDING.
 */
export async function sweepOutbox(
  { db, queue, now = () => new Date() }: OutboxSweepDeps,
  { olderThanMs = OUTBOX_SWEEP_AGE_MS, limit = 100 }: SweepOptions = {},
): Promise<SweepResult> {
  const rows = await db.outboundEmail.findMany({
    where: { status: 'PENDING', createdAt: { lt: new Date(now().getTime() - olderThanMs) } },
    orderBy: { createdAt: 'asc' },
    take: limit,
    select: { id: true },
  });
  const result: SweepResult = { requeued: [], alreadyQueued: 0 };
  for (const row of rows) {
    const outcome = await queue.enqueue({ kind: 'email.send', emailId: row.id }, { jobId: row.id });
    if (outcome === 'queued') result.requeued.push(row.id);
    else result.alreadyQueued++;
  }
  return result;
}

export interface OutboxSweeper {
  stop(): Promise<void>;
}

/**
 * Sweeps now (picking up what a previous run left) and then on an interval. A failed sweep is logged
 * and tried again at the next tick; a tick never overlaps the previous one.
 */
export function startOutboxSweep(
  deps: OutboxSweepDeps & { logger: Logger },
  { intervalMs = OUTBOX_SWEEP_INTERVAL_MS, ...options }: SweepOptions & { intervalMs?: number } = {},
): OutboxSweeper {
  return repeatEvery(
    intervalMs,
    async () => {
      const { requeued, alreadyQueued } = await sweepOutbox(deps, options);
      if (requeued.length > 0) {
        deps.logger.info({ emailIds: requeued, alreadyQueued }, 'outbox sweep re-enqueued emails that had no job');
      } else if (alreadyQueued > 0) {
        deps.logger.debug({ alreadyQueued }, 'outbox sweep: every pending email is already queued');
      }
    },
    (error) => deps.logger.error({ err: error }, 'outbox sweep failed'),
  );
}
