import { createHmac, randomBytes } from 'node:crypto';
import { CallbackAckSchema } from '@store/contract';
import { createLedgerService } from '@store/core';
import { eventually, type StripeFake, startStripeFake } from '@store/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts.ts';
import { buildTestApp } from '../../test/helper.ts';
import { customerWithOrder } from '../../test/payments.ts';

// A store whose Pix goes to Stripe (PAYMENTS_PROVIDER=pix:stripe) with test keys, Stripe's API being
// the local fake the adapter's own tests use: the shopper opens a Pix payment, and Stripe's signed
// webhook at /api/payments/callback/stripe pays the order. Signatures are made here as Stripe makes
// them (HMAC-SHA256 of "{t}.{body}", hex), not with the fake's own signer.

const SECRET_KEY = `sk_test_${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

let fake: StripeFake;
let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  fake = await startStripeFake({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  ctx = await buildTestApp({
    RATE_LIMIT_SCALE: '1000',
    PAYMENTS_PROVIDER: 'pix:stripe',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_store',
    STRIPE_WEBHOOK_SECRETS: WEBHOOK_SECRET,
    STRIPE_API_URL: fake.url,
  });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const db = () => ctx.database.prisma;

function stripeSignature(body: string, secret: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

async function sendStripe(body: string, signature: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/payments/callback/stripe',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    payload: body,
  });
  return { status: response.statusCode, body: response.json() };
}

/** Everything a callback could change for the order: the order, its payments, events, books and codes. */
async function stateOf(orderId: string) {
  const [order, payments, events, transfers, codes] = await Promise.all([
    db().order.findUniqueOrThrow({ where: { id: orderId } }),
    db().payment.findMany({ where: { orderId }, orderBy: { id: 'asc' } }),
    db().paymentEvent.findMany({ where: { provider: 'stripe' }, orderBy: { id: 'asc' } }),
    db().ledgerTransfer.findMany({ where: { orderId }, orderBy: { id: 'asc' } }),
    db().productCode.findMany({ where: { orderLine: { orderId } }, orderBy: { id: 'asc' } }),
  ]);
  return { order, payments, events, transfers, codes };
}

describe('a Pix payment through Stripe, paid by its webhook', () => {
  it('pays the order once on a signed payment_intent.succeeded, and a forged event changes nothing', async () => {
    const buyer = await customerWithOrder(ctx.app, db(), { count: 2 });
    const methods = await call(ctx.app, 'GET', '/api/payments/methods');
    expect(methods.body).toEqual({ methods: ['pix'] });

    const opened = await call(ctx.app, 'POST', '/api/orders/create-qr', {
      token: buyer.token,
      body: { amount: (buyer.totalMinor / 100).toFixed(2), currency: 'BRL', personalId: '52998224725' },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const [payment] = await db().payment.findMany({ where: { orderId: buyer.orderId } });
    expect(payment).toMatchObject({ provider: 'stripe', method: 'QR', status: 'INIT' });
    const intentId = payment?.providerPaymentId ?? '';
    expect(intentId).toMatch(/^pi_/);
    expect(fake.intents.get(intentId)).toMatchObject({
      amount: buyer.totalMinor,
      currency: 'brl',
      metadata: { order_id: buyer.orderId, store_method: 'qr' },
    });

    // The payer's bank pays the BR Code; Stripe sends payment_intent.succeeded.
    fake.settlePix(intentId, true);
    const delivered = fake.callbacks(intentId).map((delivery) => delivery.rawBody);
    const succeeded = delivered.find((body) => JSON.parse(body).type === 'payment_intent.succeeded') ?? '';
    expect(succeeded).not.toBe('');

    const first = await sendStripe(succeeded, stripeSignature(succeeded, WEBHOOK_SECRET));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(CallbackAckSchema.parse(first.body)).toEqual({ received: true, duplicate: false });
    await eventually(
      async () => (await db().order.findUniqueOrThrow({ where: { id: buyer.orderId } })).status === 'FULFILLED',
      15_000,
    );
    await eventually(async () => (await db().paymentEvent.count({ where: { processedAt: null } })) === 0, 15_000);

    const paid = await stateOf(buyer.orderId);
    expect(paid.order).toMatchObject({ status: 'FULFILLED', paymentId: payment?.id });
    expect(paid.payments).toMatchObject([{ id: payment?.id, status: 'SUCCEEDED', providerPaymentId: intentId }]);
    expect(paid.codes).toHaveLength(2);
    expect(paid.codes.every((code) => code.status === 'SOLD')).toBe(true);
    expect(paid.events).toMatchObject([{ providerEventId: JSON.parse(succeeded).id, orderId: buyer.orderId }]);
    // The money came out of Stripe's clearing account and bought the goods: one transfer, two legs.
    expect(paid.transfers.map((transfer) => [transfer.kind, Number(transfer.amountMinor)])).toEqual([
      ['PURCHASE', buyer.totalMinor],
    ]);
    const legs = await db().ledgerEntry.findMany({ where: { transferId: paid.transfers[0]?.id } });
    expect(legs.map((leg) => [leg.account, leg.provider, Number(leg.amountMinor)]).sort()).toEqual([
      ['PROVIDER_CLEARING', 'stripe', -buyer.totalMinor],
      ['REVENUE', null, buyer.totalMinor],
    ]);
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);

    // Stripe delivers the same event again (a retry): acknowledged, nothing changes.
    const again = await sendStripe(succeeded, stripeSignature(succeeded, WEBHOOK_SECRET));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, duplicate: true });

    // A full refund forged with a secret that is not the store's: refused 400, nothing changes.
    const intent = JSON.parse(succeeded).data.object as { id: string; latest_charge: string | null };
    const forged = JSON.stringify({
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      created: Math.floor(Date.now() / 1000) + 5,
      type: 'charge.refunded',
      data: {
        object: {
          id: `ch_${randomBytes(12).toString('hex')}`,
          object: 'charge',
          amount: buyer.totalMinor,
          amount_refunded: buyer.totalMinor,
          currency: 'brl',
          refunded: true,
          payment_intent: intent.id,
          metadata: { order_id: buyer.orderId, store_method: 'qr' },
        },
      },
    });
    const wrongSecret = await sendStripe(
      forged,
      stripeSignature(forged, `whsec_${randomBytes(24).toString('base64')}`),
    );
    expect(wrongSecret.status).toBe(400);
    expect(wrongSecret.body).toEqual({ message: expect.any(String) });
    // The real event's body under a signature of another body.
    const mismatched = await sendStripe(forged, stripeSignature(succeeded, WEBHOOK_SECRET));
    expect(mismatched.status).toBe(400);

    // Given the queue time to do harm, nothing moved.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await stateOf(buyer.orderId)).toEqual(paid);
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
  });

  it('takes a lost dispute back as a chargeback, asking Stripe about the payment the event names', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const opened = await call(ctx.app, 'POST', '/api/orders/create-qr', {
      token: buyer.token,
      body: { amount: (buyer.totalMinor / 100).toFixed(2), currency: 'BRL', personalId: '52998224725' },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const [payment] = await db().payment.findMany({ where: { orderId: buyer.orderId } });
    const intentId = payment?.providerPaymentId ?? '';
    fake.settlePix(intentId, true);
    const eventOf = (type: string) =>
      fake
        .callbacks(intentId)
        .map((delivery) => delivery.rawBody)
        .filter((body) => JSON.parse(body).type === type)
        .at(-1) ?? '';
    const succeeded = eventOf('payment_intent.succeeded');
    expect((await sendStripe(succeeded, stripeSignature(succeeded, WEBHOOK_SECRET))).status).toBe(200);
    const orderStatus = async () => (await db().order.findUniqueOrThrow({ where: { id: buyer.orderId } })).status;
    await eventually(async () => (await orderStatus()) === 'FULFILLED', 15_000);

    // The cardholder disputes the charge; Stripe withdraws the funds, then the store loses.
    fake.dispute(intentId, buyer.totalMinor, 'lost');
    for (const type of ['charge.dispute.created', 'charge.dispute.closed']) {
      const body = eventOf(type);
      const answer = await sendStripe(body, stripeSignature(body, WEBHOOK_SECRET));
      expect(answer.status, `${type} ${JSON.stringify(answer.body)}`).toBe(200);
      expect(answer.body).toEqual({ received: true, duplicate: false });
    }
    await eventually(async () => (await orderStatus()) === 'REFUNDED', 15_000);
    const after = await stateOf(buyer.orderId);
    expect(after.payments).toMatchObject([{ id: payment?.id, chargedBackMinor: BigInt(buyer.totalMinor) }]);
    expect(after.transfers.map((transfer) => [transfer.kind, Number(transfer.amountMinor)]).sort()).toEqual([
      ['CHARGEBACK', buyer.totalMinor],
      ['PURCHASE', buyer.totalMinor],
    ]);
    // The codes stay delivered (docs/payments.md, "Refunds and chargebacks").
    expect(after.codes.every((code) => code.status === 'SOLD')).toBe(true);
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
  });

  it('changes nothing for a dispute the store won', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const opened = await call(ctx.app, 'POST', '/api/orders/create-qr', {
      token: buyer.token,
      body: { amount: (buyer.totalMinor / 100).toFixed(2), currency: 'BRL', personalId: '52998224725' },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const [payment] = await db().payment.findMany({ where: { orderId: buyer.orderId } });
    const intentId = payment?.providerPaymentId ?? '';
    fake.settlePix(intentId, true);
    fake.dispute(intentId, buyer.totalMinor, 'won');
    for (const body of fake.callbacks(intentId).map((delivery) => delivery.rawBody)) {
      expect((await sendStripe(body, stripeSignature(body, WEBHOOK_SECRET))).status).toBe(200);
    }
    await eventually(async () => (await db().paymentEvent.count({ where: { processedAt: null } })) === 0, 15_000);
    const after = await stateOf(buyer.orderId);
    expect(after.order.status).toBe('FULFILLED');
    expect(after.payments).toMatchObject([{ status: 'SUCCEEDED', refundedMinor: 0n, chargedBackMinor: 0n }]);
    expect(after.transfers.map((transfer) => transfer.kind)).toEqual(['PURCHASE']);
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
  });

  it('keeps what it reversed when a refund fails afterwards, and says so nowhere in the books', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const opened = await call(ctx.app, 'POST', '/api/orders/create-qr', {
      token: buyer.token,
      body: { amount: (buyer.totalMinor / 100).toFixed(2), currency: 'BRL', personalId: '52998224725' },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const [payment] = await db().payment.findMany({ where: { orderId: buyer.orderId } });
    const intentId = payment?.providerPaymentId ?? '';
    fake.settlePix(intentId, true);
    const deliver = async (type: string) => {
      const bodies = fake.callbacks(intentId).map((delivery) => delivery.rawBody);
      const body = bodies.filter((candidate) => JSON.parse(candidate).type === type).at(-1) ?? '';
      const answer = await sendStripe(body, stripeSignature(body, WEBHOOK_SECRET));
      expect(answer.status, `${type} ${JSON.stringify(answer.body)}`).toBe(200);
    };
    await deliver('payment_intent.succeeded');
    const orderOf = () => db().order.findUniqueOrThrow({ where: { id: buyer.orderId } });
    await eventually(async () => (await orderOf()).status === 'FULFILLED', 15_000);

    // Part of it refunded from Stripe's dashboard: the store reverses it.
    const part = 1_000;
    const made = await fetch(`${fake.url}/v1/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payment_intent: intentId, amount: String(part) }).toString(),
    });
    const refund = (await made.json()) as { id: string };
    await deliver('charge.refunded');
    await eventually(async () => (await orderOf()).status === 'PARTIALLY_REFUNDED', 15_000);
    const refunded = await stateOf(buyer.orderId);
    expect(refunded.payments).toMatchObject([{ refundedMinor: BigInt(part) }]);

    // The refund fails afterwards: Stripe says so, the store asks it about the payment, and what it
    // reversed stays reversed (docs/payments.md, "Stripe": what is left for an operator).
    fake.failRefund(refund.id);
    await deliver('refund.updated');
    await deliver('refund.failed');
    await eventually(async () => (await db().paymentEvent.count({ where: { processedAt: null } })) === 0, 15_000);
    const after = await stateOf(buyer.orderId);
    expect(after.order.status).toBe('PARTIALLY_REFUNDED');
    expect(after.payments).toMatchObject([{ refundedMinor: BigInt(part) }]);
    expect(after.transfers).toEqual(refunded.transfers);
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
  });
});
