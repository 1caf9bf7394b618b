import { randomBytes, randomUUID } from 'node:crypto';
import type { Job } from '@store/contract';
import { createCodeCipher } from '@store/db';
import { createProductRefs, createTestDatabase, type ProductRefs, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerService } from '../ledger/ledger-service.ts';
import { createOrderService } from '../orders/order-service.ts';
import { createPromoService } from '../promo/promo-service.ts';
import type { EnqueueOptions, JobQueue } from '../queue/job-queue.ts';
import { createPaymentEventIntake, polledEventId } from './payment-event-intake.ts';
import { createPaymentEventProcessor, PAYMENT_EVENT_ATTEMPTS, PaymentNotYetKnownError } from './payment-events.ts';
import { createPaymentReconciler } from './payment-reconcile.ts';
import { sweepPaymentEvents } from './payment-sweep.ts';
import type { PaymentCallbackEvent, ProviderPayment } from './provider.ts';

// The one completion path on PostgreSQL (or PGlite without DATABASE_URL): stored events applied
// once, in whatever order and however often they come.

const cipher = createCodeCipher('5d'.repeat(32));
let database: TestDatabase;
const now = new Date();
const clock = () => now;
const db = () => database.prisma;

/** A queue that only records: the tests run the jobs themselves, as often and as concurrently as they like. */
function recordingQueue() {
  const jobs: Array<{ job: Job; options?: EnqueueOptions }> = [];
  const queue: Pick<JobQueue, 'enqueue'> = {
    async enqueue(job, options) {
      jobs.push({ job, ...(options ? { options } : {}) });
      return 'queued';
    },
  };
  return { queue, jobs };
}

let orders: ReturnType<typeof createOrderService>;
let refs: ProductRefs;

beforeAll(async () => {
  database = await createTestDatabase();
  refs = await createProductRefs(db());
  orders = createOrderService({
    sql: database.sql,
    promo: createPromoService({ db: db(), sql: database.sql, clock }),
    publicUrl: 'https://store.test',
    clock,
  });
});
afterAll(async () => {
  await database?.cleanup();
});

/** A customer with a purchase order of `quantity` codes (of `stock`) waiting for a card payment. */
async function purchaseOrder({ quantity = 2, stock = 5, priceMinor = 1_500 } = {}) {
  const user = await db().user.create({
    data: { email: `pay.${randomUUID()}@example.com`, name: 'Payer', passwordHash: 'x', locale: 'en' },
  });
  const product = await db().product.create({
    data: { ...refs, name: `Pay Card ${randomBytes(3).toString('hex')}`, nominalMinor: 1_000, priceMinor },
  });
  await db().productCode.createMany({
    data: Array.from({ length: stock }, () => {
      const code = `PAY-${randomBytes(6).toString('hex')}`;
      return { productId: product.id, ciphertext: cipher.encrypt(code), codeDigest: cipher.digest(code) };
    }),
  });
  await db().basketLine.create({ data: { userId: user.id, productId: product.id, quantity } });
  const created = await orders.createOrder(user.id, { type: 'purchase' });
  return { user, product, orderId: created.order_id, totalMinor: created.total_minor };
}

/** The store's record of a card attempt, as POST /payment writes it once the provider answered. */
async function cardPayment(orderId: string, amountMinor: number, providerPaymentId: string | null = null) {
  return db().payment.create({
    data: { orderId, provider: 'sandbox', method: 'CARD', amountMinor, currency: 'BRL', providerPaymentId },
  });
}

function event(over: Partial<PaymentCallbackEvent> & Pick<PaymentCallbackEvent, 'orderId' | 'amountMinor'>) {
  const status = over.status ?? 'succeeded';
  return {
    provider: 'sandbox',
    eventId: `evt_${randomBytes(8).toString('hex')}`,
    type: `payment.${status === 'init' ? 'pending' : status}`,
    occurredAt: now,
    providerPaymentId: 'pay_unset',
    method: 'card',
    status,
    currency: 'BRL',
    refundedMinor: 0,
    chargedBackMinor: 0,
    failureReason: null,
    card: { brand: 'visa', last4: '4242' },
    version: 2,
    payload: { raw: true },
    ...over,
  } as PaymentCallbackEvent;
}

function pipeline() {
  const { queue, jobs } = recordingQueue();
  const intake = createPaymentEventIntake({ sql: database.sql, queue, clock });
  const processor = createPaymentEventProcessor({ sql: database.sql, orders, clock });
  const eventIds = () => jobs.flatMap(({ job }) => (job.kind === 'payment.event' ? [job.eventId] : []));
  return { intake, processor, jobs, eventIds };
}

