import { randomBytes, randomUUID } from 'node:crypto';
import { getPriority } from 'node:os';
import { recordEmail } from '@store/core';
import { createBullQueue } from '@store/core/bullmq';
import { dropTestQueue, eventually, startTestSmtpServer, type TestSmtpServer } from '@store/core/testing';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerProcesses, logEntries } from '../test/worker-process.ts';

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!databaseUrl || !redisUrl) {
  console.warn('DATABASE_URL or REDIS_URL is not set: the worker is NOT killed mid-send here (CI sets both).');
}

describe.runIf(databaseUrl && redisUrl)('a worker killed twice while it sends the same email', () => {
  const prefix = `test-crash-${randomUUID()}`;
  let database: TestDatabase;
  let smtp: TestSmtpServer;
  const workers = createWorkerProcesses();

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startTestSmtpServer();
  });
  afterAll(async () => {
    await workers.killAll();
    await dropTestQueue(redisUrl!, prefix);
    await smtp?.close();
    await database?.cleanup();
  });

  const startWorkerProcess = () =>
    workers.start({
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      SMTP_URL: smtp.url,
      QUEUE_PREFIX: prefix,
      // Everything else that waits for a dead worker, shortened so the test takes seconds, not minutes.
      OUTBOX_SWEEP_INTERVAL_MS: '500',
      SMTP_SEND_TIMEOUT_MS: '3000',
    });

  const row = (id: string) => database.prisma.outboundEmail.findUniqueOrThrow({ where: { id } });
  const entries = logEntries<{ msg?: string; emailIds?: string[]; err?: { message?: string } }>;

  it('is sent once the worker runs again, with every attempt counted', { timeout: 60_000 }, async () => {
    const started = Date.now();
    const token = randomBytes(32).toString('base64url');
    const to = `crash-${randomUUID()}@example.com`;
    const id = await recordEmail(database.sql, {
      to,
      template: 'password-reset',
      locale: 'en',
      data: { name: 'Crash', link: `https://shop.example/password-reset/${token}`, expiresInMinutes: 60 },
    });
    // The server takes the first two messages and never answers: each send hangs in DATA until its
    // worker is killed.
    smtp.holdData(2);
    const queue = createBullQueue({ redisUrl: redisUrl!, prefix });
    try {
      await expect(queue.enqueue({ kind: 'email.send', emailId: id }, { jobId: id })).resolves.toBe('queued');
    } finally {
      await queue.close();
    }

    const first = startWorkerProcess();
    await eventually(() => smtp.dataStarted === 1, 20_000);
    // Background work: the worker runs below the API's CPU priority (WORKER_NICE, 10 by default).
    expect(getPriority(first.child.pid)).toBe(Math.max(getPriority(), 10));
    await workers.kill(first);
    expect(await row(id)).toMatchObject({ status: 'PENDING', attempts: 1 });

    // BullMQ finds the job stalled and hands it to the next worker, which sends again once the dead
    // worker's claim on the row has lapsed.
    const second = startWorkerProcess();
    await eventually(() => smtp.dataStarted === 2, 25_000);
    await workers.kill(second);
    expect(await row(id)).toMatchObject({ status: 'PENDING', attempts: 2 });
    expect(smtp.received).toHaveLength(0);

    // Stalled twice, the job fails for good; the sweep must queue a new one, or the row stays PENDING.
    const third = startWorkerProcess();
    await smtp.waitFor(1, 25_000);
    await eventually(async () => (await row(id)).status === 'SENT', 5_000);
    const sent = await row(id);
    expect(sent).toMatchObject({ status: 'SENT', attempts: 3 });
    expect(JSON.stringify(sent)).not.toContain(token);
    expect(smtp.received.map((mail) => mail.recipients)).toEqual([[to]]);
    expect(smtp.received[0]?.parsed.text).toContain(`/password-reset/${token}`);

    // The log says what happened: the job failed as stalled, and the sweep queued the email again.
    const log = entries(third);
    expect(log.some((entry) => entry.msg === 'job failed' && /stalled/.test(entry.err?.message ?? ''))).toBe(true);
    expect(log.some((entry) => entry.emailIds?.includes(id))).toBe(true);

    await workers.kill(third, 'SIGTERM');
    expect(third.child.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
