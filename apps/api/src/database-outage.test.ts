import { signCallback } from '@store/core/testing';
import { createDatabase, type Database } from '@store/db';
import { createProductRefs } from '@store/db/testing';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../test/accounts.ts';
import { buildTestApp } from '../test/helper.ts';
import { customerWithCardPayment, sandboxEventBody, WEBHOOK_SECRET } from '../test/payments.ts';
import { type PrivatePostgres, postgresBinDir, startPrivatePostgres } from '../test/private-postgres.ts';
import { READY_CACHE_MS } from './routes/health-routes.ts';

const binDir = postgresBinDir();
if (!binDir) {
  if (process.env.CI === 'true') {
    throw new Error('CI=true, but initdb and pg_ctl are not installed: the PostgreSQL outage test cannot run.');
  }
  process.stderr.write('\n*** initdb is not installed: answers while PostgreSQL is down are NOT tested. ***\n\n');
}

/** What a client gets while the database is away: the API's 503 shape, nothing of the driver's. */
function expectUnavailable(response: { status: number; headers: Record<string, unknown>; body: unknown }) {
  expect(response.status).toBe(503);
  expect(response.headers['retry-after']).toBe('5');
  expect(response.body).toEqual({ message: 'The store is unavailable for a moment. Please try again shortly.' });
}

/**
 * PostgreSQL stops and comes back under a running API (a restart, a failover): meanwhile a shopper,
 * a signed-in customer and the payment provider are told 503 with Retry-After, never a 500; once it
 * is back the same requests succeed without restarting the app.
 */
describe.runIf(binDir)('answers while PostgreSQL is down', () => {
  let postgres: PrivatePostgres;
  let database: Database;
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;

  beforeAll(async () => {
    // A PostgreSQL of this test's own: the shared one must never go down.
    postgres = await startPrivatePostgres(binDir as string);
    database = await createDatabase({ databaseUrl: postgres.url, poolSize: 4 });
    await createProductRefs(database.prisma);
    ctx = await buildTestApp(
      { RATE_LIMIT_SCALE: '1000' },
      { database: { ...database, url: postgres.url, cleanup: () => database.close() } },
    );
  });
  afterAll(async () => {
    await ctx?.close();
    await database?.close();
    await postgres?.destroy();
  });

  it('answers 503 with Retry-After while it is down, and serves the same requests once it is back', async () => {
    const { app } = ctx;
    const order = await customerWithCardPayment(app, database.prisma);
    const callback = sandboxEventBody({
      orderId: order.orderId,
      amountMinor: order.totalMinor,
      providerPaymentId: order.providerPaymentId,
    });
    const answerOf = async (response: Promise<LightMyRequestResponse>) => {
      const { statusCode, headers, body } = await response;
      return { status: statusCode, headers, body: JSON.parse(body) as unknown };
    };
    const requests = {
      shopper: () => call(app, 'GET', `/api/products/feedbacks/${order.product.id}`),
      signedIn: () => call(app, 'GET', '/api/user', { token: order.token }),
      callback: () =>
        answerOf(
          app.inject({
            method: 'POST',
            url: '/api/payments/callback',
            headers: signCallback(WEBHOOK_SECRET, callback, { id: 'evt_outage' }),
            payload: callback,
          }),
        ),
      ready: () => answerOf(app.inject({ method: 'GET', url: '/ready' })),
    };

    await postgres.stop();
    expectUnavailable(await requests.shopper());
    expectUnavailable(await requests.signedIn());
    expectUnavailable(await requests.callback());
    expect(await requests.ready()).toMatchObject({
      status: 503,
      body: { status: 'unavailable', checks: { database: 'failed', queue: 'degraded' } },
    });

    await postgres.start();
    expect((await requests.shopper()).status).toBe(200);
    expect(await requests.signedIn()).toMatchObject({ status: 200, body: { user: { email: order.email } } });
    expect(await requests.callback()).toMatchObject({ status: 200, body: { received: true, duplicate: false } });
    await new Promise((resolve) => setTimeout(resolve, READY_CACHE_MS));
    expect(await requests.ready()).toMatchObject({ status: 200, body: { status: 'ready' } });
  });
});
