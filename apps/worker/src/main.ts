import { createBullWorker, createJobHandlers } from '@store/core';
import { createDatabase } from '@store/db';
import pino from 'pino';
import { loadEnv } from './env.ts';

/** The BullMQ process: runs core's job handlers against the shared database. */
async function main() {
  const env = loadEnv();
  const logger = pino({ level: env.LOG_LEVEL, name: 'worker' });
  // The API applies migrations; the worker waits for the schema rather than racing it.
  const database = await createDatabase({ databaseUrl: env.DATABASE_URL, migrate: false });
  const worker = createBullWorker({
    redisUrl: env.REDIS_URL,
    handlers: createJobHandlers({ db: database.prisma, logger }),
    logger,
    concurrency: env.WORKER_CONCURRENCY,
  });
  await worker.waitUntilReady();
  logger.info({ concurrency: env.WORKER_CONCURRENCY }, 'worker ready');

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'worker shutting down');
    await worker.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
