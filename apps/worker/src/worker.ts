import {
  buildProviderRegistry,
  createJobMetrics,
  createMailer,
  createMetricsRegistry,
  createStore,
  type Logger,
  measuredHandlers,
  type ProviderConfigs,
  type ProviderRegistry,
  startMetricsServer,
  startOrderExpirySweep,
  startOutboxSweep,
  startPaymentSweep,
} from '@store/core';
import { createBullQueue, createBullWorker } from '@store/core/bullmq';
import { createDatabase } from '@store/db';
import type { Env } from './env.ts';

export interface WorkerOptions {
  env: Env;
  logger: Logger;
}

/**
 * The providers the worker asks about payments waiting too long and sends refunds to the card to,
 * each payment at its own: the sandbox at its address, and each other provider whose settings are
 * given. None without any (refunds then wait, PENDING, for a worker that has them). The routing is
 * the API's business: the worker starts no payment.
 */
function workerProviders(env: Env, logger: Logger): ProviderRegistry | undefined {
  const callbackUrl = (name: string) => new URL(`/api/payments/callback/${name}`, env.PUBLIC_URL).toString();
  const configs: ProviderConfigs = {};
  if (env.SANDBOX_URL && env.SANDBOX_API_KEY) {
    configs.sandbox = {
      apiUrl: env.SANDBOX_URL,
      publicUrl: env.SANDBOX_URL,
      apiKey: env.SANDBOX_API_KEY,
      webhookSecrets: [],
      callbackUrl: env.PAYMENTS_CALLBACK_URL ?? new URL('/api/payments/callback', env.PUBLIC_URL).toString(),
    };
  } else {
    logger.warn(
      {},
      'SANDBOX_URL is not set: sandbox payments waiting too long are not asked about, and their refunds to the card wait',
    );
  }
  const { stripe, payselection } = env.PAYMENTS;
  if (stripe) configs.stripe = { ...stripe, callbackUrl: callbackUrl('stripe') };
  if (payselection) configs.payselection = { ...payselection, callbackUrl: callbackUrl('payselection') };
  if (Object.keys(configs).length === 0) return undefined;
  return buildProviderRegistry({}, configs);
}

/**
 * Runs core's job handlers against the shared database, delivers mail over SMTP, sweeps the outbox
 * for emails whose job was lost or finished without sending them, expires unpaid orders, hands on
 * stored payment events and refunds that lost their job and asks the provider about payments waiting
 * too long.
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
  const store = createStore({
    database,
    queue,
    logger,
    publicUrl: env.PUBLIC_URL,
    providers: workerProviders(env, logger),
  });
  const registry = createMetricsRegistry('worker');
  const handlers = store.jobHandlers(mailer);
  const worker = createBullWorker({
    redisUrl: env.REDIS_URL,
    prefix,
    handlers: measuredHandlers(handlers, createJobMetrics(registry)),
    logger,
    concurrency: env.WORKER_CONCURRENCY,
    paymentConcurrency: env.PAYMENT_WORKER_CONCURRENCY,
    lockDurationMs: env.JOB_LOCK_MS,
  });
  await worker.waitUntilReady();
  // Metrics are for watching the worker, not for running it: a port another process holds (a second
  // worker on the same machine) leaves this one working, without /metrics, and says so.
  const metricsServer =
    env.WORKER_METRICS_PORT > 0
      ? await startMetricsServer({
          registry,
          host: env.WORKER_METRICS_HOST,
          port: env.WORKER_METRICS_PORT,
          token: env.METRICS_TOKEN,
          logger,
        }).catch((error: unknown) => {
          logger.error(
            { err: error, host: env.WORKER_METRICS_HOST, port: env.WORKER_METRICS_PORT },
            'the worker cannot serve /metrics there: it runs without them',
          );
          return undefined;
        })
      : undefined;
  const sweeper = startOutboxSweep(
    { db: database.prisma, queue, logger },
    { intervalMs: env.OUTBOX_SWEEP_INTERVAL_MS, olderThanMs: env.OUTBOX_SWEEP_INTERVAL_MS },
  );
  const expirySweeper = startOrderExpirySweep({ orders: store.orders, logger });
  const paymentSweeper = startPaymentSweep(
    { db: database.prisma, sql: database.sql, queue, logger, reconciler: store.paymentReconciler },
    { intervalMs: env.PAYMENTS_SWEEP_INTERVAL_MS, pendingAfterMs: env.PAYMENTS_PENDING_CHECK_MS },
  );

  return {
    /** Where /metrics answers (undefined when it is off). */
    metricsPort: metricsServer?.port,
    async close() {
      await metricsServer?.close();
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
