import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandboxPaymentProvider } from '@store/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createRecordingQueue, type TestDatabase } from '../../test/helper.ts';
import { loadEnv } from '../env.ts';
import { SANDBOX_PREFIX, sandboxProviderConfig, usesEmbeddedSandbox } from './payments-sandbox.ts';

// The sandbox mounted in the store's process (the embedded default): its own prefix, its own
// headers, the store's untouched, and callbacks over HTTP to the store's callback URL.

let ctx: Awaited<ReturnType<typeof buildTestApp>>;
let receiver: ReturnType<typeof createServer>;
let callbackUrl: string;
const callbacks: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      callbacks.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/payments/callback`;
  ctx = await buildTestApp({ PAYMENTS_CALLBACK_URL: callbackUrl }, { queue: createRecordingQueue() });
});
afterAll(async () => {
  await ctx?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('the embedded sandbox', () => {
  it('is the default: mounted at /sandbox when no standalone sandbox is configured', () => {
    expect(usesEmbeddedSandbox(loadEnv({ NODE_ENV: 'test' }))).toBe(true);
    expect(usesEmbeddedSandbox(loadEnv({ NODE_ENV: 'test', SANDBOX_URL: 'http://sandbox:4010' }))).toBe(false);
  });

  it('answers the merchant’s calls from this machine only: the store calls it over the loopback', async () => {
    const merchantCall = (remoteAddress: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({
        method: 'GET',
        url: `${SANDBOX_PREFIX}/api/v1/payments?order_id=order-1`,
        headers: { authorization: `Bearer ${ctx.app.env.SANDBOX_API_KEY}`, ...headers },
        remoteAddress,
      });
    expect((await merchantCall('127.0.0.1')).statusCode).toBe(200);
    expect((await merchantCall('::1')).statusCode).toBe(200);
    for (const remoteAddress of ['203.0.113.7', '192.168.1.20', '::ffff:10.0.0.5']) {
      const refused = await merchantCall(remoteAddress);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: 'The merchant API answers calls from this machine only.' });
    }
    expect((await merchantCall('127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(403);
  });

  it('serves the widget script under its prefix', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${SANDBOX_PREFIX}/widget.js` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/javascript');
  });

  it('gives its pages their own policy and leaves the store’s as it is', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: `${SANDBOX_PREFIX}/qr/pay_unknown` });
    expect(page.statusCode).toBe(404);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'nonce-[^']+'/);
    expect(csp).toContain("form-action 'self' http://localhost:3000");
    expect(csp).not.toContain('upgrade-insecure-requests');

    const store = await ctx.app.inject({ method: 'GET', url: '/health' });
    const storeCsp = String(store.headers['content-security-policy']);
    expect(storeCsp).toContain("script-src 'self';");
    expect(storeCsp).toContain("form-action 'self';");
    expect(storeCsp).toContain("frame-ancestors 'none'");
    expect(storeCsp).not.toContain('nonce-');
  });

  it('opens the widget for pages of the store’s own origin only', async () => {
    const request = {
      order_id: 'order-1',
      amount: '10.00',
      currency: 'RUB',
      description: 'Digital goods',
      receipt: {
        email: 'ana@example.com',
        items: [
          {
            name: 'Steam 10',
            price: '10.00',
            quantity: 1,
            sum: '10.00',
            payment_method: 'full_prepayment',
            payment_object: 'service',
            vat: 'none',
          },
        ],
        payments: [{ type: 'electronic', sum: '10.00' }],
      },
    };
    const open = (origin: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `${SANDBOX_PREFIX}/widget/sessions`,
        headers: { origin },
        payload: request,
      });
    expect((await open('http://localhost:3000')).statusCode).toBe(201);
    expect((await open('https://evil.example')).statusCode).toBe(403);
  });

  it('is not in the store’s OpenAPI document', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(Object.keys(response.json().paths).filter((path) => path.startsWith(SANDBOX_PREFIX))).toEqual([]);
  });

  it('takes a card payment from the store’s adapter and calls back the store over HTTP, signed', async () => {
    const config = sandboxProviderConfig(ctx.app.env);
    expect(config.publicUrl).toBe('http://localhost:3000/sandbox');
    // The app is not listening in tests: the adapter's calls reach it through inject.
    const provider = createSandboxPaymentProvider({
      ...config,
      fetch: async (input, init) => {
        const url = new URL(String(input));
        const response = await ctx.app.inject({
          method: init?.method as 'POST',
          url: url.pathname + url.search,
          headers: init?.headers as Record<string, string>,
          payload: init?.body as string,
        });
        return new Response(response.body, { status: response.statusCode });
      },
    });
    const payment = await provider.createPayment({
      method: 'card',
      orderId: 'order-embedded',
      amountMinor: 10_000,
      currency: 'RUB',
      description: 'Steam 100',
      card: { number: '2200000000000004', expMonth: 12, expYear: 2099, cvc: '123' },
      browser: { ip: '203.0.113.7' },
      returnUrl: 'http://localhost:3000/?paymentConfirmOrder=order-embedded',
      idempotencyKey: 'embedded-1',
    });
    expect(payment).toMatchObject({ outcome: { status: 'success' }, card: { brand: 'mir', last4: '0004' } });

    const start = Date.now();
    while (callbacks.length === 0 && Date.now() - start < 10_000)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const [callback] = callbacks;
    if (!callback) throw new Error('no callback arrived');
    expect(provider.verifyCallback(callback.body, callback.headers)).toMatchObject({
      type: 'payment.succeeded',
      orderId: 'order-embedded',
      providerPaymentId: payment.providerPaymentId,
      amountMinor: 10_000,
    });
  });
});

describe('a standalone sandbox', () => {
  it('is not mounted, and the adapter is pointed at it', async () => {
    const database: TestDatabase = ctx.database;
    const standalone = await buildTestApp(
      { SANDBOX_URL: 'http://sandbox:4010', SANDBOX_PUBLIC_URL: 'http://localhost:4010' },
      { database, queue: createRecordingQueue() },
    );
    try {
      const response = await standalone.app.inject({ method: 'GET', url: `${SANDBOX_PREFIX}/widget.js` });
      expect(response.statusCode).toBe(404);
      expect(sandboxProviderConfig(standalone.app.env)).toMatchObject({
        apiUrl: 'http://sandbox:4010',
        publicUrl: 'http://localhost:4010',
      });
      // The checkout may load the provider's widget, call it, frame it and post forms to it.
      const csp = String(
        (await standalone.app.inject({ method: 'GET', url: '/health' })).headers['content-security-policy'],
      );
      for (const directive of ['script-src', 'connect-src', 'frame-src', 'form-action']) {
        expect(csp).toMatch(new RegExp(`${directive} 'self' http://localhost:4010(;|$)`));
      }
      expect(csp).not.toContain('sandbox:4010');
    } finally {
      await standalone.close();
    }
  });
});
