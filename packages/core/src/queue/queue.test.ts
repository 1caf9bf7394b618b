import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { Worker as Thread } from 'node:worker_threads';
import { type Job, QUEUE_NAME } from '@store/contract';
import { createTestDatabase } from '@store/db/testing';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNoMailer } from '../mail/mailer.ts';
import { silentLogger } from '../shared/logger.ts';
import { dropTestQueue, freePort, hasRedisServer, startPrivateRedis } from '../testing.ts';
import { createBullQueue, createBullWorker, createRedisConnection, ENQUEUE_TIMEOUT_MS } from './bullmq-queue.ts';
import { createInProcessQueue } from './in-process-queue.ts';
import { createJobHandlers } from './job-handlers.ts';
import type { HealthResult, JobContext, JobHandlers } from './job-queue.ts';
import { backoffDelay, JOB_ATTEMPTS } from './job-queue.ts';

const healthJob = (): Job => ({ kind: 'health', requestedAt: new Date().toISOString(), nonce: randomUUID() });

/** Handlers that record what they ran (and when, with which context) and fail the first `failures` times. */
function recordingHandlers(failures = 0) {
  const seen: string[] = [];
  const runs: { at: number; context?: JobContext }[] = [];
  let calls = 0;
  const handlers: JobHandlers = {
    async health(job, context) {
      calls++;
      runs.push({ at: Date.now(), context });
      if (calls <= failures) throw new Error(`planned failure ${calls}`);
      seen.push(job.nonce);
      return { nonce: job.nonce, handledAt: new Date().toISOString(), database: 'ok' } satisfies HealthResult;
    },
    async 'email.send'() {
      throw new Error('not used here');
    },
    async 'payment.event'() {
      throw new Error('not used here');
    },
    async 'payment.refund'() {
      throw new Error('not used here');
    },
  };
  return { handlers, seen, runs, calls: () => calls };
}

