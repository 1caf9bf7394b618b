import { getPriority, setPriority } from 'node:os';
import { startTracing } from '@store/core';
import pino, { type Logger } from 'pino';
import { loadEnv } from './env.ts';
import { startWorker } from './worker.ts';

/**
 * Lowers the CPU priority of the thread that runs the jobs (and of the threads it starts later) to
 * `nice`, never raising it: started with a higher nice value, the worker keeps that. A host that
 * refuses leaves it as it was, and says so.
 */
function lowerPriority(nice: number, logger: Logger): number {
  try {
    if (nice > getPriority()) setPriority(nice);
  } catch (error) {
    logger.warn({ err: error, nice }, 'the worker could not lower its CPU priority');
  }
  return getPriority();
}

/** The BullMQ process: job handlers, mail delivery and the outbox sweep. */
async function main() {
  const env = loadEnv();
  const logger = pino({ level: env.LOG_LEVEL, name: 'worker' });
  const tracing = await startTracing({ serviceName: env.OTEL_SERVICE_NAME, endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT });
  const nice = lowerPriority(env.WORKER_NICE, logger);
  const worker = await startWorker({ env, logger });
  logger.info(
    {
      concurrency: env.WORKER_CONCURRENCY,
      paymentConcurrency: env.PAYMENT_WORKER_CONCURRENCY,
      nice,
      smtp: Boolean(env.SMTP_URL),
    },
    'worker ready',
  );

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'worker shutting down');
    await worker.close();
    await tracing.shutdown();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
