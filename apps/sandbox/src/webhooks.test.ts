import {
  CallbackVerificationError,
  type CardOutcome,
  createSandboxPaymentProvider,
  type PaymentProvider,
} from '@store/core';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEY,
  buildSandbox,
  firstForm,
  form,
  newSecret,
  PUBLIC_URL,
  pathOf,
  type ReceivedCallback,
  type Receiver,
  STORE_ORIGIN,
  startReceiver,
  type TestSandbox,
} from './test-support.ts';

let receiver: Receiver;
const sandboxes: TestSandbox[] = [];
let order = 0;

beforeAll(async () => {
  receiver = await startReceiver();
});

afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
  receiver.received.length = 0;
  receiver.respondWith(() => 200);
});

afterAll(async () => {
  await receiver.close();
});

async function setUp(overrides: Parameters<typeof buildSandbox>[0] = {}, storeSecrets?: string[]) {
  const sandbox = await buildSandbox(overrides);
  sandboxes.push(sandbox);
  const provider = createSandboxPaymentProvider({
    apiUrl: PUBLIC_URL,
    publicUrl: PUBLIC_URL,
    apiKey: API_KEY,
    webhookSecrets: storeSecrets ?? sandbox.options.webhookSecrets,
    callbackUrl: receiver.url,
    fetch: sandbox.fetch,
  });
  return { sandbox, provider };
}

const payCard = (provider: PaymentProvider, number = '4242424242424242') => {
  order += 1;
  return provider.createPayment({
    method: 'card',
    orderId: `order-h${order}`,
    amountMinor: 5_000,
    currency: 'RUB',
    description: 'Spotify 1 month',
    card: { number, expMonth: 12, expYear: 2099, cvc: '123' },
    browser: { ip: '203.0.113.7' },
    returnUrl: `${STORE_ORIGIN}/?paymentConfirmOrder=order-h${order}`,
    idempotencyKey: `hook-${order}`,
  });
};

const headersOf = (callback: ReceivedCallback) => ({
  'webhook-id': String(callback.headers['webhook-id']),
  'webhook-timestamp': String(callback.headers['webhook-timestamp']),
  'webhook-signature': String(callback.headers['webhook-signature']),
});

const reason = (run: () => unknown) => {
  try {
    run();
    return 'accepted';
  } catch (error) {
    return error instanceof CallbackVerificationError ? error.reason : String(error);
  }
};

describe('callbacks: signature', () => {
  it('are signed as Standard Webhooks: the library and the port both verify them', async () => {
    const { sandbox, provider } = await setUp();
    const payment = await payCard(provider);
    const [callback] = await receiver.waitFor(1);
    if (!callback) throw new Error('no callback');
    const headers = headersOf(callback);
    expect(headers['webhook-id']).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(callback.headers['content-type']).toBe('application/json');

    const [secret = ''] = sandbox.options.webhookSecrets;
    expect(new Webhook(secret).verify(callback.body, headers)).toMatchObject({ type: 'payment.succeeded' });
    expect(provider.verifyCallback(callback.body, callback.headers)).toMatchObject({
      eventId: headers['webhook-id'],
      type: 'payment.succeeded',
      providerPaymentId: payment.providerPaymentId,
      orderId: `order-h${order}`,
      amountMinor: 5_000,
      currency: 'RUB',
      status: 'succeeded',
    });
  });

  it('carry one signature per secret, so the store can rotate', async () => {
    const [older, newer] = [newSecret(), newSecret()];
    const { provider } = await setUp({ webhookSecrets: [newer, older] }, [older]);
    await payCard(provider);
    const [callback] = await receiver.waitFor(1);
    if (!callback) throw new Error('no callback');
    const headers = headersOf(callback);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [older, newer]) expect(() => new Webhook(secret).verify(callback.body, headers)).not.toThrow();
    expect(provider.verifyCallback(callback.body, headers).type).toBe('payment.succeeded');
  });

  it('are refused by the port when a byte changed, the secret is wrong or the timestamp is stale', async () => {
    const { provider } = await setUp();
    await payCard(provider);
    const [callback] = await receiver.waitFor(1);
    if (!callback) throw new Error('no callback');
    const headers = headersOf(callback);
    const body = Buffer.from(callback.body);
    const tampered = Buffer.from(body);
    const at = tampered.indexOf('5000');
    tampered[at] = '9'.charCodeAt(0);
    expect(reason(() => provider.verifyCallback(tampered, headers))).toBe('bad_signature');

    const { provider: otherStore } = await setUp({}, [newSecret()]);
    expect(reason(() => otherStore.verifyCallback(body, headers))).toBe('bad_signature');

    receiver.received.length = 0;
    const { provider: late } = await setUp({ clock: () => new Date(Date.now() - 10 * 60_000) });
    await payCard(late);
    const [stale] = await receiver.waitFor(1);
    if (!stale) throw new Error('no callback');
    expect(reason(() => late.verifyCallback(stale.body, stale.headers))).toBe('stale_timestamp');
  });
});

