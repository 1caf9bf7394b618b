import pino from 'pino';
import { loadEnv } from './env.ts';
import { startWorker } from './worker.ts';

/** The BullMQ process: job handlers, mail delivery and the outbox sweep. */
async function main() {
  const env = loadEnv();
  const logger = pino({ level: env.LOG_LEVEL, name: 'worker' });
  const worker = await startWorker({ env, logger });
  logger.info({ concurrency: env.WORKER_CONCURRENCY, smtp: Boolean(env.SMTP_URL) }, 'worker ready');

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'worker shutting down');
    await worker.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
