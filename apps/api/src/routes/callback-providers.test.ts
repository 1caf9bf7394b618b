import { createHmac, randomBytes } from 'node:crypto';
import { CallbackAckSchema, ErrorKeys, PaymentMethodsResponseSchema, PaymentResponseSchema } from '@store/contract';
import { eventually } from '@store/core/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts.ts';
import { buildTestApp } from '../../test/helper.ts';
import {
  CARDS,
  cardFields,
  customerWithCardPayment,
  customerWithOrder,
  listeningTestApp,
  sandboxEventBody,
  sendCallback,
} from '../../test/payments.ts';
import { loggerOptions } from '../app.ts';
import { loadEnv } from '../env.ts';

// Each provider's own callback URL (POST /api/payments/callback/:provider), the methods routed to a
// configured provider (GET /api/payments/methods), and no provider secret in a log line or an
// answer. The store runs with the production logger at its most talkative level, on known secrets.

const WEBHOOK_KEY = randomBytes(32);
const WEBHOOK_SECRET = `whsec_${WEBHOOK_KEY.toString('base64')}`;
const SANDBOX_API_KEY = `sk_${randomBytes(24).toString('hex')}`;
const SANDBOX_URL = '/api/payments/callback/sandbox';

const lines: string[] = [];
const answers: string[] = [];
let ctx: Awaited<ReturnType<typeof listeningTestApp>>;

beforeAll(async () => {
  const production = loggerOptions(loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'trace' })) as pino.LoggerOptions;
  const stream = { write: (line: string) => lines.push(line) };
  ctx = await listeningTestApp(
    { PAYMENTS_WEBHOOK_SECRETS: WEBHOOK_SECRET, SANDBOX_API_KEY },
    { logger: { ...production, level: 'trace', stream }, jobLogger: pino({ ...production, level: 'trace' }, stream) },
  );
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.prisma;
const orderOf = (id: string) => db().order.findUniqueOrThrow({ where: { id } });
const eventsOf = (orderId: string) => db().paymentEvent.findMany({ where: { orderId } });

describe('POST /api/payments/callback/sandbox', () => {
  it('moves an order as the first URL does; the same event again is a duplicate, at either URL', async () => {
    const byNew = await customerWithCardPayment(ctx.app, db());
    const byOld = await customerWithCardPayment(ctx.app, db());
    const send = (order: typeof byNew, url: string, id: string) =>
      sendCallback(
        ctx.app,
        sandboxEventBody({
          orderId: order.orderId,
          amountMinor: order.totalMinor,
          providerPaymentId: order.providerPaymentId,
        }),
        { url, id, secret: WEBHOOK_SECRET },
      );
    const newId = `evt_${randomBytes(8).toString('hex')}`;
    const first = await send(byNew, SANDBOX_URL, newId);
    expect(first.status).toBe(200);
    expect(CallbackAckSchema.parse(first.body)).toEqual({ received: true, duplicate: false });
    expect((await send(byOld, '/api/payments/callback', `evt_${randomBytes(8).toString('hex')}`)).status).toBe(200);
    for (const order of [byNew, byOld]) {
      await eventually(async () => (await orderOf(order.orderId)).status === 'FULFILLED', 15_000);
    }
    const shape = async (order: typeof byNew) =>
      (await eventsOf(order.orderId)).map(({ provider, outcome, source, paymentId }) => ({
        provider,
        outcome,
        source,
        paid: paymentId === order.paymentId,
      }));
    expect(await shape(byNew)).toEqual(await shape(byOld));
    expect(await shape(byNew)).toEqual([{ provider: 'sandbox', outcome: 'completed', source: 'callback', paid: true }]);

    // The same event id is one event of the sandbox's, whichever of its URLs it reaches.
    for (const url of [SANDBOX_URL, '/api/payments/callback']) {
      const again = await send(byNew, url, newId);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ received: true, duplicate: true });
    }
    expect(await eventsOf(byNew.orderId)).toHaveLength(1);
    expect(await orderOf(byNew.orderId)).toMatchObject({ status: 'FULFILLED', paymentId: byNew.paymentId });
  });

  it('refuses a wrong signature and changes nothing', async () => {
    const order = await customerWithCardPayment(ctx.app, db());
    const body = sandboxEventBody({
      orderId: order.orderId,
      amountMinor: order.totalMinor,
      providerPaymentId: order.providerPaymentId,
    });
    const forged = await sendCallback(ctx.app, body, {
      url: SANDBOX_URL,
      secret: `whsec_${randomBytes(32).toString('base64')}`,
    });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ message: expect.any(String) });
    const genuine = await sendCallback(ctx.app, body, { url: SANDBOX_URL, secret: WEBHOOK_SECRET });
    expect(genuine.status).toBe(200);
    // Given time to do harm, the forged one did nothing; the genuine one was stored once.
    await eventually(async () => (await orderOf(order.orderId)).status === 'FULFILLED', 15_000);
    expect(await eventsOf(order.orderId)).toHaveLength(1);
    expect(await db().paymentEvent.count({ where: { providerEventId: forged.id } })).toBe(0);
  });

  it('answers 404 for a provider it does not know, and one not configured here', async () => {
    const order = await customerWithOrder(ctx.app, db());
    const body = sandboxEventBody({ orderId: order.orderId, amountMinor: order.totalMinor });
    for (const name of ['paypal', 'stripe', 'payselection', 'SANDBOX']) {
      const answer = await sendCallback(ctx.app, body, {
        url: `/api/payments/callback/${name}`,
        secret: WEBHOOK_SECRET,
      });
      expect(answer.status, name).toBe(404);
      expect(answer.body, name).toMatchObject({ message: expect.any(String) });
    }
    expect(await eventsOf(order.orderId)).toEqual([]);
    expect(await orderOf(order.orderId)).toMatchObject({ status: 'CREATED' });
  });
});

