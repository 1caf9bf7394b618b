import { randomUUID } from 'node:crypto';
import { type Job, QUEUE_NAME } from '@store/contract';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullQueue, createBullWorker, createRedisConnection } from '../queue/bullmq-queue.ts';
import { createInProcessQueue } from '../queue/in-process-queue.ts';
import { createJobHandlers } from '../queue/job-handlers.ts';
import type { EnqueueOptions, JobQueue } from '../queue/job-queue.ts';
import { silentLogger } from '../shared/logger.ts';
import { eventually, startTestSmtpServer } from '../testing.ts';
import { createDevMailbox } from './dev-outbox.ts';
import { createOutboxMailer, createSmtpMailer } from './mailer.ts';
import { recordEmail } from './outbox.ts';
import { startOutboxSweep, sweepOutbox } from './outbox-sweep.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.cleanup();
});

/** A queue that only remembers what it was given. */
function recordingQueue() {
  const enqueued: { job: Job; options?: EnqueueOptions }[] = [];
  const queue: JobQueue = {
    kind: 'in-process',
    async enqueue(job, options) {
      enqueued.push({ job, options });
      return 'queued';
    },
    ping: () => Promise.reject(new Error('not used')),
    async close() {},
  };
  return { queue, enqueued };
}

/** An email recorded `ageMs` ago whose job was never enqueued, as if the process died after the commit. */
async function lostEmail(ageMs: number, status: 'PENDING' | 'SENT' | 'FAILED' = 'PENDING') {
  const to = `lost-${randomUUID()}@example.com`;
  const id = await recordEmail(database.sql, {
    to,
    template: 'password-reset',
    locale: 'en',
    data: { name: 'Lost', link: `https://shop.example/password-reset/${randomUUID()}`, expiresInMinutes: 60 },
  });
  await database.prisma.outboundEmail.update({
    where: { id },
    data: { createdAt: new Date(Date.now() - ageMs), status },
  });
  return { id, to };
}

const row = (id: string) => database.prisma.outboundEmail.findUniqueOrThrow({ where: { id } });

describe('outbox sweep', () => {
  it('re-enqueues PENDING rows older than a minute, with the row id as job id, and nothing else', async () => {
    await database.prisma.outboundEmail.deleteMany();
    const old = await lostEmail(2 * 60_000);
    const older = await lostEmail(5 * 60_000);
    await lostEmail(5_000);
    await lostEmail(2 * 60_000, 'SENT');
    await lostEmail(2 * 60_000, 'FAILED');
    const { queue, enqueued } = recordingQueue();

    expect(await sweepOutbox({ db: database.prisma, queue })).toEqual({
      requeued: [older.id, old.id],
      alreadyQueued: 0,
    });
    expect(enqueued).toEqual([
      { job: { kind: 'email.send', emailId: older.id }, options: { jobId: older.id } },
      { job: { kind: 'email.send', emailId: old.id }, options: { jobId: old.id } },
    ]);
  });

  it('takes at most `limit` rows a sweep, oldest first', async () => {
    await database.prisma.outboundEmail.deleteMany();
    const oldest = await lostEmail(10 * 60_000);
    await lostEmail(3 * 60_000);
    const { queue, enqueued } = recordingQueue();
    expect(await sweepOutbox({ db: database.prisma, queue }, { limit: 1 })).toEqual({
      requeued: [oldest.id],
      alreadyQueued: 0,
    });
    expect(enqueued.map((entry) => entry.options?.jobId)).toEqual([oldest.id]);
  });

  it('a lost email is delivered once by the running sweep, however often it sweeps', async () => {
    await database.prisma.outboundEmail.deleteMany();
    const lost = await lostEmail(2 * 60_000);
    let sends = 0;
    const outbox = createOutboxMailer(createDevMailbox(), silentLogger);
    const countingMailer = {
      ...outbox,
      async send(message: Parameters<typeof outbox.send>[0]) {
        sends++;
        await new Promise((resolve) => setTimeout(resolve, 100));
        await outbox.send(message);
      },
    };
    const queue = createInProcessQueue(
      createJobHandlers({ sql: database.sql, logger: silentLogger, mailer: countingMailer }),
      silentLogger,
    );
    const sweeper = startOutboxSweep({ db: database.prisma, queue, logger: silentLogger }, { intervalMs: 20 });
    try {
      await eventually(async () => (await row(lost.id)).status === 'SENT');
      // Further sweeps find nothing PENDING.
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(sends).toBe(1);
      expect(await row(lost.id)).toMatchObject({ status: 'SENT', attempts: 1 });
    } finally {
      await sweeper.stop();
      await queue.close();
    }
  });

  it('tells a job it queued from one that was already queued, and logs what it did', async () => {
    await database.prisma.outboundEmail.deleteMany();
    const lost = await lostEmail(2 * 60_000);
    const waiting = await lostEmail(3 * 60_000);
    // Jobs run until released, so each one stays queued meanwhile.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const queue = createInProcessQueue(
      {
        health: () => released,
        'email.send': () => released,
        'payment.event': () => released,
        'payment.refund': () => released,
      },
      silentLogger,
    );
    const lines: { obj: object; msg?: string }[] = [];
    const logger = { ...silentLogger, info: (obj: object, msg?: string) => lines.push({ obj, msg }) };
    try {
      await queue.enqueue({ kind: 'email.send', emailId: waiting.id }, { jobId: waiting.id });
      const sweeper = startOutboxSweep({ db: database.prisma, queue, logger }, { intervalMs: 60_000 });
      await sweeper.stop();
      expect(lines).toEqual([
        { obj: { emailIds: [lost.id], alreadyQueued: 1 }, msg: 'outbox sweep re-enqueued emails that had no job' },
      ]);
      expect(await sweepOutbox({ db: database.prisma, queue })).toEqual({ requeued: [], alreadyQueued: 2 });
    } finally {
      release();
      await queue.close();
    }
  });

  it('keeps sweeping after a failed sweep', async () => {
    let calls = 0;
    const failing: JobQueue = {
      ...recordingQueue().queue,
      async enqueue() {
        calls++;
        throw new Error('redis is down');
      },
    };
    await database.prisma.outboundEmail.deleteMany();
    await lostEmail(2 * 60_000);
    const sweeper = startOutboxSweep({ db: database.prisma, queue: failing, logger: silentLogger }, { intervalMs: 20 });
    try {
      await eventually(() => calls >= 2);
    } finally {
      await sweeper.stop();
    }
  });
});

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn('REDIS_URL is not set: the outbox sweep through BullMQ is NOT tested (CI sets it).');

