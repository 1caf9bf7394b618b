import { randomBytes } from 'node:crypto';
import { CallbackAckSchema } from '@store/contract';
import { createLedgerService } from '@store/core';
import { eventually, signCallback } from '@store/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';
import {
  customerWithCardPayment,
  customerWithOrder,
  sandboxEventBody,
  sendCallback,
  WEBHOOK_SECRET,
} from '../../test/payments.ts';

// POST /api/payments/callback against the real in-process queue and job handlers: what is stored,
// what is refused, and that a payment completes its order once however its callbacks arrive.

const NEW_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  // A rotation in progress: the store takes the new secret and the old one.
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000', PAYMENTS_WEBHOOK_SECRETS: `${NEW_SECRET},${WEBHOOK_SECRET}` });
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.prisma;

/** An order with the store's record of a card payment the provider knows as `providerPaymentId`. */
const paidByCard = ({ count = 1 } = {}) => customerWithCardPayment(ctx.app, db(), { count });

const orderOf = (id: string) => db().order.findUniqueOrThrow({ where: { id } });
const eventsOf = (orderId: string) => db().paymentEvent.findMany({ where: { orderId } });
const soldCodes = (orderId: string) => db().productCode.count({ where: { orderLine: { orderId }, status: 'SOLD' } });

async function fulfilled(orderId: string) {
  await eventually(async () => (await orderOf(orderId)).status === 'FULFILLED', 15_000);
}

describe('a verified callback', () => {
  it('is acknowledged at once and completes its order; the same callback 10 times, 5 at once, fulfils once', async () => {
    const order = await paidByCard({ count: 2 });
    const body = sandboxEventBody({
      orderId: order.orderId,
      amountMinor: order.totalMinor,
      providerPaymentId: order.providerPaymentId,
    });
    const id = `evt_${randomBytes(8).toString('hex')}`;
    const first = await Promise.all(Array.from({ length: 5 }, () => sendCallback(ctx.app, body, { id })));
    const rest = [];
    for (let copy = 0; copy < 5; copy++) rest.push(await sendCallback(ctx.app, body, { id }));
    const answers = [...first, ...rest];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      CallbackAckSchema.parse(answer.body);
    }
    expect(answers.filter((answer) => answer.body.duplicate === false)).toHaveLength(1);

    await fulfilled(order.orderId);
    expect(await eventsOf(order.orderId)).toEqual([
      expect.objectContaining({ providerEventId: id, outcome: 'completed', paymentId: order.paymentId }),
    ]);
    expect(await soldCodes(order.orderId)).toBe(2);
    expect(await orderOf(order.orderId)).toMatchObject({ paymentId: order.paymentId });
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
  });

  it('signed with the old secret during a rotation is accepted, as with the new', async () => {
    const order = await paidByCard();
    const body = sandboxEventBody({
      orderId: order.orderId,
      amountMinor: order.totalMinor,
      providerPaymentId: order.providerPaymentId,
    });
    expect((await sendCallback(ctx.app, body, { secret: NEW_SECRET })).status).toBe(200);
    await fulfilled(order.orderId);
  });

  it('out of order: a success before its pending ends right, and the late pending changes nothing', async () => {
    const order = await paidByCard();
    const event = { orderId: order.orderId, amountMinor: order.totalMinor, providerPaymentId: order.providerPaymentId };
    expect((await sendCallback(ctx.app, sandboxEventBody({ ...event, status: 'succeeded', version: 3 }))).status).toBe(
      200,
    );
    await fulfilled(order.orderId);
    expect((await sendCallback(ctx.app, sandboxEventBody({ ...event, status: 'pending', version: 2 }))).status).toBe(
      200,
    );
    await eventually(async () => (await eventsOf(order.orderId)).every((row) => row.processedAt !== null));
    const outcomes = (await eventsOf(order.orderId)).map((row) => [Number(row.version), row.outcome]);
    expect(outcomes.sort()).toEqual([
      [2, 'stale'],
      [3, 'completed'],
    ]);
    expect(await orderOf(order.orderId)).toMatchObject({ status: 'FULFILLED' });
    expect(await db().payment.findUniqueOrThrow({ where: { id: order.paymentId } })).toMatchObject({
      status: 'SUCCEEDED',
      providerVersion: 3n,
    });
  });
});

