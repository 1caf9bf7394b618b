import { randomUUID } from 'node:crypto';
import { ErrorKeys, PAYMENT_UNDER_WAY, PaymentResponseSchema, SbpPaymentResponseSchema } from '@store/contract';
import { createLedgerService } from '@store/core';
import { eventually } from '@store/core/testing';
import { DEV_SANDBOX_API_KEY } from '@store/sandbox/dev-secrets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts.ts';
import { CARDS, cardFields, customerWithOrder, listeningTestApp } from '../../test/payments.ts';

// One order is charged once: while a payment of it has succeeded (known from the provider's answer,
// before any callback) or is being decided, a new attempt is refused with a 409 the web app reads as
// "paid, processing". End to end with the embedded sandbox.

let ctx: Awaited<ReturnType<typeof listeningTestApp>>;

beforeAll(async () => {
  ctx = await listeningTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.prisma;
const pay = (token: string, body: unknown) => call(ctx.app, 'POST', '/api/payment', { token, body });

/** The sandbox's payments of an order, as its merchant API lists them. */
async function providerPaymentsOf(orderId: string) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/sandbox/api/v1/payments?order_id=${orderId}`,
    headers: { authorization: `Bearer ${DEV_SANDBOX_API_KEY}` },
  });
  return (response.json() as { payments: Array<{ status: string }> }).payments;
}

function expectUnderWay(response: { status: number; body: unknown }) {
  expect(response.status, JSON.stringify(response.body)).toBe(409);
  expect(response.body).toMatchObject({ code: PAYMENT_UNDER_WAY, message: expect.any(String) });
}

describe('a double click on Pay', () => {
  // A race: run three times, each on an order of its own.
  for (const round of [1, 2, 3]) {
    it(`charges the card once when four requests arrive at once (round ${round})`, async () => {
      const buyer = await customerWithOrder(ctx.app, db());
      const body = { type: 'purchase', orderId: buyer.orderId, ...cardFields(CARDS.success) };
      const answers = await Promise.all(Array.from({ length: 4 }, () => pay(buyer.token, body)));
      const charged = answers.filter((answer) => answer.status === 200);
      expect(charged).toHaveLength(1);
      for (const refused of answers.filter((answer) => answer.status !== 200)) expectUnderWay(refused);
      expect(PaymentResponseSchema.parse(charged[0]?.body)).toMatchObject({ status: 'success' });

      // Once more after the provider answered, before or after its callback: still refused.
      expectUnderWay(await pay(buyer.token, body));
      await eventually(
        async () => (await db().order.findUniqueOrThrow({ where: { id: buyer.orderId } })).status === 'FULFILLED',
        15_000,
      );
      // Paid: still a 409, which the client reads as paid and follows to the codes.
      expectUnderWay(await pay(buyer.token, body));
      expect(await providerPaymentsOf(buyer.orderId)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
      expect(await db().payment.count({ where: { orderId: buyer.orderId } })).toBe(1);
      expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
    });
  }
});

describe('a new attempt while one is being decided', () => {
  it('is refused for every method once a card payment was answered, and its status is what the client follows', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    // 3-D Secure: the provider is deciding until the challenge is answered.
    const answer = PaymentResponseSchema.parse(
      (await pay(buyer.token, { type: 'purchase', orderId: buyer.orderId, ...cardFields(CARDS.threeDs) })).body,
    );
    expect(answer.status).toBe('3DS');
    expectUnderWay(await pay(buyer.token, { type: 'purchase', orderId: buyer.orderId }));
    expectUnderWay(
      await call(ctx.app, 'POST', '/api/payment-sbp', {
        token: buyer.token,
        body: { type: 'purchase', orderId: buyer.orderId },
      }),
    );
    expectUnderWay(
      await call(ctx.app, 'POST', '/api/payment/initialize', {
        token: buyer.token,
        body: { orderId: buyer.orderId, token: randomUUID() },
      }),
    );
    const status = await call(ctx.app, 'POST', '/api/payment/status', {
      token: buyer.token,
      body: { orderId: buyer.orderId },
    });
    expect(status.body).toMatchObject({ status: 'init', order_status: 'pending' });
  });

  it('is never refused as under way after a declined card', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const declined = PaymentResponseSchema.parse(
      (await pay(buyer.token, { type: 'purchase', orderId: buyer.orderId, ...cardFields(CARDS.declined) })).body,
    );
    expect(declined).toMatchObject({ status: 'failed', reason: 'card_declined' });
    // The declined payment is over as the provider answered: another card goes through, unless its
    // callback has failed the order already (the web app then makes a new one of the basket).
    const retried = await pay(buyer.token, { type: 'purchase', orderId: buyer.orderId, ...cardFields(CARDS.success) });
    if (retried.status === 422) {
      expect(retried.body).toMatchObject({ errors: { orderId: [ErrorKeys.orderNotPayable] } });
      expect((await db().order.findUniqueOrThrow({ where: { id: buyer.orderId } })).status).toBe('FAILED');
    } else {
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(PaymentResponseSchema.parse(retried.body)).toMatchObject({ status: 'success' });
    }
    const payment = await db().payment.findFirstOrThrow({ where: { orderId: buyer.orderId, cardLast4: '0002' } });
    expect(payment).toMatchObject({ status: 'FAILED', failureReason: 'card_declined' });
  });

  it('is let through while another method only waits for the payer (a QR shown): the customer changed method', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const qr = await call(ctx.app, 'POST', '/api/payment-sbp', {
      token: buyer.token,
      body: { type: 'purchase', orderId: buyer.orderId },
    });
    expect(qr.status, JSON.stringify(qr.body)).toBe(200);
    const card = await pay(buyer.token, { type: 'purchase', orderId: buyer.orderId, ...cardFields(CARDS.success) });
    expect(card.status, JSON.stringify(card.body)).toBe(200);
    // Paid by the card, the order takes no other payment: a 409, which the client reads as paid.
    const again = await call(ctx.app, 'POST', '/api/payment-sbp', {
      token: buyer.token,
      body: { type: 'purchase', orderId: buyer.orderId },
    });
    expectUnderWay(again);
  });
});

describe('a payment at the bank (QR, UPI)', () => {
  it("ends when its order does, and is not opened with too little of the order's time left", async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const expiresAt = new Date(Date.now() + 10 * 60_000);
    await db().order.update({ where: { id: buyer.orderId }, data: { expiresAt } });
    const qr = await call(ctx.app, 'POST', '/api/payment-sbp', {
      token: buyer.token,
      body: { type: 'purchase', orderId: buyer.orderId },
    });
    expect(qr.status, JSON.stringify(qr.body)).toBe(200);
    expect(SbpPaymentResponseSchema.parse(qr.body).sbp.expires_at).toBe(expiresAt.toISOString());

    const late = await customerWithOrder(ctx.app, db());
    await db().order.update({ where: { id: late.orderId }, data: { expiresAt: new Date(Date.now() + 60_000) } });
    const refused = await call(ctx.app, 'POST', '/api/payment-sbp', {
      token: late.token,
      body: { type: 'purchase', orderId: late.orderId },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ errors: { orderId: [ErrorKeys.orderNotPayable] } });
    expect(await db().payment.count({ where: { orderId: late.orderId } })).toBe(0);
  });
});
