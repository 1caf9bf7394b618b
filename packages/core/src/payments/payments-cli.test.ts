import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliOver } from '../cli/testing.ts';
import { createPaymentEventIntake } from './payment-event-intake.ts';
import { parsePaymentsCommand, runPaymentsCli } from './payments-cli.ts';
import type { PaymentCallbackEvent } from './provider.ts';

let database: TestDatabase;
let orderId: string;
const refundId = randomUUID();

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.prisma;
  const user = await db.user.create({
    data: { email: `cli.${randomUUID()}@example.com`, name: 'Cli', passwordHash: 'x' },
  });
  const order = await db.order.create({
    data: { userId: user.id, type: 'BALANCE', subtotalMinor: 15_000, totalMinor: 15_000, currency: 'BRL' },
  });
  orderId = order.id;
  await db.payment.create({
    data: {
      orderId,
      provider: 'sandbox',
      method: 'CARD',
      amountMinor: 15_000,
      currency: 'BRL',
      providerPaymentId: 'pay_cli',
      cardBrand: 'visa',
      cardLast4: '4242',
    },
  });
  const intake = createPaymentEventIntake({ sql: database.sql });
  const event = (over: Partial<PaymentCallbackEvent>): PaymentCallbackEvent => ({
    provider: 'sandbox',
    eventId: `evt_${randomUUID()}`,
    type: 'payment.succeeded',
    occurredAt: new Date(),
    providerPaymentId: 'pay_cli',
    orderId,
    method: 'card',
    status: 'succeeded',
    amountMinor: 15_000,
    currency: 'BRL',
    refundedMinor: 0,
    chargedBackMinor: 0,
    failureReason: null,
    card: null,
    version: 2,
    payload: null,
    ...over,
  });
  await intake.receiveCallback(event({ eventId: 'evt_waiting' }));
  await intake.receiveCallback(event({ eventId: 'evt_cheap', amountMinor: 100 }));
  await intake.receiveCallback(event({ eventId: 'evt_dead', version: 3 }));
  await db.paymentEvent.updateMany({
    where: { providerEventId: 'evt_dead' },
    data: { deadAt: new Date(), attempts: 10, lastError: 'always fails' },
  });
  const payment = await db.payment.findFirstOrThrow({ where: { orderId } });
  await db.providerRefund.create({
    data: {
      id: refundId,
      orderId,
      paymentId: payment.id,
      amountMinor: 15_000n,
      reason: 'second_charge',
      requestedBy: 'system',
      idempotencyKey: `return:${payment.id}`,
      status: 'FAILED',
      attempts: 1,
      lastError: 'The refund is more than what is left to refund.',
      finishedAt: new Date(),
    },
  });
});
afterAll(async () => {
  await database?.cleanup();
});

const run = (argv: string[]) => runCliOver(runPaymentsCli, database, argv, {});

describe('payments command line', () => {
  it('refuses bad arguments, each with its message, before opening the database', async () => {
    expect(parsePaymentsCommand(['events', '--waiting', '--set-aside', '--limit', '0'])).toEqual({
      ok: false,
      errors: [
        'events: give one of --waiting, --set-aside and --dead',
        "--limit: '0' is not a whole number from 1 to 1000",
      ],
    });
    expect(parsePaymentsCommand(['retry', 'x'])).toEqual({ ok: false, errors: ["retry: 'x' is not an event id"] });
    expect(parsePaymentsCommand(['refunds', '--pending', '--failed'])).toMatchObject({ ok: false });
    const bad = await run(['order', 'not-an-id']);
    expect(bad).toMatchObject({ code: 2, opened: false });
    expect(bad.err).toContain("order: 'not-an-id' is not an order id");
    expect((await run(['refund'])).err).toContain("'refund' is not a command");
  });

  it('lists events waiting to be applied and those set aside, apart', async () => {
    const waiting = await run(['events', '--waiting']);
    expect(waiting.code).toBe(0);
    expect(waiting.out).toContain('evt_waiting');
    expect(waiting.out).not.toContain('evt_cheap');
    const aside = await run(['events', '--set-aside', '--order', orderId]);
    expect(aside.out).toContain('evt_cheap');
    expect(aside.out).toContain('set aside: amount_mismatch');
    expect(aside.out).not.toContain('evt_waiting');
  });

  it('lists dead events apart, and a retry gives one its attempts back for the running store', async () => {
    const dead = await run(['events', '--dead']);
    expect(dead.out).toContain('evt_dead');
    expect(dead.out).toContain('always fails');
    expect(dead.out).not.toContain('evt_waiting');
    expect((await run(['events', '--waiting'])).out).not.toContain('evt_dead');
    const row = await database.prisma.paymentEvent.findFirstOrThrow({ where: { providerEventId: 'evt_dead' } });
    expect(await run(['retry', row.id])).toMatchObject({ code: 0 });
    expect(await database.prisma.paymentEvent.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      deadAt: null,
      attempts: 0,
      processedAt: null,
    });
    expect((await run(['events', '--waiting'])).out).toContain('evt_dead');
    // Only a dead event is retried.
    expect(await run(['retry', row.id])).toMatchObject({ code: 1 });
  });

  it('lists refunds to the card, and sends a failed one again under the same key', async () => {
    const failed = await run(['refunds', '--failed']);
    expect(failed.out).toContain(refundId);
    expect(failed.out).toMatch(/second_charge\s+system\s+failed/);
    expect(failed.out).toContain('more than what is left');
    expect((await run(['refunds', '--pending'])).out).toBe('no refunds');
    expect(await run(['retry-refund', refundId])).toMatchObject({ code: 0 });
    expect(await database.prisma.providerRefund.findUniqueOrThrow({ where: { id: refundId } })).toMatchObject({
      status: 'PENDING',
      finishedAt: null,
      idempotencyKey: expect.stringMatching(/^return:/),
    });
    expect((await run(['refunds', '--pending'])).out).toContain(refundId);
    expect(await run(['retry-refund', refundId])).toMatchObject({ code: 1 });
  });

  it('shows an order’s payments with the card as brand and last four, and its events', async () => {
    const shown = await run(['order', orderId]);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain(`order ${orderId}: created, 150.00 BRL, paid by nothing yet`);
    expect(shown.out).toMatch(/card\s+init\s+150\.00 BRL\s+pay_cli\s+0\s+visa 4242/);
    expect(shown.out).toContain('evt_waiting');
    const missing = await run(['order', randomUUID()]);
    expect(missing.code).toBe(1);
  });
});
