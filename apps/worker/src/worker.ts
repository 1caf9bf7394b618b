import {
  createBullQueue,
  createBullWorker,
  createJobHandlers,
  createMailer,
  type Logger,
  startOutboxSweep,
} from '@store/core';
import { createDatabase } from '@store/db';
import type { Env } from './env.ts';

export interface WorkerOptions {
  env: Env;
  logger: Logger;
  /** BullMQ key prefix; tests use their own. */
  prefix?: string;
  sweepIntervalMs?: number;
}

/**
 * Runs core's job handlers against the shared database, delivers mail over SMTP (or keeps it in the
 * outbox without SMTP_URL) and sweeps the outbox for emails whose job was lost.
 */
export async function startWorker({ env, logger, prefix, sweepIntervalMs }: WorkerOptions) {
  // The API applies migrations; the worker waits for the schema rather than racing it.
  const database = await createDatabase({ databaseUrl: env.DATABASE_URL, migrate: false });
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, logger });
  if (mailer.kind === 'outbox') logger.warn({}, 'SMTP_URL is not set: emails are kept in the outbox, not delivered');
  const worker = createBullWorker({
    redisUrl: env.REDIS_URL,
    prefix,
    handlers: createJobHandlers({ db: database.prisma, logger, mailer }),
    logger,
    concurrency: env.WORKER_CONCURRENCY,
  });
  await worker.waitUntilReady();
  const queue = createBullQueue({ redisUrl: env.REDIS_URL, prefix });
  const sweeper = startOutboxSweep(
    { db: database.prisma, queue, logger },
    sweepIntervalMs ? { intervalMs: sweepIntervalMs } : {},
  );

  return {
    async close() {
      await sweeper.stop();
      await worker.close();
      await queue.close();
      await mailer.close();
      await database.close();
    },
  };
}
