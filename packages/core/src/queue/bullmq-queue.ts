// The queue over Redis, for the full stack: its own export (`@store/core/bullmq`), not the package's
// index, so that a process without REDIS_URL (the embedded store) never loads BullMQ or ioredis.
import { randomUUID } from 'node:crypto';
import { type Job, JobSchema, PAYMENTS_QUEUE_NAME, QUEUE_NAME, QUEUE_NAMES, queueNameOf } from '@store/contract';
import { Queue, QueueEvents, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { withCurrentTrace } from '../observability/tracing.ts';
import type { Logger } from '../shared/logger.ts';
import { runJob } from './job-handlers.ts';
import type { HealthResult, JobHandlers } from './job-queue.ts';
import {
  backoffDelay,
  type EnqueueOptions,
  type EnqueueOutcome,
  JOB_ATTEMPTS,
  type JobQueue,
  type QueueDepth,
} from './job-queue.ts';

/**
 * BullMQ needs `maxRetriesPerRequest: null` on the connections its workers block on. Its errors go to
 * `onError` (ioredis would otherwise print every failed reconnect to stderr, outside the log).
 */
export function createRedisConnection(url: string, onError: (error: Error) => void = () => {}): Redis {
  const connection = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
  connection.on('error', onError);
  return connection;
}

/** How long a close waits for a Redis that went away before it lets go of its connections. */
export const CLOSE_WITHOUT_REDIS_MS = 1_000;
/**
 * The longest a close waits at all. A worker's close waits for the jobs it runs, which end on their
 * own (each has its timeouts): this only stops a shutdown from hanging for good.
 */
export const CLOSE_MAX_MS = 25_000;

/**
 * Waits for a BullMQ close, but not for ever: ioredis never ends a connection that lost Redis and
 * waits between reconnect attempts, and BullMQ's close waits for that end. So once `connection` has
 * not been ready for CLOSE_WITHOUT_REDIS_MS (or CLOSE_MAX_MS have passed) the close is abandoned and
 * the connection dropped: what it had not finished, Redis keeps (a stalled job runs again).
 */
async function closeWithin(closing: Promise<unknown>, connection: Redis, logger: Logger | undefined, what: string) {
  let settled = false;
  const done = closing.then(
    () => {
      settled = true;
    },
    (error: unknown) => {
      settled = true;
      logger?.warn({ err: error }, `${what}: close failed`);
    },
  );
  const started = Date.now();
  let awaySince: number | undefined;
  while (!settled) {
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 100))]);
    if (settled) break;
    const now = Date.now();
    awaySince = connection.status === 'ready' ? undefined : (awaySince ?? now);
    if ((awaySince !== undefined && now - awaySince >= CLOSE_WITHOUT_REDIS_MS) || now - started >= CLOSE_MAX_MS) {
      logger?.warn({ redis: connection.status }, `${what}: closed without waiting for Redis`);
      break;
    }
  }
  connection.disconnect();
}

/** Longest a health job can outlive the ping that sent it. */
const HEALTH_JOB_MAX_AGE_S = 60;
/**
 * The longest an enqueue waits for Redis. What a job stands for is stored first (an outbox row, a
 * payment event), so a job that could not be added is not lost: a sweep adds it later.
 */
export const ENQUEUE_TIMEOUT_MS = 2_000;

/**
 * The producer's connection fails fast while Redis is away: a command is refused at once instead of
 * waiting in ioredis's offline queue for the reconnect, and one that gets no answer times out.
 */
function createProducerConnection(url: string): Redis {
  const connection = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: ENQUEUE_TIMEOUT_MS,
    connectTimeout: ENQUEUE_TIMEOUT_MS,
  });
  // Its errors reach the log through each lane's 'error' event; this keeps ioredis off stderr.
  connection.on('error', () => {});
  return connection;
}

