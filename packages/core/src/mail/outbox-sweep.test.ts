import { randomUUID } from 'node:crypto';
import type { Job } from '@store/contract';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullQueue, createBullWorker } from '../queue/bullmq-queue.ts';
import { createInProcessQueue } from '../queue/in-process-queue.ts';
import { createJobHandlers } from '../queue/job-handlers.ts';
import type { EnqueueOptions, JobQueue } from '../queue/job-queue.ts';
import { silentLogger } from '../shared/logger.ts';
import { eventually, startTestSmtpServer } from '../testing.ts';
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
    },
    ping: () => Promise.reject(new Error('not used')),
    async close() {},
  };
  return { queue, enqueued };
}

/** An email recorded `ageMs` ago whose job was never enqueued, as if the process died after the commit. */
async function lostEmail(ageMs: number, status: 'PENDING' | 'SENT' | 'FAILED' = 'PENDING') {
  const to = `lost-${randomUUID()}@example.com`;
  const id = await recordEmail(database.prisma, {
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

    expect(await sweepOutbox({ db: database.prisma, queue })).toBe(2);
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
    expect(await sweepOutbox({ db: database.prisma, queue }, { limit: 1 })).toBe(1);
    expect(enqueued.map((entry) => entry.options?.jobId)).toEqual([oldest.id]);
  });

  it('a lost email is delivered once by the running sweep, however often it sweeps', async () => {
    await database.prisma.outboundEmail.deleteMany();
    const lost = await lostEmail(2 * 60_000);
    let sends = 0;
    const outbox = createOutboxMailer(silentLogger);
    const countingMailer = {
      ...outbox,
      async send(message: Parameters<typeof outbox.send>[0]) {
        sends++;
        await new Promise((resolve) => setTimeout(resolve, 100));
        await outbox.send(message);
      },
    };
    const queue = createInProcessQueue(
      createJobHandlers({ db: database.prisma, logger: silentLogger, mailer: countingMailer }),
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
  it('a lost email reaches the SMTP server once, even when swept repeatedly', async () => {
    await database.prisma.outboundEmail.deleteMany();
    const smtp = await startTestSmtpServer();
    const mailer = createSmtpMailer({ smtpUrl: smtp.url, from: 'Gift Store <no-reply@giftstore.example>' });
    const prefix = `test-sweep-${randomUUID()}`;
    const worker = createBullWorker({
      redisUrl: redisUrl!,
      prefix,
      handlers: createJobHandlers({ db: database.prisma, logger: silentLogger, mailer }),
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
