import type { PrismaClient } from '@store/db';
import type { JobQueue } from '../queue/job-queue.ts';
import type { Logger } from '../shared/logger.ts';

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

/**
 * Enqueues `email.send` again for every PENDING row older than a minute: the job enqueued after the
 * commit may have been lost (Redis down, the process killed in between). The job id is the row id,
 * so a job that is still waiting, running or retrying absorbs the duplicate; and the handler skips a
 * row that is no longer PENDING. Returns how many rows were enqueued.
 */
export async function sweepOutbox(
  { db, queue, now = () => new Date() }: OutboxSweepDeps,
  { olderThanMs = OUTBOX_SWEEP_AGE_MS, limit = 100 }: SweepOptions = {},
): Promise<number> {
  const rows = await db.outboundEmail.findMany({
    where: { status: 'PENDING', createdAt: { lt: new Date(now().getTime() - olderThanMs) } },
    orderBy: { createdAt: 'asc' },
    take: limit,
    select: { id: true },
  });
  for (const row of rows) {
    await queue.enqueue({ kind: 'email.send', emailId: row.id }, { jobId: row.id });
  }
  return rows.length;
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
  let current: Promise<void> | undefined;
  const tick = () => {
    if (current) return;
    current = sweepOutbox(deps, options)
      .then((count) => {
        if (count > 0) deps.logger.info({ count }, 'outbox sweep re-enqueued pending emails');
      })
      .catch((error: unknown) => deps.logger.error({ err: error }, 'outbox sweep failed'))
      .finally(() => {
        current = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