async function eventually(check: () => boolean, timeoutMs = 10_000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('createJobHandlers', () => {
  it('the health handler reaches the database', async () => {
    const database = await createTestDatabase();
    try {
      const handlers = createJobHandlers({
        sql: database.sql,
        logger: silentLogger,
        mailer: createNoMailer(),
      });
      const job = healthJob();
      const result = (await handlers.health(job as Extract<Job, { kind: 'health' }>)) as HealthResult;
      expect(result).toMatchObject({ nonce: (job as { nonce: string }).nonce, database: 'ok' });
    } finally {
      await database.cleanup();
    }
  });
});

describe('in-process queue', () => {
  it('runs an enqueued job and answers a ping', async () => {
    const { handlers, seen } = recordingHandlers();
    const queue = createInProcessQueue(handlers, silentLogger);
    const job = healthJob();
    await queue.enqueue(job);
    await eventually(() => seen.includes((job as { nonce: string }).nonce));
    const result = await queue.ping();
    expect(seen).toContain(result.nonce);
    await queue.close();
  });

  it('retries a failing job with the same backoff as BullMQ until it succeeds', async () => {
    const recorder = recordingHandlers(2);
    const queue = createInProcessQueue(recorder.handlers, silentLogger);
    await queue.enqueue(healthJob());
    await eventually(() => recorder.seen.length === 1, 10_000);
    expect(recorder.calls()).toBe(3);
    const [first, second, third] = recorder.runs;
    expect(first?.context).toEqual({ attempt: 1, maxAttempts: JOB_ATTEMPTS });
    expect(third?.context).toEqual({ attempt: 3, maxAttempts: JOB_ATTEMPTS });
    // 1 s after the first failure, 2 s after the second (BullMQ's exponential backoff from 1 s).
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(backoffDelay(1) - 20);
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(backoffDelay(2) - 20);
    expect(backoffDelay(2)).toBe(2 * backoffDelay(1));
    await queue.close();
  });

  it('enqueues a job id once', async () => {
    const { handlers, seen } = recordingHandlers();
    const queue = createInProcessQueue(handlers, silentLogger);
    await expect(queue.enqueue(healthJob(), { jobId: 'same' })).resolves.toBe('queued');
    await expect(queue.enqueue(healthJob(), { jobId: 'same' })).resolves.toBe('already-queued');
    await eventually(() => seen.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toHaveLength(1);
    await queue.close();
  });

  it('frees a job id once its job is done, so a later enqueue runs again', async () => {
    const { handlers, seen } = recordingHandlers();
    const queue = createInProcessQueue(handlers, silentLogger);
    await queue.enqueue(healthJob(), { jobId: 'again' });
    await eventually(() => seen.length === 1);
    await expect(queue.enqueue(healthJob(), { jobId: 'again' })).resolves.toBe('queued');
    await eventually(() => seen.length === 2);
    await queue.close();
  });

  it('refuses a malformed job before it is queued', async () => {
    const queue = createInProcessQueue(recordingHandlers().handlers, silentLogger);
    await expect(queue.enqueue({ kind: 'health', nonce: '' } as unknown as Job)).rejects.toThrow();
    await queue.close();
  });
});

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  console.warn('REDIS_URL is not set: the BullMQ queue tests are NOT run (CI sets it).');
}

/**
 * A BullMQ worker answering health jobs on a thread of its own (an event loop apart from the
 * test's), built from BullMQ itself so that it needs no TypeScript loader.
 */
function startHealthWorkerThread(url: string, prefix: string) {
  const require = createRequire(import.meta.url);
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { Worker } = require(workerData.bullmq);
    const { Redis } = require(workerData.ioredis);
    const worker = new Worker(
      workerData.queue,
      async (job) => ({ nonce: job.data.nonce, handledAt: new Date().toISOString(), database: 'ok' }),
      { connection: new Redis(workerData.url, { maxRetriesPerRequest: null }), prefix: workerData.prefix, concurrency: 8 },
    );
    worker.waitUntilReady().then(() => parentPort.postMessage('ready'));
    parentPort.on('message', async () => {
      await worker.close();
      process.exit(0);
    });`;
  const thread = new Thread(source, {
    eval: true,
    workerData: {
      bullmq: require.resolve('bullmq'),
      ioredis: require.resolve('ioredis'),
      url,
      prefix,
      queue: QUEUE_NAME,
    },
  });
  const ready = new Promise<void>((resolve, reject) => {
    thread.once('message', () => resolve());
    thread.once('error', reject);
  });
  return {
    ready,
    async stop() {
      const exited = new Promise((resolve) => thread.once('exit', resolve));
      thread.postMessage('stop');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      await thread.terminate();
    },
  };
}
describe('BullMQ queue without Redis', () => {
  it('gives up an enqueue within its timeout instead of waiting for Redis', async () => {
    const port = await freePort();
    const queue = createBullQueue({ redisUrl: `redis://127.0.0.1:${port}`, prefix: 'nowhere', logger: silentLogger });
    try {
      const started = Date.now();
      await expect(queue.enqueue(healthJob(), { jobId: 'x' })).rejects.toThrow(/timed out|connect|writeable/i);
      expect(Date.now() - started).toBeLessThan(ENQUEUE_TIMEOUT_MS + 500);
    } finally {
      await queue.close();
    }
  });
});

describe.runIf(hasRedisServer())('BullMQ queue when Redis goes away', () => {
  it('closes at once after a ping, and logs the lost connection instead of printing it', async () => {
    const redis = await startPrivateRedis();
    const logged: unknown[] = [];
    const logger = { ...silentLogger, warn: (entry: unknown) => void logged.push(entry) } as typeof silentLogger;
    const worker = createBullWorker({
      redisUrl: redis.url,
      prefix: 'gone',
      handlers: recordingHandlers().handlers,
      logger,
    });
    const queue = createBullQueue({ redisUrl: redis.url, prefix: 'gone', logger });
    const printed: string[] = [];
    const originalError = console.error;
    console.error = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
    try {
      await worker.waitUntilReady();
      await queue.ping(10_000);
      await redis.stop();
      // Long enough for the event connection to notice and retry a few times.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const started = Date.now();
      await Promise.all([queue.close(), worker.close()]);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(printed.filter((line) => /Unhandled error event/.test(line))).toEqual([]);
      expect(logged.length).toBeGreaterThan(0);
    } finally {
      console.error = originalError;
      await redis.stop();
    }
  }, 20_000);
});

