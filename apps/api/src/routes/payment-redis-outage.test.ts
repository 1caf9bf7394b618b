import { randomBytes, randomUUID } from 'node:crypto';
import {
  createJobHandlers,
  createLedgerService,
  createNoMailer,
  createOrderService,
  createPaymentEventProcessor,
  createPromoService,
  type JobQueue,
  type PaymentSweeper,
  silentLogger,
  startPaymentSweep,
} from '@store/core';
import { createBullQueue, createBullWorker } from '@store/core/bullmq';
import { dropTestQueue, eventually, hasRedisServer, type PrivateRedis, startPrivateRedis } from '@store/core/testing';
import { createCodeCipher, devCodeKey } from '@store/db';
import { seedDemo } from '@store/db/seed';
import { createTestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestDatabase } from '../../test/helper.ts';
import { customerWithCardPayment, sandboxEventBody, sendCallback } from '../../test/payments.ts';

const canRun = hasRedisServer() && Boolean(process.env.DATABASE_URL);
if (!canRun) {
  console.warn(
    'redis-server or DATABASE_URL is missing: callbacks during a Redis outage are NOT tested (CI has both).',
  );
}

describe.runIf(canRun)('payment callbacks while Redis is down', () => {
  const prefix = `test-pay-outage-${randomUUID()}`;
  let redis: PrivateRedis;
  let database: TestDatabase;
  let queue: JobQueue;
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let worker: ReturnType<typeof createBullWorker>;
  let sweeper: PaymentSweeper | undefined;

  beforeAll(async () => {
    // A Redis of this test's own: the shared one must never go down.
    redis = await startPrivateRedis();
    database = await createTestDatabase();
    await seedDemo(database.prisma, { cipher: createCodeCipher(devCodeKey()) });
    queue = createBullQueue({ redisUrl: redis.url, prefix, logger: silentLogger });
    ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' }, { database, queue });
    // The worker of the full stack, running through the outage.
    const orders = createOrderService({
      sql: database.sql,
      promo: createPromoService({ db: database.prisma, sql: database.sql }),
      queue,
      publicUrl: 'http://localhost:3000',
    });
    worker = createBullWorker({
      redisUrl: redis.url,
      prefix,
      handlers: createJobHandlers({
        sql: database.sql,
        logger: silentLogger,
        mailer: createNoMailer(),
        paymentEvents: createPaymentEventProcessor({ sql: database.sql, orders, queue }),
      }),
      logger: silentLogger,
      lockDurationMs: 1_000,
    });
    await worker.waitUntilReady();
  });
  afterAll(async () => {
    await sweeper?.stop();
    await worker?.close();
    await ctx?.close();
    await queue?.close();
    if (redis) await dropTestQueue(redis.url, prefix).catch(() => undefined);
    await redis?.stop();
    await database?.cleanup();
  });

  // Run three times, each with orders of its own: Redis goes down and comes back each time.
  it('acknowledges and stores every callback at once; all are applied once Redis is back, each once', {
    timeout: 60_000,
    repeats: 2,
  }, async () => {
    const db = database.prisma;
    const orders = await Promise.all(
      Array.from({ length: 6 }, () => customerWithCardPayment(ctx.app, db, { count: 1 })),
    );

    await redis.stop();
    const callbacks = orders.map((order) => ({
      id: `evt_${randomBytes(8).toString('hex')}`,
      body: sandboxEventBody({
        orderId: order.orderId,
        amountMinor: order.totalMinor,
        providerPaymentId: order.providerPaymentId,
      }),
    }));
    // Every callback, and a second copy of each, half of them at once.
    const answers = await Promise.all(
      [...callbacks, ...callbacks].map(async ({ id, body }) => {
        const started = performance.now();
        const answer = await sendCallback(ctx.app, body, { id });
        return { ...answer, ms: performance.now() - started };
      }),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(1_000);
    }
    expect(answers.filter((answer) => answer.body.duplicate === false)).toHaveLength(orders.length);
    const stored = await db.paymentEvent.findMany({ where: { orderId: { in: orders.map((order) => order.orderId) } } });
    expect(stored).toHaveLength(orders.length);
    expect(stored.every((row) => row.processedAt === null)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const order of orders) {
      expect((await db.order.findUniqueOrThrow({ where: { id: order.orderId } })).status).toBe('CREATED');
    }

    // Redis is back, empty: the jobs of those callbacks never reached it, and the sweep hands them on.
    await redis.start();
    sweeper = startPaymentSweep(
      { db, sql: database.sql, queue, logger: silentLogger },
      { intervalMs: 250, eventAgeMs: 0 },
    );
    await eventually(async () => (await db.paymentEvent.count({ where: { processedAt: null } })) === 0, 30_000);

    for (const order of orders) {
      expect(await db.order.findUniqueOrThrow({ where: { id: order.orderId } })).toMatchObject({ status: 'FULFILLED' });
      expect(await db.productCode.count({ where: { orderLine: { orderId: order.orderId } } })).toBe(1);
    }
    const outcomes = await db.paymentEvent.findMany({
      where: { orderId: { in: orders.map((order) => order.orderId) } },
    });
    expect(outcomes.map((row) => row.outcome)).toEqual(Array(orders.length).fill('completed'));
    expect(await createLedgerService({ sql: database.sql }).verifyBooks()).toEqual([]);
    await sweeper.stop();
    sweeper = undefined;
  });
});
