import { randomUUID } from 'node:crypto';
import {
  createJobHandlers,
  createSmtpMailer,
  type JobQueue,
  type Mailer,
  type OutboxSweeper,
  silentLogger,
  startOutboxSweep,
} from '@store/core';
import { createBullQueue, createBullWorker } from '@store/core/bullmq';
import {
  dropTestQueue,
  eventually,
  hasRedisServer,
  type PrivateRedis,
  startPrivateRedis,
  startTestSmtpServer,
  type TestSmtpServer,
} from '@store/core/testing';
import { createTestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser, uniqueCustomer } from '../../test/accounts.ts';
import { buildTestApp, type TestDatabase } from '../../test/helper.ts';

const canRun = hasRedisServer();
if (!canRun) console.warn('redis-server is not installed: API answers during a Redis outage are NOT tested.');

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

describe.runIf(canRun)('accounts while Redis is down', () => {
  const prefix = `test-outage-${randomUUID()}`;
  let redis: PrivateRedis;
  let smtp: TestSmtpServer;
  let mailer: Mailer;
  let database: TestDatabase;
  let queue: JobQueue;
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let worker: ReturnType<typeof createBullWorker> | undefined;
  let sweeper: OutboxSweeper | undefined;

  beforeAll(async () => {
    // A Redis of this test's own: the shared one must never go down.
    redis = await startPrivateRedis();
    smtp = await startTestSmtpServer();
    mailer = createSmtpMailer({ smtpUrl: smtp.url, from: 'Giftstore <no-reply@store.example>' });
    database = await createTestDatabase();
    queue = createBullQueue({ redisUrl: redis.url, prefix, logger: silentLogger });
    ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' }, { database, queue });
  });
  afterAll(async () => {
    await sweeper?.stop();
    await worker?.close();
    await ctx?.close();
    await queue?.close();
    if (redis) await dropTestQueue(redis.url, prefix).catch(() => undefined);
    await redis?.stop();
    await mailer?.close();
    await smtp?.close();
    await database?.cleanup();
  });

  it('register and password reset answer at once, for known and unknown addresses; mail follows', async () => {
    const known = await registerUser(ctx.app);
    await redis.stop();

    const customer = uniqueCustomer();
    const registered = await timed(() =>
      call(ctx.app, 'POST', '/api/register', {
        body: { ...customer, password: 'Secret123', password_confirmation: 'Secret123' },
      }),
    );
    expect(registered.result.status).toBe(201);
    expect(registered.ms).toBeLessThan(1_000);

    for (let round = 0; round < 3; round++) {
      for (const [email, status] of [
        [known.email, 200],
        [`nobody-${randomUUID()}@example.com`, 422],
      ] as const) {
        const reset = await timed(() => call(ctx.app, 'POST', '/api/password-reset', { body: { email } }));
        expect(reset.result.status).toBe(status);
        expect(reset.ms).toBeLessThan(1_000);
      }
    }

    const addresses = [known.email, customer.email];
    const rows = () => database.prisma.outboundEmail.findMany({ where: { toAddress: { in: addresses } } });
    // Activation of both accounts and three resets: all recorded, none sent yet.
    expect((await rows()).map((row) => row.status)).toEqual(Array(5).fill('PENDING'));

    // Redis is back, empty: the jobs enqueued before the outage are gone, and the sweep makes up for them.
    await redis.start();
    worker = createBullWorker({
      redisUrl: redis.url,
      prefix,
      handlers: createJobHandlers({ sql: database.sql, logger: silentLogger, mailer }),
      logger: silentLogger,
    });
    await worker.waitUntilReady();
    sweeper = startOutboxSweep(
      { db: database.prisma, queue, logger: silentLogger },
      { intervalMs: 200, olderThanMs: 0 },
    );
    await eventually(async () => (await rows()).every((row) => row.status === 'SENT'), 20_000);
    const received = smtp.received.flatMap((mail) => mail.recipients);
    expect(received.filter((to) => to === customer.email)).toHaveLength(1);
    expect(received.filter((to) => to === known.email)).toHaveLength(4);
  });
});