describe.runIf(redisUrl)('BullMQ queue on Redis', () => {
  const prefix = `test-${randomUUID()}`;
  const recorder = recordingHandlers();
  let worker: ReturnType<typeof createBullWorker>;

  beforeAll(async () => {
    worker = createBullWorker({ redisUrl: redisUrl!, prefix, handlers: recorder.handlers, logger: silentLogger });
    await worker.waitUntilReady();
  });
  afterAll(async () => {
    await worker?.close();
  });

  it('a ping goes through Redis to the worker and back', async () => {
    const queue = createBullQueue({ redisUrl: redisUrl!, prefix });
    try {
      const result = await queue.ping(10_000);
      expect(recorder.seen).toContain(result.nonce);
    } finally {
      await queue.close();
    }
  });

  it('answers many pings at once, with the worker on another thread, none lost to a race', async () => {
    // The worker runs apart from this event loop, as the worker process does: it can finish a
    // health job before this side has looked at it, which is the race a ping must survive.
    const thread = startHealthWorkerThread(redisUrl!, prefix);
    const queue = createBullQueue({ redisUrl: redisUrl!, prefix });
    try {
      await thread.ready;
      const failures: string[] = [];
      for (let round = 0; round < 5; round += 1) {
        const results = await Promise.allSettled(Array.from({ length: 100 }, () => queue.ping(10_000)));
        for (const result of results) if (result.status === 'rejected') failures.push(String(result.reason));
      }
      expect(failures).toEqual([]);
    } finally {
      await queue.close();
      await thread.stop();
    }
  });

  it('leaves no health job behind', async () => {
    const queue = createBullQueue({ redisUrl: redisUrl!, prefix });
    const connection = createRedisConnection(redisUrl!);
    const raw = new Queue(QUEUE_NAME, { connection, prefix });
    try {
      await queue.ping(10_000);
      const counts = await raw.getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed');
      expect(counts).toEqual({ completed: 0, failed: 0, waiting: 0, active: 0, delayed: 0 });
    } finally {
      await raw.close();
      connection.disconnect();
      await queue.close();
    }
  });

  it('the worker rejects a malformed payload without retrying it', async () => {
    const connection = createRedisConnection(redisUrl!);
    const raw = new Queue(QUEUE_NAME, { connection, prefix });
    const events = new QueueEvents(QUEUE_NAME, { connection: createRedisConnection(redisUrl!), prefix });
    try {
      await events.waitUntilReady();
      const job = await raw.add('health', { kind: 'health', nonce: 42 }, { attempts: 5 });
      await expect(job.waitUntilFinished(events, 10_000)).rejects.toThrow(/malformed/);
      const stored = await raw.getJob(job.id!);
      expect(stored?.attemptsMade).toBe(1);
    } finally {
      await events.close();
      await raw.close();
      connection.disconnect();
    }
  });
});

describe.runIf(redisUrl)('BullMQ lanes', () => {
  it('applies a payment event while every mail slot is held by a send that does not end', async () => {
    const prefix = `test-lanes-${randomUUID()}`;
    const mailStarted: string[] = [];
    const applied: string[] = [];
    let releaseMail: () => void = () => {};
    const mailHeld = new Promise<void>((resolve) => {
      releaseMail = resolve;
    });
    const handlers: JobHandlers = {
      async health(job) {
        return { nonce: job.nonce, handledAt: new Date().toISOString(), database: 'ok' } satisfies HealthResult;
      },
      // A mail server that accepted the connection and went quiet.
      async 'email.send'(job) {
        mailStarted.push(job.emailId);
        await mailHeld;
      },
      async 'payment.event'(job) {
        applied.push(job.eventId);
      },
      async 'payment.refund'() {
        throw new Error('not used here');
      },
    };
    const worker = createBullWorker({
      redisUrl: redisUrl!,
      prefix,
      handlers,
      logger: silentLogger,
      concurrency: 2,
      paymentConcurrency: 1,
    });
    const queue = createBullQueue({ redisUrl: redisUrl!, prefix });
    try {
      await worker.waitUntilReady();
      for (let index = 0; index < 4; index += 1) await queue.enqueue({ kind: 'email.send', emailId: randomUUID() });
      await eventually(() => mailStarted.length === 2);
      const eventId = randomUUID();
      await queue.enqueue({ kind: 'payment.event', eventId });
      await eventually(() => applied.includes(eventId), 5_000);
      // The mail lane is still full: the two other emails wait for a free slot of their own lane.
      expect(mailStarted).toHaveLength(2);
    } finally {
      releaseMail();
      await worker.close();
      await queue.close();
      await dropTestQueue(redisUrl!, prefix);
    }
  });
});