describe('POST /api/payments/callback/:provider for a real provider', () => {
  // Configured but routed nothing: each still verifies the callbacks of the payments it has.
  const PROVIDERS_ENV = {
    RATE_LIMIT_SCALE: '1000',
    STRIPE_SECRET_KEY: 'sk_test_refusals',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_refusals',
    STRIPE_WEBHOOK_SECRETS: 'whsec_refusals',
    PAYSELECTION_SITE_ID: '21044',
    PAYSELECTION_SECRET_KEY: 'payselection-secret-refusals',
    PAYSELECTION_PUBLIC_KEY: 'payselection-public-refusals',
  };
  const hex = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');

  it('answers a wrong or missing signature 400, and changes and stores nothing', async () => {
    const store = await buildTestApp(PROVIDERS_ENV);
    try {
      const prisma = store.database.prisma;
      const buyer = await customerWithOrder(store.app, prisma);
      const t = Math.floor(Date.now() / 1000);
      const stripeBody = JSON.stringify({
        id: `evt_${randomBytes(12).toString('hex')}`,
        object: 'event',
        created: t,
        type: 'payment_intent.succeeded',
        data: {
          object: {
            id: `pi_${randomBytes(12).toString('hex')}`,
            object: 'payment_intent',
            amount: buyer.totalMinor,
            currency: 'brl',
            status: 'succeeded',
            metadata: { order_id: buyer.orderId, store_method: 'qr' },
            created: t,
          },
        },
      });
      const payselectionBody = JSON.stringify({
        Event: 'Payment',
        TransactionId: 'PS00000000000001',
        OrderId: buyer.orderId,
        Amount: (buyer.totalMinor / 100).toFixed(2),
        Currency: 'BRL',
        Service_Id: '21044',
      });
      const payselectionSigned = (key: string) =>
        hex(key, `POST\nhttp://localhost/api/payments/callback/payselection\n21044\n${payselectionBody}`);
      const attempts: Array<[string, string, Record<string, string>]> = [
        ['stripe', stripeBody, { 'stripe-signature': `t=${t},v1=${hex('whsec_wrong', `${t}.${stripeBody}`)}` }],
        ['stripe', stripeBody, {}],
        ['stripe', stripeBody, { 'stripe-signature': `t=${t},v1=${'0'.repeat(64)}` }],
        [
          'payselection',
          payselectionBody,
          { 'x-site-id': '21044', 'x-webhook-signature': payselectionSigned('wrong') },
        ],
        ['payselection', payselectionBody, {}],
        ['payselection', payselectionBody, { 'x-site-id': '21044' }],
      ];
      for (const [provider, payload, headers] of attempts) {
        const answer = await store.app.inject({
          method: 'POST',
          url: `/api/payments/callback/${provider}`,
          headers: { 'content-type': 'application/json', ...headers },
          payload,
        });
        expect(answer.statusCode, `${provider} ${JSON.stringify(headers)}`).toBe(400);
        expect(answer.json()).toEqual({ message: expect.any(String) });
      }
      // The sandbox's own URL keeps its 401 (docs/payments.md).
      const sandbox = await sendCallback(
        store.app,
        sandboxEventBody({ orderId: buyer.orderId, amountMinor: buyer.totalMinor }),
        { url: SANDBOX_URL, secret: `whsec_${randomBytes(32).toString('base64')}` },
      );
      expect(sandbox.status).toBe(401);
      expect(await prisma.paymentEvent.count({ where: { orderId: buyer.orderId } })).toBe(0);
      expect(await prisma.paymentEvent.count({ where: { provider: { in: ['stripe', 'payselection'] } } })).toBe(0);
      expect(await prisma.payment.count({ where: { orderId: buyer.orderId } })).toBe(0);
      expect(await prisma.order.findUniqueOrThrow({ where: { id: buyer.orderId } })).toMatchObject({
        status: 'CREATED',
      });
    } finally {
      await store.close();
    }
  });
});

