import { randomUUID } from 'node:crypto';
import { type Job, QUEUE_NAME } from '@store/contract';
import { createTestDatabase } from '@store/db/testing';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxMailer } from '../mail/mailer.ts';
import { silentLogger } from '../shared/logger.ts';
import { createBullQueue, createBullWorker, createRedisConnection } from './bullmq-queue.ts';
import { createInProcessQueue } from './in-process-queue.ts';
import { createJobHandlers, type HealthResult, type JobContext, type JobHandlers } from './job-handlers.ts';
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
        db: database.prisma,
        logger: silentLogger,
        mailer: createOutboxMailer(silentLogger),
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
    await queue.enqueue(healthJob(), { jobId: 'same' });
    await queue.enqueue(healthJob(), { jobId: 'same' });
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
    await queue.enqueue(healthJob(), { jobId: 'again' });
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
