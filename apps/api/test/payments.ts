import { randomBytes, randomUUID } from 'node:crypto';
import { CreateOrderResponseSchema } from '@store/contract';
import { freePort, signCallback } from '@store/core/testing';
import type { PrismaClient } from '@store/db';
import { DEV_WEBHOOK_SECRET } from '@store/sandbox/dev-secrets';
import { expect } from 'vitest';
import type { App } from '../src/app.ts';
import { call, registerUser } from './accounts.ts';
import { buildTestApp, type TestAppOptions } from './helper.ts';
import { createCodedProduct } from './orders.ts';

/** The secret the test app verifies callbacks with (the development default). */
export const WEBHOOK_SECRET = DEV_WEBHOOK_SECRET;

/** The test cards of the sandbox (docs/sandbox.md, "Test cards"). */
export const CARDS = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  threeDs: '4000 0000 0000 3220',
  threeDsRedirect: '4000 0027 6000 3184',
  threeDsThenDeclined: '4000 0084 0000 1629',
  mir: '2200 0000 0000 0004',
} as const;

/** The own card form's fields for a card: any future expiry, a CVV of 100 to 999. */
export const cardFields = (number: string) => ({
  card_number: number,
  month: '12',
  year: '35',
  cvc: '123',
  screenHeight: 800,
  screenWidth: 375,
  timeZoneOffset: 180,
});

/**
 * A test app that listens on a port of its own, as `pnpm start` does: the embedded sandbox is called
 * over HTTP at http://127.0.0.1:PORT/sandbox and calls back http://127.0.0.1:PORT/api/payments/callback.
 */
export async function listeningTestApp(envOverrides: Record<string, string> = {}, options: TestAppOptions = {}) {
  const port = await freePort();
  const ctx = await buildTestApp({ PORT: String(port), RATE_LIMIT_SCALE: '1000', ...envOverrides }, options);
  await ctx.app.listen({ host: '127.0.0.1', port });
  return { ...ctx, port, publicUrl: `http://localhost:${port}` };
}

/** A signed-in customer with `count` codes of a fresh product in the basket and an order made of it. */
export async function customerWithOrder(
  app: App,
  db: PrismaClient,
  { stock = 5, priceMinor = 2_990, count = 1 }: { stock?: number; priceMinor?: number; count?: number } = {},
) {
  const customer = await registerUser(app);
  const { product, codes } = await createCodedProduct(db, { stock, priceMinor });
  const flush = await call(app, 'PATCH', '/api/basket', {
    token: customer.token,
    body: { flush_id: randomUUID(), products: [{ id: product.id, type: 'increase', count }] },
  });
  expect(flush.status, JSON.stringify(flush.body)).toBe(200);
  const created = await call(app, 'POST', '/api/orders/create', { token: customer.token, body: { type: 'purchase' } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const order = CreateOrderResponseSchema.parse(created.body);
  return { ...customer, product, codes, orderId: order.order_id, totalMinor: order.total_minor };
}

/**
 * A customer's order (see customerWithOrder) with the store's record of a card payment the provider
 * knows as `providerPaymentId`.
 */
export async function customerWithCardPayment(app: App, db: PrismaClient, options: { count?: number } = {}) {
  const order = await customerWithOrder(app, db, options);
  const providerPaymentId = `pay_${randomBytes(12).toString('hex')}`;
  const payment = await db.payment.create({
    data: {
      orderId: order.orderId,
      provider: 'sandbox',
      method: 'CARD',
      amountMinor: order.totalMinor,
      currency: 'BRL',
      providerPaymentId,
    },
  });
  return { ...order, providerPaymentId, paymentId: payment.id };
}

/** A form post to the sandbox, as the browser sends it. */
export const postForm = (app: App, url: string, fields: Record<string, string>) =>
  app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });

export interface SandboxEvent {
  orderId: string;
  amountMinor: number;
  providerPaymentId?: string;
  status?: 'pending' | 'succeeded' | 'failed';
  version?: number;
  currency?: string;
  method?: 'card' | 'widget' | 'hosted_page' | 'qr' | 'upi';
}

/** A callback body in the sandbox's wire format (docs/sandbox.md, "Callbacks"). */
export function sandboxEventBody({
  orderId,
  amountMinor,
  providerPaymentId = `pay_${randomBytes(12).toString('hex')}`,
  status = 'succeeded',
  version = 2,
  currency = 'BRL',
  method = 'card',
}: SandboxEvent): string {
  const at = new Date().toISOString();
  return JSON.stringify({
    type: `payment.${status}`,
    timestamp: at,
    data: {
      id: providerPaymentId,
      order_id: orderId,
      method,
      status,
      amount_minor: amountMinor,
      currency,
      refunded_minor: 0,
      failure_reason: status === 'failed' ? 'card_declined' : null,
      card: status === 'pending' ? null : { brand: 'visa', last4: '4242' },
      version,
      created_at: at,
      updated_at: at,
    },
  });
}

/** POSTs a callback to the store as the provider would: raw body, Standard Webhooks headers. */
export async function sendCallback(
  app: App,
  body: string,
  {
    id = `evt_${randomBytes(12).toString('hex')}`,
    secret = WEBHOOK_SECRET,
    timestamp,
    headers,
    url = '/api/payments/callback',
  }: { id?: string; secret?: string; timestamp?: Date; headers?: Record<string, string>; url?: string } = {},
) {
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { ...signCallback(secret, body, { id, ...(timestamp ? { timestamp } : {}) }), ...headers },
    payload: body,
  });
  return { status: response.statusCode, body: response.body ? response.json() : undefined, id };
}
