import { randomBytes, randomUUID } from 'node:crypto';
import { createLedgerService, createOrderService, createPaymentEventIntake, createPromoService } from '@store/core';
import { createBullQueue } from '@store/core/bullmq';
import { dropTestQueue, eventually } from '@store/core/testing';
import { createCodeCipher, prismaQueryable, qb } from '@store/db';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerProcesses, logEntries } from '../test/worker-process.ts';

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!databaseUrl || !redisUrl) {
  console.warn('DATABASE_URL or REDIS_URL is not set: the worker is NOT killed mid-fulfilment here (CI sets both).');
}

const cipher = createCodeCipher('7e'.repeat(32));

describe.runIf(databaseUrl && redisUrl)('a worker killed twice while it fulfils a paid order', () => {
  const prefix = `test-pay-crash-${randomUUID()}`;
  let database: TestDatabase;
  const workers = createWorkerProcesses();
  let releaseCustomer: (() => void) | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    releaseCustomer?.();
    await workers.killAll();
    await dropTestQueue(redisUrl!, prefix);
    await database?.cleanup();
  });

  const startWorkerProcess = () =>
    workers.start({
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      SMTP_URL: '',
      SANDBOX_URL: '',
      // The sweep that brings back a job that died with its worker, shortened so the test takes seconds.
      PAYMENTS_SWEEP_INTERVAL_MS: '500',
    });

  /** Database sessions of this test's database waiting for a row lock. */
  async function waitingForLocks(): Promise<number> {
    const [row] = await database.sql.query(
      qb
        .withTables<{ pg_stat_activity: { datname: string | null; wait_event_type: string | null } }>()
        .selectFrom('pg_stat_activity')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where((eb) => eb('datname', '=', eb.fn<string>('current_database')))
        .where('wait_event_type', '=', 'Lock'),
    );
    return row?.count ?? 0;
  }

  /** A customer, 2 codes of a product in the basket, the order, and the store's card payment for it. */
  async function paidOrder() {
    const db = database.prisma;
    const [category, country, currency] = await Promise.all([
      db.category.create({ data: { slug: `crash-${randomUUID()}`, name: 'Crash', formattedName: 'Crash' } }),
      db.country.upsert({ where: { code: 'BR' }, create: { code: 'BR', name: 'Brazil' }, update: {} }),
      db.currency.upsert({ where: { codeName: 'BRL' }, create: { codeName: 'BRL' }, update: {} }),
    ]);
    const user = await db.user.create({
      data: { email: `crash.${randomUUID()}@example.com`, name: 'Crash', passwordHash: 'x' },
    });
    const product = await db.product.create({
      data: {
        categoryId: category.id,
        countryId: country.id,
        nominalCurrencyId: currency.id,
        name: 'Crash Card',
        nominalMinor: 1_000,
        priceMinor: 1_000,
      },
    });
    const codes = Array.from({ length: 3 }, () => `CRASH-${randomBytes(6).toString('hex')}`);
    await db.productCode.createMany({
      data: codes.map((code) => ({
        productId: product.id,
        ciphertext: cipher.encrypt(code),
        codeDigest: cipher.digest(code),
      })),
    });
    await db.basketLine.create({ data: { userId: user.id, productId: product.id, quantity: 2 } });
    const providerPaymentId = `pay_crash_${randomUUID()}`;
    const orders = createOrderService({
      sql: database.sql,
      promo: createPromoService({ db, sql: database.sql }),
      publicUrl: 'http://localhost:3000',
    });
    const order = await orders.createOrder(user.id, { type: 'purchase' });
    const payment = await db.payment.create({
      data: {
        orderId: order.order_id,
        provider: 'sandbox',
        method: 'CARD',
        amountMinor: order.total_minor,
        currency: 'BRL',
        providerPaymentId,
      },
    });
    return {
      userId: user.id,
      productId: product.id,
      orderId: order.order_id,
      totalMinor: order.total_minor,
      paymentId: payment.id,
      providerPaymentId,
    };
  }

  // Run three times, each on an order of its own.
  it('is delivered once when a worker runs again: the sweep brings back the job that died with them', {
    timeout: 90_000,
    repeats: 2,
  }, async () => {
    const started = Date.now();
    const db = database.prisma;
    const order = await paidOrder();

    // The callback was verified and stored by the API, which enqueued its job.
    const queue = createBullQueue({ redisUrl: redisUrl!, prefix });
    let eventId: string;
    try {
      const intake = createPaymentEventIntake({ sql: database.sql, queue });
      const received = await intake.receiveCallback({
        provider: 'sandbox',
        eventId: `evt_crash_${randomUUID()}`,
        type: 'payment.succeeded',
        occurredAt: new Date(),
        providerPaymentId: order.providerPaymentId,
        orderId: order.orderId,
        method: 'card',
        status: 'succeeded',
        amountMinor: order.totalMinor,
        currency: 'BRL',
        refundedMinor: 0,
        chargedBackMinor: 0,
        failureReason: null,
        card: { brand: 'visa', last4: '4242' },
        version: 2,
        payload: null,
      });
      eventId = received.eventId as string;
      await eventually(
        async () => (await queue.enqueue({ kind: 'payment.event', eventId }, { jobId: eventId })) === 'already-queued',
      );
    } finally {
      await queue.close();
    }

    // The customer's row is held here: fulfilment takes it after marking the order paid and before
    // claiming codes, so each worker stops there, mid-transaction, until it is killed.
    let holding: Promise<unknown> | undefined;
    const held = new Promise<void>((resolve) => {
      holding = db.$transaction(
        async (tx) => {
          await prismaQueryable(tx).query(
            qb
              .selectFrom('users')
              .select((eb) => eb.lit(1).as('one'))
              .where('id', '=', order.userId)
              .forUpdate(),
          );
          resolve();
          await new Promise<void>((release) => {
            releaseCustomer = release;
          });
        },
        { timeout: 80_000, maxWait: 10_000 },
      );
    });
    await held;

    const first = startWorkerProcess();
    await eventually(async () => (await waitingForLocks()) >= 1, 30_000);
    await workers.kill(first);
    // BullMQ finds the job stalled and hands it to the next worker, which waits behind the first one's
    // transaction (still open in the database until the lock lets it find its client gone).
    const second = startWorkerProcess();
    await eventually(async () => (await waitingForLocks()) >= 2, 30_000);
    await workers.kill(second);

    releaseCustomer?.();
    await holding;
    // Both killed transactions roll back: the order is not paid, no code is sold.
    await eventually(async () => (await waitingForLocks()) === 0, 15_000);
    expect(await db.order.findUniqueOrThrow({ where: { id: order.orderId } })).toMatchObject({
      status: 'CREATED',
      paymentId: null,
    });
    expect(await db.productCode.count({ where: { productId: order.productId, status: 'SOLD' } })).toBe(0);
    // The order's codes stay reserved for it, waiting for the payment to be applied.
    expect(await db.productCode.count({ where: { orderLine: { orderId: order.orderId }, status: 'RESERVED' } })).toBe(
      2,
    );
    expect(await db.paymentEvent.findUniqueOrThrow({ where: { id: eventId } })).toMatchObject({ processedAt: null });

    // Stalled twice, the job failed for good; the third worker's sweep queues the event again.
    const third = startWorkerProcess();
    await eventually(
      async () => (await db.order.findUniqueOrThrow({ where: { id: order.orderId } })).status === 'FULFILLED',
      30_000,
    );
    expect(await db.order.findUniqueOrThrow({ where: { id: order.orderId } })).toMatchObject({
      paymentId: order.paymentId,
    });
    expect(await db.productCode.count({ where: { orderLine: { orderId: order.orderId }, status: 'SOLD' } })).toBe(2);
    expect(await db.paymentEvent.findUniqueOrThrow({ where: { id: eventId } })).toMatchObject({
      outcome: 'completed',
    });
    expect(
      await db.outboundEmail.count({
        where: { template: 'order-receipt', data: { path: ['receipt', 'orderId'], equals: order.orderId } },
      }),
    ).toBe(1);
    expect(await createLedgerService({ sql: database.sql }).verifyBooks()).toEqual([]);

    const log = logEntries<{ msg?: string; eventIds?: string[] }>(third);
    expect(log.some((entry) => entry.eventIds?.includes(eventId))).toBe(true);

    await workers.kill(third, 'SIGTERM');
    expect(third.child.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(90_000);
  });
});
