import {
  createBullQueue,
  createInProcessQueue,
  createJobHandlers,
  createMailer,
  type JobQueue,
  startOutboxSweep,
} from '@store/core';
import { createCodeCipher, createDatabase, devCodeKey } from '@store/db';
import { seedDemo } from '@store/db/seed';
import { Redis } from 'ioredis';
import pino from 'pino';
import { buildApp, loggerOptions } from './app.ts';
import { loadEnv } from './env.ts';

/** Starts the store: database (PostgreSQL or embedded PGlite), queue, HTTP. Only this file listens. */
async function main() {
  const env = loadEnv();
  const logger = pino(loggerOptions(env) as pino.LoggerOptions);
  const embedded = !env.DATABASE_URL;

  const database = await createDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  logger.info({ database: database.kind }, 'database ready, migrations applied');

  if (env.SEED_DEMO ?? embedded) {
    const cipher = createCodeCipher(env.CODE_ENCRYPTION_KEY ?? devCodeKey());
    const seeded = await seedDemo(database.prisma, { cipher });
    if (seeded) logger.info('demo catalogue seeded');
  }

  const redis = env.REDIS_URL
    ? new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, logger });
  const queue: JobQueue = env.REDIS_URL
    ? createBullQueue({ redisUrl: env.REDIS_URL })
    : createInProcessQueue(createJobHandlers({ db: database.prisma, logger, mailer }), logger);
  // With BullMQ the worker sweeps the outbox; when jobs run in this process, so does the sweep.
  const sweeper = queue.kind === 'in-process' ? startOutboxSweep({ db: database.prisma, queue, logger }) : undefined;
  if (queue.kind === 'in-process' && mailer.kind === 'outbox') {
    if (env.NODE_ENV === 'production') logger.warn('SMTP_URL is not set: emails stay in the outbox, undelivered');
    else logger.info(`SMTP_URL is not set: emails stay in the outbox, see http://localhost:${env.PORT}/dev/mailbox`);
  }

  const app = await buildApp({ env, database, queue, redis, logger: loggerOptions(env) });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await sweeper?.stop();
    await queue.close();
    await mailer.close();
    redis?.disconnect();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: env.HOST, port: env.PORT });
  app.log.info(
    `store ready on http://localhost:${env.PORT} (${embedded ? 'embedded' : 'full'} mode, queue ${queue.kind})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