describe('GET /api/payments/methods', () => {
  it('offers every method when the sandbox serves them all', async () => {
    const answer = await call(ctx.app, 'GET', '/api/payments/methods');
    expect(answer.status).toBe(200);
    expect(PaymentMethodsResponseSchema.parse(answer.body).methods).toEqual([
      'widget',
      'hosted_page',
      'card',
      'pix',
      'sbp',
      'upi',
    ]);
  });

  it('offers only the methods routed, and refuses the others with 422 before making anything', async () => {
    const routed = await buildTestApp({ RATE_LIMIT_SCALE: '1000', PAYMENTS_PROVIDER: 'card:sandbox, pix:sandbox' });
    try {
      const methods = await call(routed.app, 'GET', '/api/payments/methods');
      expect(methods.body).toEqual({ methods: ['card', 'pix'] });
      const buyer = await customerWithOrder(routed.app, routed.database.prisma);
      const refusals = [
        await call(routed.app, 'POST', '/api/payment', { token: buyer.token, body: { type: 'purchase' } }),
        await call(routed.app, 'POST', '/api/payment-sbp', { token: buyer.token, body: { type: 'purchase' } }),
        // A top-up by an unoffered method makes no order.
        await call(routed.app, 'POST', '/api/payment', { token: buyer.token, body: { type: 'balance', value: 500 } }),
      ];
      for (const refusal of refusals) {
        expect(refusal.status, JSON.stringify(refusal.body)).toBe(422);
        expect(refusal.body).toMatchObject({
          message: expect.any(String),
          errors: { method: [ErrorKeys.unknownOption] },
        });
      }
      expect(await routed.database.prisma.payment.count({ where: { order: { userId: buyer.user.id } } })).toBe(0);
      expect(await routed.database.prisma.order.count({ where: { userId: buyer.user.id } })).toBe(1);
      expect(await routed.database.prisma.order.findUniqueOrThrow({ where: { id: buyer.orderId } })).toMatchObject({
        status: 'CREATED',
      });
    } finally {
      await routed.close();
    }
  });
});

describe('provider secrets', () => {
  it('are in no log line and no answer, through a card payment and a callback', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const paid = await call(ctx.app, 'POST', '/api/payment', {
      token: buyer.token,
      body: { type: 'purchase', ...cardFields(CARDS.success) },
    });
    expect(PaymentResponseSchema.parse(paid.body)).toMatchObject({ status: 'success' });
    await eventually(async () => (await orderOf(buyer.orderId)).status === 'FULFILLED', 15_000);
    // And a callback refused, whose signature the log could have kept.
    const refused = await sendCallback(
      ctx.app,
      sandboxEventBody({ orderId: buyer.orderId, amountMinor: buyer.totalMinor }),
      { url: SANDBOX_URL, secret: `whsec_${randomBytes(32).toString('base64')}` },
    );
    expect(refused.status).toBe(401);
    const confirmed = await call(ctx.app, 'POST', `/api/orders/confirm/${buyer.orderId}`, { token: buyer.token });
    expect(confirmed.status).toBe(200);
    answers.push(...[paid, refused, confirmed].map((answer) => JSON.stringify(answer.body)));
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.join('\n')).toContain(buyer.orderId);
    const secrets = [SANDBOX_API_KEY, WEBHOOK_SECRET, WEBHOOK_KEY.toString('base64'), WEBHOOK_KEY.toString('hex')];
    for (const secret of secrets) {
      expect(lines.join('\n')).not.toContain(secret);
      expect(answers.join('\n')).not.toContain(secret);
    }
    expect(lines.join('\n')).not.toMatch(/v1,[A-Za-z0-9+/]{20,}/);
  });

  it('are named, never shown, when the environment refuses them', () => {
    const secret = `sk_live_${randomBytes(12).toString('hex')}`;
    let message = '';
    try {
      loadEnv({ NODE_ENV: 'test', PAYMENTS_PROVIDER: 'pix:stripe', STRIPE_SECRET_KEY: secret });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/STRIPE_PUBLISHABLE_KEY: must be set: a method routes to stripe/);
    expect(message).not.toContain(secret);
  });
});