/** The order's row, its money as numbers. */
async function orderOf(id: string) {
  const order = await db().order.findUniqueOrThrow({ where: { id } });
  return { ...order, totalMinor: Number(order.totalMinor), refundedMinor: Number(order.refundedMinor) };
}
const soldCodes = (orderId: string) => db().productCode.count({ where: { orderLine: { orderId }, status: 'SOLD' } });

async function expectLedgerBalanced() {
  expect(await createLedgerService({ sql: database.sql }).verifyBooks()).toEqual([]);
}

describe('a callback delivered again and again', () => {
  // Races: run three times, each on an order of its own.
  it('is stored once and fulfils the order once: the same callback 10 times, 5 of them at once', {
    repeats: 2,
  }, async () => {
    const { orderId, totalMinor } = await purchaseOrder({ quantity: 2 });
    const providerPaymentId = `pay_replay_${randomUUID()}`;
    const payment = await cardPayment(orderId, totalMinor, providerPaymentId);
    const { intake, processor, eventIds } = pipeline();
    const same = event({ orderId, amountMinor: totalMinor, providerPaymentId });

    const concurrent = await Promise.all(Array.from({ length: 5 }, () => intake.receiveCallback(same)));
    const sequential = [];
    for (let copy = 0; copy < 5; copy++) sequential.push(await intake.receiveCallback(same));
    const received = [...concurrent, ...sequential];
    expect(received.filter((copy) => !copy.duplicate)).toHaveLength(1);
    expect(await db().paymentEvent.count({ where: { providerEventId: same.eventId } })).toBe(1);
    expect(eventIds()).toHaveLength(1);

    // The job itself run several times, some at once (a retried job, two workers).
    const [eventId] = eventIds() as [string];
    const results = await Promise.all(Array.from({ length: 4 }, () => processor.processEvent(eventId)));
    results.push(await processor.processEvent(eventId));
    expect(results.filter((result) => result.outcome === 'completed')).toHaveLength(1);
    expect(results.filter((result) => result.outcome === 'already_processed')).toHaveLength(4);

    expect(await orderOf(orderId)).toMatchObject({ status: 'FULFILLED', paymentId: payment.id });
    expect(await soldCodes(orderId)).toBe(2);
    expect(await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({
      status: 'SUCCEEDED',
      providerVersion: 2n,
      cardBrand: 'visa',
      cardLast4: '4242',
    });
    expect(
      await db().outboundEmail.count({
        where: { template: 'order-receipt', data: { path: ['receipt', 'orderId'], equals: orderId } },
      }),
    ).toBe(1);
    await expectLedgerBalanced();
  });
});

describe('callbacks out of order', () => {
  it('a success before its pending ends right, and the old pending changes nothing', { repeats: 2 }, async () => {
    const { orderId, totalMinor } = await purchaseOrder({ quantity: 1 });
    const providerPaymentId = `pay_order_${randomUUID()}`;
    const payment = await cardPayment(orderId, totalMinor, providerPaymentId);
    const { intake, processor, eventIds } = pipeline();
    const base = { orderId, amountMinor: totalMinor, providerPaymentId };
    await intake.receiveCallback(event({ ...base, status: 'succeeded', version: 3 }));
    await intake.receiveCallback(event({ ...base, status: 'pending', version: 2, card: null }));
    const [success, pending] = eventIds() as [string, string];

    expect((await processor.processEvent(success)).outcome).toBe('completed');
    expect((await processor.processEvent(pending)).outcome).toBe('stale');
    expect(await orderOf(orderId)).toMatchObject({ status: 'FULFILLED' });
    expect(await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({
      status: 'SUCCEEDED',
      providerVersion: 3n,
    });
    expect(await soldCodes(orderId)).toBe(1);
  });

  it('a pending then its success, processed in that order, complete the order once', async () => {
    const { orderId, totalMinor } = await purchaseOrder({ quantity: 1 });
    await cardPayment(orderId, totalMinor, 'pay_inorder');
    const { intake, processor, eventIds } = pipeline();
    const base = { orderId, amountMinor: totalMinor, providerPaymentId: 'pay_inorder' };
    await intake.receiveCallback(event({ ...base, status: 'pending', version: 2, card: null }));
    const [pending] = eventIds() as [string];
    expect((await processor.processEvent(pending)).outcome).toBe('recorded');
    expect(await orderOf(orderId)).toMatchObject({ status: 'PENDING' });
    await intake.receiveCallback(event({ ...base, status: 'succeeded', version: 3 }));
    const success = eventIds()[1] as string;
    expect((await processor.processEvent(success)).outcome).toBe('completed');
    expect(await orderOf(orderId)).toMatchObject({ status: 'FULFILLED' });
  });
});

describe('callbacks that do not match', () => {
  it('a wrong amount or currency is stored, marked and never applied', async () => {
    const { orderId, totalMinor } = await purchaseOrder({ quantity: 1 });
    const payment = await cardPayment(orderId, totalMinor, 'pay_amount');
    const { intake, eventIds } = pipeline();
    const base = { orderId, providerPaymentId: 'pay_amount' };
    const cheap = await intake.receiveCallback(event({ ...base, amountMinor: totalMinor - 1 }));
    const euros = await intake.receiveCallback(event({ ...base, amountMinor: totalMinor, currency: 'EUR' }));
    expect(cheap).toMatchObject({ duplicate: false, rejection: 'amount_mismatch' });
    expect(euros).toMatchObject({ duplicate: false, rejection: 'currency_mismatch' });
    expect(eventIds()).toEqual([]);
    const stored = await db().paymentEvent.findMany({ where: { orderId } });
    expect(stored).toHaveLength(2);
    for (const row of stored) expect(row.processedAt).not.toBeNull();
    expect(await orderOf(orderId)).toMatchObject({ status: 'CREATED', paymentId: null });
    expect(await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({ status: 'INIT' });
    expect(await soldCodes(orderId)).toBe(0);
  });

  it('a callback naming someone else’s order changes neither order', async () => {
    const mine = await purchaseOrder({ quantity: 1 });
    const theirs = await purchaseOrder({ quantity: 1 });
    await cardPayment(mine.orderId, mine.totalMinor, 'pay_mine');
    const { intake, eventIds } = pipeline();
    const received = await intake.receiveCallback(
      event({ orderId: theirs.orderId, amountMinor: theirs.totalMinor, providerPaymentId: 'pay_mine' }),
    );
    expect(received.rejection).toBe('order_mismatch');
    expect(eventIds()).toEqual([]);
    for (const { orderId } of [mine, theirs]) {
      expect(await orderOf(orderId)).toMatchObject({ status: 'CREATED', paymentId: null });
      expect(await soldCodes(orderId)).toBe(0);
    }
  });

  it('a callback for an order the store does not have is stored and set aside', async () => {
    const { intake } = pipeline();
    const received = await intake.receiveCallback(event({ orderId: randomUUID(), amountMinor: 100 }));
    expect(received.rejection).toBe('unknown_order');
    const notAnId = await intake.receiveCallback(event({ orderId: 'order-1', amountMinor: 100 }));
    expect(notAnId.rejection).toBe('unknown_order');
  });
});

describe('failed payments', () => {
  it('fail the order when nothing else pays it, and leave it open while another payment decides', async () => {
    const { orderId, totalMinor } = await purchaseOrder({ quantity: 1 });
    await cardPayment(orderId, totalMinor, 'pay_declined');
    const other = await cardPayment(orderId, totalMinor, 'pay_challenge');
    await db().payment.update({ where: { id: other.id }, data: { status: 'PENDING', providerVersion: 2 } });
    const { intake, processor, eventIds } = pipeline();
    const declined = event({
      orderId,
      amountMinor: totalMinor,
      providerPaymentId: 'pay_declined',
      status: 'failed',
      failureReason: 'card_declined',
    });
    await intake.receiveCallback(declined);
    expect((await processor.processEvent(eventIds()[0] as string)).outcome).toBe('recorded');
    expect((await orderOf(orderId)).status).toBe('CREATED');

    await intake.receiveCallback(
      event({
        orderId,
        amountMinor: totalMinor,
        providerPaymentId: 'pay_challenge',
        status: 'failed',
        failureReason: '3ds_failed',
        version: 3,
      }),
    );
    expect((await processor.processEvent(eventIds()[1] as string)).outcome).toBe('order_failed');
    expect((await orderOf(orderId)).status).toBe('FAILED');
    expect(await db().payment.findUniqueOrThrow({ where: { id: other.id } })).toMatchObject({
      status: 'FAILED',
      failureReason: '3ds_failed',
    });
  });

  it('a success after the order failed still delivers: money is never kept without goods', async () => {
    const { orderId, totalMinor } = await purchaseOrder({ quantity: 1 });
    const { intake, processor, eventIds } = pipeline();
    // The widget: a declined attempt, then one that succeeds, both first known by their callbacks.
    const widget = { orderId, amountMinor: totalMinor, method: 'widget' as const };
    await intake.receiveCallback(event({ ...widget, providerPaymentId: 'pay_w1', status: 'failed', version: 2 }));
    expect((await processor.processEvent(eventIds()[0] as string)).outcome).toBe('order_failed');
    await intake.receiveCallback(event({ ...widget, providerPaymentId: 'pay_w2', status: 'succeeded', version: 2 }));
    expect((await processor.processEvent(eventIds()[1] as string)).outcome).toBe('completed');
    expect(await orderOf(orderId)).toMatchObject({ status: 'FULFILLED' });
    expect(await db().payment.count({ where: { orderId } })).toBe(2);
    expect(await soldCodes(orderId)).toBe(1);
  });
});

describe('a payment the store has not recorded by its provider id yet', () => {
  it('waits for the route that started it, then is applied to that payment', async () => {
    const { orderId, totalMinor } = await purchaseOrder({ quantity: 1 });
    const attempt = await cardPayment(orderId, totalMinor);
    const { intake, processor, eventIds } = pipeline();
    await intake.receiveCallback(event({ orderId, amountMinor: totalMinor, providerPaymentId: 'pay_early' }));
    const eventId = eventIds()[0] as string;
    await expect(processor.processEvent(eventId)).rejects.toBeInstanceOf(PaymentNotYetKnownError);
    // Waiting is not failing: it does not count towards giving the event up.
    expect(await db().paymentEvent.findUniqueOrThrow({ where: { id: eventId } })).toMatchObject({
      processedAt: null,
      deadAt: null,
      attempts: 0,
      lastError: expect.stringContaining('not yet recorded'),
    });
    expect((await orderOf(orderId)).status).toBe('CREATED');

    await db().payment.update({ where: { id: attempt.id }, data: { providerPaymentId: 'pay_early' } });
    expect((await processor.processEvent(eventId)).outcome).toBe('completed');
    expect(await orderOf(orderId)).toMatchObject({ status: 'FULFILLED', paymentId: attempt.id });
  });

  it('is applied to the attempt waiting for it once the route had time enough (it died)', async () => {
    const { orderId, totalMinor } = await purchaseOrder({ quantity: 1 });
    const attempt = await cardPayment(orderId, totalMinor);
    const { queue, jobs } = recordingQueue();
    const intake = createPaymentEventIntake({ sql: database.sql, queue, clock });
    const later = new Date(now.getTime() + 60_000);
    const processor = createPaymentEventProcessor({ sql: database.sql, orders, clock: () => later });
    await intake.receiveCallback(event({ orderId, amountMinor: totalMinor, providerPaymentId: 'pay_orphan' }));
    const job = jobs[0]?.job;
    if (job?.kind !== 'payment.event') throw new Error('no payment.event job');
    expect((await processor.processEvent(job.eventId)).outcome).toBe('completed');
    expect(await db().payment.findUniqueOrThrow({ where: { id: attempt.id } })).toMatchObject({
      providerPaymentId: 'pay_orphan',
      status: 'SUCCEEDED',
    });
  });
});

describe('a top-up', () => {
  it('credits the balance once, however often its success is applied', async () => {
    const user = await db().user.create({
      data: { email: `topup.${randomUUID()}@example.com`, name: 'Topper', passwordHash: 'x' },
    });
    const created = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 250 });
    await cardPayment(created.order_id, created.total_minor, 'pay_topup');
    const { intake, processor, eventIds } = pipeline();
    const success = event({ orderId: created.order_id, amountMinor: 25_000, providerPaymentId: 'pay_topup' });
    await intake.receiveCallback(success);
    await intake.receiveCallback({ ...success, eventId: `${success.eventId}-retry-of-another-id` });
    const outcomes = await Promise.all(eventIds().map((id) => processor.processEvent(id)));
    expect(outcomes.map((result) => result.outcome).sort()).toEqual(['completed', 'stale']);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).balanceMinor).toBe(25_000n);
    await expectLedgerBalanced();
  });
});