/** Rejects when `work` has not settled in time; BullMQ waits for a connection that is not up yet. */
async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms: Redis did not answer`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface BullQueueOptions {
  redisUrl: string;
  /** Prefix of every key, so tests and environments sharing a Redis do not see each other's jobs. */
  prefix?: string;
  /** Where the queue's connection errors go (an outage logs here instead of on stderr). */
  logger?: Logger;
  enqueueTimeoutMs?: number;
}

export function createBullQueue({
  redisUrl,
  prefix = 'store',
  logger,
  enqueueTimeoutMs = ENQUEUE_TIMEOUT_MS,
}: BullQueueOptions): JobQueue {
  const connection = createProducerConnection(redisUrl);
  const lane = (name: string) => {
    const queue = new Queue(name, {
      connection,
      prefix,
      defaultJobOptions: {
        attempts: JOB_ATTEMPTS,
        backoff: { type: 'exponential', delay: backoffDelay(1) },
        removeOnComplete: { age: 3_600, count: 1_000 },
        removeOnFail: { age: 7 * 86_400 },
      },
    });
    if (logger) queue.on('error', (error) => logger.warn({ err: error, queue: name }, 'queue connection error'));
    return queue;
  };
  // One producer connection for both lanes (the worker's side is what keeps them apart).
  const lanes = new Map<string, Queue>(QUEUE_NAMES.map((name) => [name, lane(name)]));
  const laneOf = (kind: Job['kind']) => lanes.get(queueNameOf(kind)) as Queue;
  let events: QueueEvents | undefined;
  let eventsConnection: Redis | undefined;

  /**
   * BullMQ ignores an add whose id it still holds, in whatever state: a finished job (kept a while
   * by removeOnComplete/removeOnFail) would swallow the id for days. So a finished job under the id
   * is removed first; one that waits, runs or will be retried absorbs the add.
   */
  async function add(job: Job, options: EnqueueOptions): Promise<EnqueueOutcome> {
    const queue = laneOf(job.kind);
    if (options.jobId && !options.newId) {
      const existing = await queue.getJob(options.jobId);
      if (existing) {
        const state = await existing.getState();
        if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return 'already-queued';
        // 0 means another run took the id meanwhile; the add below then collapses into its job.
        await queue.remove(options.jobId);
      }
    }
    await queue.add(job.kind, job, {
      ...(options.jobId ? { jobId: options.jobId } : {}),
      ...(options.delayMs ? { delay: options.delayMs } : {}),
    });
    return 'queued';
  }

  return {
    kind: 'bullmq',
    async enqueue(job: Job, options: EnqueueOptions = {}) {
      return within(add(withCurrentTrace(JobSchema.parse(job)), options), enqueueTimeoutMs, 'enqueue');
    },
    async depths(): Promise<QueueDepth[]> {
      const counts = await Promise.all(
        [...lanes].map(async ([name, lane]) => {
          const byState = await within(
            lane.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed'),
            enqueueTimeoutMs,
            'counting jobs',
          );
          return Object.entries(byState).map(([state, count]) => ({ queue: name, state, count }));
        }),
      );
      return counts.flat();
    },
    async ping(timeoutMs = 5_000): Promise<HealthResult> {
      if (!events) {
        // BullMQ reads events on a copy of this connection; this one only shows whether Redis is there.
        eventsConnection = createRedisConnection(redisUrl);
        events = new QueueEvents(queueNameOf('health'), { connection: eventsConnection, prefix });
        events.on('error', (error) => logger?.warn({ err: error }, 'queue events connection error'));
      }
      await events.waitUntilReady();
      // The job keeps its result until it has been read here. Removed on completion, a job the
      // worker finished before waitUntilFinished looked it up (and before its completed event
      // arrived) failed the wait with "Missing key for job" although it had run fine. A job this
      // side could not remove (still active at the timeout) goes with the age-based cleanup.
      const job = await laneOf('health').add(
        'health',
        { kind: 'health', requestedAt: new Date().toISOString(), nonce: randomUUID() },
        { attempts: 1, removeOnComplete: { age: HEALTH_JOB_MAX_AGE_S }, removeOnFail: { age: HEALTH_JOB_MAX_AGE_S } },
      );
      try {
        return (await job.waitUntilFinished(events, timeoutMs)) as HealthResult;
      } finally {
        // A waiting job is removed too, so unanswered pings do not pile up for a worker to come.
        await job.remove().catch(() => undefined);
      }
    },
    async close() {
      await Promise.all([
        events && eventsConnection ? closeWithin(events.close(), eventsConnection, logger, 'queue events') : undefined,
        closeWithin(Promise.all([...lanes.values()].map((lane) => lane.close())), connection, logger, 'queue'),
      ]);
    },
  };
}

/** BullMQ's own default for both: a dead worker's job is taken back within about a minute. */
export const JOB_LOCK_MS = 30_000;

export interface BullWorkerOptions {
  redisUrl: string;
  prefix?: string;
  handlers: JobHandlers;
  logger: Logger;
  /** Jobs run at once in the lane of mail and health jobs (mostly waiting on the network). */
  concurrency?: number;
  /**
   * Payment events applied at once. Each is a few short transactions on the database, so more of
   * them at once than the database has cores only makes them wait on each other and on the API's
   * requests for the same CPUs; a payment event never waits behind a slow mail server.
   */
  paymentConcurrency?: number;
  /**
   * How long a running job stays locked by a worker that stopped renewing the lock (it died), and
   * how often workers look for such stalled jobs; a job stalled twice fails (BullMQ's maxStalledCount).
   */
  lockDurationMs?: number;
}

export const WORKER_CONCURRENCY = 4;
export const PAYMENT_WORKER_CONCURRENCY = 2;

/** The running worker: one BullMQ worker per lane, started and closed together. */
export interface BullWorker {
  waitUntilReady(): Promise<void>;
  close(): Promise<void>;
}

/** The worker side of both lanes: parses every payload with the contract before a handler sees it. */
export function createBullWorker({
  redisUrl,
  prefix = 'store',
  handlers,
  logger,
  concurrency = WORKER_CONCURRENCY,
  paymentConcurrency = PAYMENT_WORKER_CONCURRENCY,
  lockDurationMs = JOB_LOCK_MS,
}: BullWorkerOptions): BullWorker {
  const lane = (name: string, laneConcurrency: number) => {
    const connection = createRedisConnection(redisUrl, (error) =>
      logger.warn({ err: error, queue: name }, 'worker connection error'),
    );
    const worker = new Worker(
      name,
      async (job) => {
        const parsed = JobSchema.safeParse(job.data);
        if (!parsed.success) {
          logger.error({ jobId: job.id, name: job.name, issues: parsed.error.issues }, 'rejected malformed job');
          throw new UnrecoverableError('malformed job payload');
        }
        // attemptsMade counts the runs that failed before this one.
        return runJob(handlers, parsed.data, { attempt: job.attemptsMade + 1, maxAttempts: job.opts.attempts ?? 1 });
      },
      {
        connection,
        prefix,
        concurrency: laneConcurrency,
        lockDuration: lockDurationMs,
        stalledInterval: lockDurationMs,
      },
    );
    worker.on('failed', (job, error) => {
      logger.warn({ jobId: job?.id, name: job?.name, attemptsMade: job?.attemptsMade, err: error }, 'job failed');
    });
    worker.on('error', (error) => logger.error({ err: error, queue: name }, 'worker error'));
    return { worker, connection };
  };
  // A payment.event job left in the first lane by an earlier version is still run there.
  const workers = [lane(QUEUE_NAME, concurrency), lane(PAYMENTS_QUEUE_NAME, paymentConcurrency)];
  return {
    async waitUntilReady() {
      await Promise.all(workers.map(({ worker }) => worker.waitUntilReady()));
    },
    async close() {
      // BullMQ leaves open a connection it was handed; these are the workers' alone.
      await Promise.all(
        workers.map(({ worker, connection }) =>
          closeWithin(worker.close(), connection, logger, `worker ${worker.name}`),
        ),
      );
    },
  };
}
