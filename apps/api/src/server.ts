import {
  createDevMailbox,
  createMailer,
  startOrderExpirySweep,
  startOutboxSweep,
  startPaymentSweep,
  startTracing,
} from '@store/core';
import { createCodeCipher, createDatabase, devCodeKey } from '@store/db';
import { seedDemo } from '@store/db/seed';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { buildApp, devMailboxEnabled, loggerOptions } from './app.ts';
import { loadEnv } from './env.ts';
import { storeFor } from './store-for.ts';

/** Starts the store: database (PostgreSQL or embedded PGlite), queue, HTTP. Only this file listens. */
async function main() {
  const env = loadEnv();
  const logger = pino(loggerOptions(env) as pino.LoggerOptions);
  const embedded = !env.DATABASE_URL;
  // First: the tracer provider must be there before the instrumented libraries are used.
  const tracing = await startTracing({ serviceName: env.OTEL_SERVICE_NAME, endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT });
  if (tracing.enabled) logger.info({ endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT }, 'traces are sent to the collector');

  const database = await createDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  logger.info({ database: database.kind }, 'database ready, migrations applied');
  // Outside tests only a data folder from before stores made their own keeps this key (loadLocalSecrets).
  if (env.CODE_ENCRYPTION_KEY === devCodeKey()) {
    logger.warn(
      `the gift-card codes in ${env.DATA_DIR} are encrypted with the development key, published with the repository: anyone with a copy of the folder can read them`,
    );
  }

  if (env.SEED_DEMO ?? embedded) {
    const cipher = createCodeCipher(env.CODE_ENCRYPTION_KEY);
    const seeded = await seedDemo(database.prisma, { cipher });
    if (seeded) logger.info('demo catalogue seeded');
  }

  // Redis and BullMQ are loaded only when configured: the embedded store never loads them.
  const redis: Redis | undefined = env.REDIS_URL
    ? new (await import('ioredis')).Redis(env.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  // ioredis reports every failed reconnect; one line per outage is enough (the limits say the rest).
  let redisDown = false;
  redis?.on('error', (error) => {
    if (!redisDown) logger.warn({ err: error }, 'Redis connection lost; reconnecting');
    redisDown = true;
  });
  redis?.on('ready', () => {
    if (redisDown) logger.info('Redis connection back');
    redisDown = false;
  });
  const devMailbox = devMailboxEnabled(env) ? createDevMailbox() : undefined;
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, logger, devMailbox });
  // The store over this database: its jobs go to BullMQ for the worker when Redis is configured, else
  // they run in this process with the store's own handlers.
  const store = storeFor(env, {
    database,
    logger,
    mailer,
    queue: env.REDIS_URL
      ? (await import('@store/core/bullmq')).createBullQueue({
          redisUrl: env.REDIS_URL,
          prefix: env.QUEUE_PREFIX,
          logger,
        })
      : undefined,
  });
  const { queue } = store;
  // With BullMQ the worker sweeps the outbox; when jobs run in this process, so does the sweep.
  const sweeper = queue.kind === 'in-process' ? startOutboxSweep({ db: database.prisma, queue, logger }) : undefined;
  if (queue.kind === 'in-process' && mailer.kind === 'outbox') {
    logger.info(
      `SMTP_URL is not set: emails go to the dev mailbox, see http://localhost:${env.PORT}/dev/mailbox (from this machine only)`,
    );
  } else if (queue.kind === 'in-process' && mailer.kind === 'none') {
    logger.warn('SMTP_URL is not set: emails cannot be delivered and are marked FAILED');
  }

  const app = await buildApp({
    env,
    database,
    queue,
    store,
    redis,
    devMailbox,
    logger: loggerOptions(env),
    tracing: tracing.enabled,
  });
  // With BullMQ the worker expires unpaid orders; when jobs run in this process, so does this.
  const expirySweeper =
    queue.kind === 'in-process' ? startOrderExpirySweep({ orders: store.orders, logger }) : undefined;

  let paymentSweeper: ReturnType<typeof startPaymentSweep> | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await sweeper?.stop();
    await expirySweeper?.stop();
    await paymentSweeper?.stop();
    await queue.close();
    await mailer.close();
    redis?.disconnect();
    await database.close();
    await tracing.shutdown();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: env.HOST, port: env.PORT });
  // With BullMQ the worker hands on stored payment events and asks the provider about payments
  // waiting too long; when jobs run here, so does this. It starts once the embedded sandbox answers.
  paymentSweeper =
    queue.kind === 'in-process'
      ? startPaymentSweep(
          { db: database.prisma, sql: database.sql, queue, logger, reconciler: store.paymentReconciler },
          { intervalMs: env.PAYMENTS_SWEEP_INTERVAL_MS, pendingAfterMs: env.PAYMENTS_PENDING_CHECK_MS },
        )
      : undefined;
  app.log.info(
    `store ready on ${env.PUBLIC_URL}, listening on ${env.HOST}:${env.PORT} (${embedded ? 'embedded' : 'full'} mode, queue ${queue.kind})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
