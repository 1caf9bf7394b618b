import { randomUUID } from 'node:crypto';
import { type Job, JobSchema, QUEUE_NAME } from '@store/contract';
import { Queue, QueueEvents, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '../shared/logger.ts';
import { type HealthResult, type JobHandlers, runJob } from './job-handlers.ts';
import { backoffDelay, type EnqueueOptions, JOB_ATTEMPTS, type JobQueue } from './job-queue.ts';

/** BullMQ needs `maxRetriesPerRequest: null` on the connections its workers block on. */
export function createRedisConnection(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
}

export interface BullQueueOptions {
  redisUrl: string;
  /** Prefix of every key, so tests and environments sharing a Redis do not see each other's jobs. */
  prefix?: string;
}

export function createBullQueue({ redisUrl, prefix = 'store' }: BullQueueOptions): JobQueue {
  const connection = createRedisConnection(redisUrl);
  const queue = new Queue(QUEUE_NAME, {
    connection,
    prefix,
    defaultJobOptions: {
      attempts: JOB_ATTEMPTS,
      backoff: { type: 'exponential', delay: backoffDelay(1) },
      removeOnComplete: { age: 3_600, count: 1_000 },
      removeOnFail: { age: 7 * 86_400 },
    },
  });
  let events: QueueEvents | undefined;

  return {
    kind: 'bullmq',
    async enqueue(job: Job, options: EnqueueOptions = {}) {
      const parsed = JobSchema.parse(job);
      await queue.add(parsed.kind, parsed, {
        ...(options.jobId ? { jobId: options.jobId } : {}),
        ...(options.delayMs ? { delay: options.delayMs } : {}),
      });
    },
    async ping(timeoutMs = 5_000): Promise<HealthResult> {
      events ??= new QueueEvents(QUEUE_NAME, { connection: createRedisConnection(redisUrl), prefix });
      await events.waitUntilReady();
      const job = await queue.add(
        'health',
        { kind: 'health', requestedAt: new Date().toISOString(), nonce: randomUUID() },
        { attempts: 1, removeOnComplete: true, removeOnFail: true },
      );
      return (await job.waitUntilFinished(events, timeoutMs)) as HealthResult;
    },
    async close() {
      await events?.close();
      await queue.close();
      connection.disconnect();
    },
  };
}

export interface BullWorkerOptions extends BullQueueOptions {
  handlers: JobHandlers;
  logger: Logger;
  concurrency?: number;
}

/** The worker side: parses every payload with the contract before a handler sees it. */
export function createBullWorker({ redisUrl, prefix = 'store', handlers, logger, concurrency = 4 }: BullWorkerOptions) {
  const worker = new Worker(
    QUEUE_NAME,
    async (job) => {
      const parsed = JobSchema.safeParse(job.data);
      if (!parsed.success) {
        logger.error({ jobId: job.id, name: job.name, issues: parsed.error.issues }, 'rejected malformed job');
        throw new UnrecoverableError('malformed job payload');
      }
      // attemptsMade counts the runs that failed before this one.
      return runJob(handlers, parsed.data, { attempt: job.attemptsMade + 1, maxAttempts: job.opts.attempts ?? 1 });
    },
    { connection: createRedisConnection(redisUrl), prefix, concurrency },
  );
  worker.on('failed', (job, error) => {
    logger.warn({ jobId: job?.id, name: job?.name, attemptsMade: job?.attemptsMade, err: error }, 'job failed');
  });
  worker.on('error', (error) => logger.error({ err: error }, 'worker error'));
  return worker;
}