describe('callbacks: delivery', () => {
  it('retries with growing waits until the receiver acknowledges, with the same id each time', async () => {
    receiver.respondWith((index) => (index < 3 ? 500 : 200));
    const { sandbox, provider } = await setUp({ delivery: { baseDelayMs: 40, maxDelayMs: 1_000, maxAttempts: 6 } });
    await payCard(provider);
    const callbacks = await receiver.waitFor(4);
    const ids = new Set(callbacks.map((callback) => callback.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const callback of callbacks)
      expect(provider.verifyCallback(callback.body, callback.headers).type).toBe('payment.succeeded');
    const gaps = callbacks.slice(1).map((callback, index) => callback.at - (callbacks[index]?.at ?? 0));
    // 40, 80 and 160 ms, each within ±20%.
    expect(gaps[0]).toBeGreaterThanOrEqual(30);
    expect(gaps[2]).toBeGreaterThan(gaps[0] ?? 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(4);
    const log = await sandbox.app.inject({
      method: 'GET',
      url: '/sandbox/admin/deliveries',
      headers: { authorization: `Bearer ${API_KEY}` },
    });
    expect(log.json().deliveries).toMatchObject([{ state: 'delivered', attempts: 4, last_status: 200 }]);
  });

  it('gives up after the configured number of attempts', async () => {
    receiver.respondWith(() => 503);
    const { sandbox, provider } = await setUp({ delivery: { baseDelayMs: 10, maxDelayMs: 40, maxAttempts: 3 } });
    await payCard(provider);
    await receiver.waitFor(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(3);
    const log = await sandbox.app.inject({
      method: 'GET',
      url: '/sandbox/admin/deliveries',
      headers: { authorization: `Bearer ${API_KEY}` },
    });
    expect(log.json().deliveries).toMatchObject([{ state: 'failed', attempts: 3, last_status: 503 }]);
  });

  it('does not follow a redirect: a 3xx is not an acknowledgement', async () => {
    receiver.respondWith((index) => (index === 0 ? 307 : 200));
    const { provider } = await setUp();
    await payCard(provider);
    const callbacks = await receiver.waitFor(2);
    expect(callbacks[0]?.headers['webhook-id']).toBe(callbacks[1]?.headers['webhook-id']);
  });
});

describe('callbacks: the misbehaviour switch', () => {
  const admin = (sandbox: TestSandbox, payload: object) =>
    sandbox.app.inject({
      method: 'PUT',
      url: '/sandbox/admin/chaos',
      headers: { authorization: `Bearer ${API_KEY}` },
      payload,
    });

  it('is set over HTTP with the merchant’s key only', async () => {
    const { sandbox } = await setUp();
    const anonymous = await sandbox.app.inject({
      method: 'PUT',
      url: '/sandbox/admin/chaos',
      payload: { duplicate: true, out_of_order: true, delay_ms: 0 },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await admin(sandbox, { duplicate: 'yes' })).statusCode).toBe(422);
    const set = await admin(sandbox, { duplicate: true, out_of_order: false, delay_ms: 50 });
    expect(set.json()).toEqual({ duplicate: true, out_of_order: false, delay_ms: 50 });
  });

  it('delivers each callback twice, newest first, and late', async () => {
    const { sandbox, provider } = await setUp();
    expect((await admin(sandbox, { duplicate: true, out_of_order: true, delay_ms: 400 })).statusCode).toBe(200);

    const started = Date.now();
    const payment = await payCard(provider, '4000002760003184');
    const outcome = payment.outcome as Extract<CardOutcome, { status: '3DS_REDIRECT' }>;
    const challenge = await sandbox.app.inject({
      method: 'GET',
      url: pathOf(`${outcome.redirectUrl}?${new URLSearchParams(outcome.redirectParams)}`),
    });
    const answer = firstForm(challenge.body);
    await sandbox.app.inject({
      method: 'POST',
      url: pathOf(answer.action),
      ...form({ ...answer.fields, outcome: 'pass' }),
    });

    const callbacks = await receiver.waitFor(4);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(4);
    expect((callbacks[0]?.at ?? 0) - started).toBeGreaterThanOrEqual(400);

    const events = callbacks.map((callback) => provider.verifyCallback(callback.body, callback.headers));
    expect(events.map((event) => event.type)).toEqual([
      'payment.succeeded',
      'payment.pending',
      'payment.succeeded',
      'payment.pending',
    ]);
    // The pending event happened first (lower version) and arrives after the success.
    expect(events[0]?.version).toBeGreaterThan(events[1]?.version ?? Number.POSITIVE_INFINITY);
    const perId = new Map<string, number>();
    for (const event of events) perId.set(event.eventId, (perId.get(event.eventId) ?? 0) + 1);
    expect([...perId.values()]).toEqual([2, 2]);

    expect((await admin(sandbox, { duplicate: false, out_of_order: false, delay_ms: 0 })).statusCode).toBe(200);
    receiver.received.length = 0;
    await payCard(provider);
    await receiver.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(1);
  });

  it('can be on from the start, as an option', async () => {
    const { provider } = await setUp({ chaos: { duplicate: true } });
    await payCard(provider);
    const callbacks = await receiver.waitFor(2);
    expect(callbacks[0]?.headers['webhook-id']).toBe(callbacks[1]?.headers['webhook-id']);
  });
});
