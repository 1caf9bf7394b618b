import {
  createBullQueue,
  createBullWorker,
  createJobHandlers,
  createMailer,
  createOrderService,
  createPaymentEventIntake,
  createPaymentEventProcessor,
  createPaymentReconciler,
  createPromoService,
  createSandboxPaymentProvider,
  type JobQueue,
  type Logger,
  startOrderExpirySweep,
  startOutboxSweep,
  startPaymentSweep,
} from '@store/core';
import { createDatabase, type PrismaClient } from '@store/db';
import type { Env } from './env.ts';

export interface WorkerOptions {
  env: Env;
  logger: Logger;
}

/** Asks the provider about payments waiting too long; none without the provider's address. */
function paymentReconciler(env: Env, db: PrismaClient, queue: JobQueue, logger: Logger) {
  if (!env.SANDBOX_URL || !env.SANDBOX_API_KEY) {
    logger.warn({}, 'SANDBOX_URL is not set: payments waiting too long are not asked about at the provider');
    return undefined;
  }
  const provider = createSandboxPaymentProvider({
    apiUrl: env.SANDBOX_URL,
    publicUrl: env.SANDBOX_URL,
    apiKey: env.SANDBOX_API_KEY,
    webhookSecrets: [],
    callbackUrl: env.PAYMENTS_CALLBACK_URL ?? new URL('/api/payments/callback', env.PUBLIC_URL).toString(),
  });
  const intake = createPaymentEventIntake({ db, queue, logger });
  return createPaymentReconciler({ db, provider, intake, logger });
}

/**
 * Runs core's job handlers against the shared database, delivers mail over SMTP, sweeps the outbox
 * for emails whose job was lost or finished without sending them, expires unpaid orders, hands on
 * stored payment events that lost their job and asks the provider about payments waiting too long.
 */
export async function startWorker({ env, logger }: WorkerOptions) {
  // The API applies migrations; the worker waits for the schema rather than racing it.
  const database = await createDatabase({ databaseUrl: env.DATABASE_URL, migrate: false });
  // A worker keeps no dev mailbox (nobody could read it): without SMTP it cannot deliver at all.
  const mailer = createMailer({
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
    logger,
    sendDeadlineMs: env.SMTP_SEND_TIMEOUT_MS,
  });
  if (mailer.kind === 'none') logger.warn({}, 'SMTP_URL is not set: emails cannot be delivered and are marked FAILED');
  const prefix = env.QUEUE_PREFIX;
  // The producer first: applying a payment enqueues its receipt.
  const queue = createBullQueue({ redisUrl: env.REDIS_URL, prefix, logger });
  const orders = createOrderService({
    db: database.prisma,
    promo: createPromoService({ db: database.prisma }),
    queue,
    logger,
    publicUrl: env.PUBLIC_URL,
  });
  const paymentEvents = createPaymentEventProcessor({ db: database.prisma, orders, queue, logger });
  const worker = createBullWorker({
    redisUrl: env.REDIS_URL,
    prefix,
    handlers: createJobHandlers({ db: database.prisma, logger, mailer, paymentEvents }),
    logger,
    concurrency: env.WORKER_CONCURRENCY,
    paymentConcurrency: env.PAYMENT_WORKER_CONCURRENCY,
    lockDurationMs: env.JOB_LOCK_MS,
  });
  await worker.waitUntilReady();
  const sweeper = startOutboxSweep(
    { db: database.prisma, queue, logger },
    { intervalMs: env.OUTBOX_SWEEP_INTERVAL_MS, olderThanMs: env.OUTBOX_SWEEP_INTERVAL_MS },
  );
  const expirySweeper = startOrderExpirySweep({ orders, logger });
  const paymentSweeper = startPaymentSweep(
    { db: database.prisma, queue, logger, reconciler: paymentReconciler(env, database.prisma, queue, logger) },
    { intervalMs: env.PAYMENTS_SWEEP_INTERVAL_MS, pendingAfterMs: env.PAYMENTS_PENDING_CHECK_MS },
  );

  return {
    async close() {
      await sweeper.stop();
      await expirySweeper.stop();
      await paymentSweeper.stop();
      await worker.close();
      await queue.close();
      await mailer.close();
      await database.close();
    },
  };
}