describe('a callback that must not be acted upon', () => {
  async function refused(send: (body: string) => Promise<{ status: number }>, expected: number) {
    const order = await paidByCard();
    const body = sandboxEventBody({
      orderId: order.orderId,
      amountMinor: order.totalMinor,
      providerPaymentId: order.providerPaymentId,
    });
    expect((await send(body)).status).toBe(expected);
    // Given time to do harm, nothing happened.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await eventsOf(order.orderId)).toEqual([]);
    expect(await db().paymentEvent.count({ where: { providerPaymentId: order.providerPaymentId } })).toBe(0);
    expect(await orderOf(order.orderId)).toMatchObject({ status: 'CREATED', paymentId: null });
  }

  it('with one byte changed after signing is refused with 401', async () => {
    await refused(async (body) => {
      const id = 'evt_altered';
      const headers = signCallback(WEBHOOK_SECRET, body, { id });
      // A cheaper amount, the same length: 2990 -> 1990.
      const altered = body.replace('"amount_minor":2990', '"amount_minor":1990');
      expect(altered).not.toBe(body);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/callback',
        headers,
        payload: altered,
      });
      return { status: response.statusCode };
    }, 401);
  });

  it('signed more than 5 minutes ago is refused with 401', async () => {
    await refused((body) => sendCallback(ctx.app, body, { timestamp: new Date(Date.now() - 6 * 60_000) }), 401);
  });

  it('signed with a wrong secret is refused with 401', async () => {
    await refused(
      (body) => sendCallback(ctx.app, body, { secret: `whsec_${randomBytes(32).toString('base64')}` }),
      401,
    );
  });

  it('without its signature headers is refused with 401', async () => {
    await refused(async (body) => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/callback',
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      expect(response.json()).toEqual({ message: expect.stringContaining('webhook-id') });
      return { status: response.statusCode };
    }, 401);
  });

  it('signed but not an event is refused with 400, an oversized one with 413, an empty unsigned one with 401', async () => {
    expect((await sendCallback(ctx.app, '{"hello":"world"}')).status).toBe(400);
    expect((await sendCallback(ctx.app, 'not json')).status).toBe(400);
    expect((await sendCallback(ctx.app, '')).status).toBe(400);
    const empty = await ctx.app.inject({ method: 'POST', url: '/api/payments/callback', headers: {} });
    expect(empty.statusCode).toBe(401);
    const huge = JSON.stringify({ padding: 'x'.repeat(20_000) });
    expect((await sendCallback(ctx.app, huge)).status).toBe(413);
  });
});

describe('a verified callback that does not match the store', () => {
  it('with a wrong amount or currency is stored, marked, acknowledged, and changes nothing', async () => {
    const order = await paidByCard();
    const event = { orderId: order.orderId, providerPaymentId: order.providerPaymentId };
    const cheap = await sendCallback(ctx.app, sandboxEventBody({ ...event, amountMinor: 100 }));
    const euros = await sendCallback(
      ctx.app,
      sandboxEventBody({ ...event, amountMinor: order.totalMinor, currency: 'EUR' }),
    );
    expect([cheap.status, euros.status]).toEqual([200, 200]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const rows = await eventsOf(order.orderId);
    expect(rows.map((row) => row.rejection).sort()).toEqual(['amount_mismatch', 'currency_mismatch']);
    expect(await orderOf(order.orderId)).toMatchObject({ status: 'CREATED', paymentId: null });
    expect(await soldCodes(order.orderId)).toBe(0);
  });

  it('naming someone else’s order changes neither order', async () => {
    const mine = await paidByCard();
    const theirs = await customerWithOrder(ctx.app, db());
    const answer = await sendCallback(
      ctx.app,
      sandboxEventBody({
        orderId: theirs.orderId,
        amountMinor: theirs.totalMinor,
        providerPaymentId: mine.providerPaymentId,
      }),
    );
    expect(answer.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await db().paymentEvent.findFirstOrThrow({ where: { providerEventId: answer.id } })).toMatchObject({
      rejection: 'order_mismatch',
    });
    for (const orderId of [mine.orderId, theirs.orderId]) {
      expect(await orderOf(orderId)).toMatchObject({ status: 'CREATED', paymentId: null });
      expect(await soldCodes(orderId)).toBe(0);
    }
  });
});