describe('an event that always fails', () => {
  it('is tried again later each time, then set aside as dead; it never keeps newer events from the sweep', async () => {
    const { intake, processor } = pipeline();
    const poison: string[] = [];
    for (let index = 0; index < 4; index++) {
      const { orderId, totalMinor } = await purchaseOrder({ quantity: 1 });
      const stored = await intake.receiveCallback(
        event({ orderId, amountMinor: totalMinor, providerPaymentId: `pay_poison_${index}_${orderId}` }),
      );
      // A body the store cannot read: applying it throws, every time.
      await db().paymentEvent.update({ where: { id: stored.eventId as string }, data: { payload: { broken: true } } });
      poison.push(stored.eventId as string);
    }
    const [first] = poison as [string];
    await expect(processor.processEvent(first)).rejects.toThrow();
    const once = await db().paymentEvent.findUniqueOrThrow({ where: { id: first } });
    expect(once).toMatchObject({ attempts: 1, processedAt: null, deadAt: null });
    expect(once.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(now.getTime() + 5_000);
    for (const id of poison.slice(1)) await expect(processor.processEvent(id)).rejects.toThrow();

    // A newer event whose job was lost: the sweep hands it on before the failing ones, however many.
    const fresh = await purchaseOrder({ quantity: 1 });
    const lost = await createPaymentEventIntake({
      sql: database.sql,
      queue: {
        async enqueue() {
          throw new Error('Redis is away');
        },
      },
      clock,
    }).receiveCallback(
      event({ orderId: fresh.orderId, amountMinor: fresh.totalMinor, providerPaymentId: `pay_fresh_${fresh.orderId}` }),
    );
    await db().paymentEvent.updateMany({
      where: { id: { in: poison } },
      data: { nextAttemptAt: new Date(Date.now() + 1_000) },
    });
    const { queue, jobs } = recordingQueue();
    await sweepPaymentEvents(
      { db: db(), sql: database.sql, queue, now: () => new Date(Date.now() + 2_000) },
      { olderThanMs: 0, limit: 1 },
    );
    expect(jobs.map(({ job }) => (job.kind === 'payment.event' ? job.eventId : null))).toEqual([lost.eventId]);

    // Nine more failures and it is given up: not thrown (the queue stops retrying), dead, and the
    // sweep leaves it alone.
    let outcome = '';
    for (let attempt = 2; attempt <= PAYMENT_EVENT_ATTEMPTS; attempt++) {
      outcome = await processor.processEvent(first).then(
        (result) => result.outcome,
        () => 'thrown',
      );
    }
    expect(outcome).toBe('dead_lettered');
    const dead = await db().paymentEvent.findUniqueOrThrow({ where: { id: first } });
    expect(dead).toMatchObject({ attempts: PAYMENT_EVENT_ATTEMPTS, processedAt: null });
    expect(dead.deadAt).not.toBeNull();
    expect((await processor.processEvent(first)).outcome).toBe('dead_lettered');
    const later = await sweepPaymentEvents(
      { db: db(), sql: database.sql, queue, now: () => new Date(Date.now() + 24 * 3_600_000) },
      { olderThanMs: 0, limit: 1_000 },
    );
    expect(later.requeued).not.toContain(first);
  });
});

describe('the sweep and the provider asked', () => {
  it('hands on stored events without a processed mark, and only those', async () => {
    const { orderId, totalMinor } = await purchaseOrder({ quantity: 1 });
    await cardPayment(orderId, totalMinor, 'pay_swept');
    // The callback was stored while Redis was away: the queue refused it.
    const intake = createPaymentEventIntake({
      sql: database.sql,
      queue: {
        async enqueue() {
          throw new Error('Redis is away');
        },
      },
      clock,
    });
    const { eventId } = await intake.receiveCallback(
      event({ orderId, amountMinor: totalMinor, providerPaymentId: 'pay_swept' }),
    );
    const { queue, jobs } = recordingQueue();
    const fresh = await sweepPaymentEvents({ db: db(), sql: database.sql, queue, now: clock }, { olderThanMs: 1_000 });
    expect(fresh.requeued).not.toContain(eventId);
    const swept = await sweepPaymentEvents(
      { db: db(), sql: database.sql, queue, now: () => new Date(Date.now() + 2_000) },
      { olderThanMs: 1_000 },
    );
    expect(swept.requeued).toContain(eventId);
    expect(jobs.find(({ job }) => job.kind === 'payment.event' && job.eventId === eventId)?.options).toEqual({
      jobId: eventId,
    });
    await createPaymentEventProcessor({ sql: database.sql, orders, clock }).processEvent(eventId as string);
    const again = await sweepPaymentEvents(
      { db: db(), sql: database.sql, queue, now: () => new Date(Date.now() + 2_000) },
      { olderThanMs: 1_000 },
    );
    expect(again.requeued).not.toContain(eventId);
    expect((await orderOf(orderId)).status).toBe('FULFILLED');
  });

  it('asks the provider about a payment pending too long and feeds the answer to the same path, once', async () => {
    const { orderId, totalMinor } = await purchaseOrder({ quantity: 1 });
    const attempt = await cardPayment(orderId, totalMinor, 'pay_quiet');
    await db().payment.update({
      where: { id: attempt.id },
      data: { status: 'PENDING', providerVersion: 2, createdAt: new Date(now.getTime() - 10 * 60_000) },
    });
    const answer: ProviderPayment = {
      providerPaymentId: 'pay_quiet',
      orderId,
      method: 'card',
      status: 'succeeded',
      amountMinor: totalMinor,
      currency: 'BRL',
      refundedMinor: 0,
      chargedBackMinor: 0,
      failureReason: null,
      card: { brand: 'visa', last4: '1111' },
      version: 3,
      createdAt: now,
      updatedAt: now,
    };
    const asked: string[] = [];
    const provider = {
      name: 'sandbox',
      async getPayment(id: string) {
        asked.push(id);
        return answer;
      },
      async listPayments() {
        return [];
      },
    };
    const { queue, jobs } = recordingQueue();
    const intake = createPaymentEventIntake({ sql: database.sql, queue, clock });
    const reconciler = createPaymentReconciler({ db: db(), provider, intake, clock });
    expect(await reconciler.reconcilePending({ pendingAfterMs: 60_000 })).toMatchObject({ updates: 1 });
    expect(asked).toEqual(['pay_quiet']);
    // Asked again at once: not before the recheck interval; and the same answer is one event.
    expect(await reconciler.reconcilePending({ pendingAfterMs: 60_000 })).toMatchObject({ orders: 0 });
    expect(await reconciler.reconcileOrder(orderId)).toBe(0);
    const stored = await db().paymentEvent.findMany({ where: { providerPaymentId: 'pay_quiet' } });
    expect(stored.map((row) => [row.providerEventId, row.source])).toEqual([[polledEventId(answer), 'poll']]);

    const job = jobs[0]?.job;
    if (job?.kind !== 'payment.event') throw new Error('no payment.event job');
    const processor = createPaymentEventProcessor({ sql: database.sql, orders, clock });
    expect((await processor.processEvent(job.eventId)).outcome).toBe('completed');
    expect(await orderOf(orderId)).toMatchObject({ status: 'FULFILLED', paymentId: attempt.id });
    expect(await reconciler.reconcilePending({ pendingAfterMs: 60_000, recheckAfterMs: 0 })).toMatchObject({
      orders: 0,
    });
  });
});

describe('a refunded total the provider later says is lower', () => {
  it('leaves what the store reversed as it was: the payment, the order and the books', async () => {
    const { orderId, totalMinor } = await purchaseOrder();
    const providerPaymentId = `pay_lowered_${randomUUID()}`;
    const payment = await cardPayment(orderId, totalMinor, providerPaymentId);
    const { intake, processor, eventIds } = pipeline();
    const base = { orderId, amountMinor: totalMinor, providerPaymentId };
    const apply = async (over: Partial<PaymentCallbackEvent>) => {
      await intake.receiveCallback(event({ ...base, ...over }));
      return (await processor.processEvent(eventIds().at(-1) as string)).outcome;
    };
    expect(await apply({ version: 2 })).toBe('completed');
    expect(await apply({ version: 3, type: 'payment.refunded', refundedMinor: 1_000 })).toBe(
      'order_partially_refunded',
    );
    const transfers = () => db().ledgerTransfer.count({ where: { paymentId: payment.id } });
    const before = await transfers();
    // The refund failed afterwards (Stripe's refund.updated): a newer version with less refunded.
    expect(await apply({ version: 4, type: 'payment.succeeded', refundedMinor: 0 })).toBe('recorded');
    expect(await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({
      refundedMinor: 1_000n,
      providerVersion: 4n,
    });
    expect(await orderOf(orderId)).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedMinor: 1_000 });
    expect(await transfers()).toBe(before);
    // A later refund of the rest reverses only what was not reversed yet.
    expect(await apply({ version: 5, type: 'payment.refunded', status: 'refunded', refundedMinor: totalMinor })).toBe(
      'order_refunded',
    );
    expect(await orderOf(orderId)).toMatchObject({ status: 'REFUNDED', refundedMinor: totalMinor });
    await expectLedgerBalanced();
  });
});