describe.runIf(redisUrl)('outbox sweep with BullMQ on Redis', () => {
  it('replaces a job that failed without sending (as a job stalled twice does) and gets the email sent', async () => {
    await database.prisma.outboundEmail.deleteMany();
    const smtp = await startTestSmtpServer();
    const mailer = createSmtpMailer({ smtpUrl: smtp.url, from: 'Giftstore <no-reply@giftstore.example>' });
    const prefix = `test-sweep-${randomUUID()}`;
    const connection = createRedisConnection(redisUrl!);
    const raw = new Queue(QUEUE_NAME, { connection, prefix });
    // Fails every job the way BullMQ fails one whose worker died twice mid-run.
    const stalling = new Worker(
      QUEUE_NAME,
      async () => {
        throw new Error('job stalled more than allowable limit');
      },
      { connection: createRedisConnection(redisUrl!), prefix },
    );
    const queue = createBullQueue({ redisUrl: redisUrl!, prefix });
    let worker: ReturnType<typeof createBullWorker> | undefined;
    try {
      const lost = await lostEmail(2 * 60_000);
      await raw.add('email.send', { kind: 'email.send', emailId: lost.id }, { jobId: lost.id, attempts: 1 });
      await eventually(async () => (await (await raw.getJob(lost.id))?.getState()) === 'failed');
      await stalling.close();
      expect(await row(lost.id)).toMatchObject({ status: 'PENDING' });

      worker = createBullWorker({
        redisUrl: redisUrl!,
        prefix,
        handlers: createJobHandlers({ sql: database.sql, logger: silentLogger, mailer }),
        logger: silentLogger,
      });
      await worker.waitUntilReady();
      expect(await sweepOutbox({ db: database.prisma, queue })).toEqual({ requeued: [lost.id], alreadyQueued: 0 });
      await smtp.waitFor(1);
      await eventually(async () => (await row(lost.id)).status === 'SENT');
      expect(smtp.received[0]?.recipients).toEqual([lost.to]);
    } finally {
      await worker?.close();
      await stalling.close();
      await queue.close();
      await raw.close();
      connection.disconnect();
      await mailer.close();
      await smtp.close();
    }
  });

  it('leaves a job that waits alone and says it was already queued', async () => {
    await database.prisma.outboundEmail.deleteMany();
    const prefix = `test-sweep-${randomUUID()}`;
    const queue = createBullQueue({ redisUrl: redisUrl!, prefix });
    try {
      const lost = await lostEmail(2 * 60_000);
      expect(await sweepOutbox({ db: database.prisma, queue })).toEqual({ requeued: [lost.id], alreadyQueued: 0 });
      // No worker runs: the job waits, and sweeping again adds nothing.
      expect(await sweepOutbox({ db: database.prisma, queue })).toEqual({ requeued: [], alreadyQueued: 1 });
    } finally {
      await queue.close();
    }
  });

  it('a lost email reaches the SMTP server once, even when swept repeatedly', async () => {
    await database.prisma.outboundEmail.deleteMany();
    const smtp = await startTestSmtpServer();
    const mailer = createSmtpMailer({ smtpUrl: smtp.url, from: 'Giftstore <no-reply@giftstore.example>' });
    const prefix = `test-sweep-${randomUUID()}`;
    const worker = createBullWorker({
      redisUrl: redisUrl!,
      prefix,
      handlers: createJobHandlers({ sql: database.sql, logger: silentLogger, mailer }),
      logger: silentLogger,
    });
    const queue = createBullQueue({ redisUrl: redisUrl!, prefix });
    try {
      await worker.waitUntilReady();
      smtp.delayAccept(200);
      const lost = await lostEmail(2 * 60_000);
      await Promise.all([
        sweepOutbox({ db: database.prisma, queue }),
        sweepOutbox({ db: database.prisma, queue }),
        sweepOutbox({ db: database.prisma, queue }),
      ]);
      await smtp.waitFor(1);
      await eventually(async () => (await row(lost.id)).status === 'SENT');
      await sweepOutbox({ db: database.prisma, queue });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]?.recipients).toEqual([lost.to]);
    } finally {
      await queue.close();
      await worker.close();
      await mailer.close();
      await smtp.close();
    }
  });
});
