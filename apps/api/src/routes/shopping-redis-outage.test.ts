import { randomUUID } from 'node:crypto';
import { type JobQueue, silentLogger } from '@store/core';
import { createBullQueue } from '@store/core/bullmq';
import { dropTestQueue, hasRedisServer, type PrivateRedis, startPrivateRedis } from '@store/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser, uniqueCustomer } from '../../test/accounts.ts';
import { buildTestApp } from '../../test/helper.ts';
import { customerWithCardPayment, sandboxEventBody, sendCallback } from '../../test/payments.ts';
import { createTestProduct } from '../../test/products.ts';

const canRun = hasRedisServer();
if (!canRun) console.warn('redis-server is not installed: shopping while Redis is down is NOT tested.');

/**
 * Redis holds rate-limit counts and the queue's jobs, nothing a shopper must wait for: with it down
 * (the app's connection and the queue's), every step of shopping still gets its usual answer.
 */
describe.runIf(canRun)('shopping while Redis is down', () => {
  const prefix = `test-shop-outage-${randomUUID()}`;
  let redis: PrivateRedis;
  let queue: JobQueue;
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let stopped = false;

  beforeAll(async () => {
    // A Redis of this test's own: the shared one must never go down.
    redis = await startPrivateRedis();
    queue = createBullQueue({ redisUrl: redis.url, prefix, logger: silentLogger });
    ctx = await buildTestApp(
      { RATE_LIMIT_SCALE: '1000' },
      { queue, redisUrl: redis.url, rateLimitNamespace: `test-shop-outage:${randomUUID()}:` },
    );
  });
  afterAll(async () => {
    // The clients' quit and close wait for a server to hear them.
    if (stopped) await redis.start();
    await ctx?.close();
    await queue?.close();
    if (redis) await dropTestQueue(redis.url, prefix).catch(() => undefined);
    await redis?.stop();
  });

  it('browses, registers, logs in, orders, and takes the provider’s callback', async () => {
    const { app, database } = ctx;
    const paid = await customerWithCardPayment(app, database.prisma);
    const customer = await registerUser(app);
    const inStock = await createTestProduct(database.prisma, { stock: 3 });
    const soldOut = await createTestProduct(database.prisma, { stock: 0 });
    await redis.stop();
    stopped = true;

    const statuses = {
      categories: (await call(app, 'GET', '/api/categories')).status,
      reviews: (await call(app, 'GET', `/api/products/feedbacks/${inStock.id}`)).status,
      stockNotification: (
        await call(app, 'POST', `/api/products/${soldOut.id}/stock-notifications`, {
          body: { email: `watcher.${randomUUID()}@example.com`, lang: 'en' },
        })
      ).status,
      register: (
        await call(app, 'POST', '/api/register', {
          body: { ...uniqueCustomer(), password: 'Secret123', password_confirmation: 'Secret123' },
        })
      ).status,
      login: (await call(app, 'POST', '/api/login', { body: { email: customer.email, password: customer.password } }))
        .status,
      user: (await call(app, 'GET', '/api/user', { token: customer.token })).status,
      basket: (
        await call(app, 'PATCH', '/api/basket', {
          token: customer.token,
          body: { flush_id: randomUUID(), products: [{ id: inStock.id, type: 'increase', count: 1 }] },
        })
      ).status,
      order: (await call(app, 'POST', '/api/orders/create', { token: customer.token, body: { type: 'purchase' } }))
        .status,
      passwordReset: (await call(app, 'POST', '/api/password-reset', { body: { email: customer.email } })).status,
      callback: (
        await sendCallback(
          app,
          sandboxEventBody({
            orderId: paid.orderId,
            amountMinor: paid.totalMinor,
            providerPaymentId: paid.providerPaymentId,
          }),
        )
      ).status,
    };
    expect(statuses).toEqual({
      categories: 200,
      reviews: 200,
      stockNotification: 200,
      register: 201,
      login: 200,
      user: 200,
      basket: 200,
      order: 201,
      passwordReset: 200,
      callback: 200,
    });
  });
});
