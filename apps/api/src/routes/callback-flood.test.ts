import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { eventually } from '@store/core/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';
import { customerWithCardPayment, sandboxEventBody, sendCallback } from '../../test/payments.ts';
import {
  CALLBACK_FAILURE_BURST,
  CALLBACK_FAILURES_PER_SECOND,
  CALLBACK_RETRY_AFTER_SECONDS,
  createTokenBucket,
} from './callback-routes.ts';

// A flood of forged callbacks from many addresses, each well under its own rate limit (the presets
// unscaled): the instance's budget of failures answers them, 401 and then 429, without a statement
// to the database, while the provider's real callbacks go through.

const ADDRESSES = 64;
let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp();
  // Ready, and done with what it does once ready (the back-in-stock sweep), so that whatever reaches
  // the database from here on is the requests'.
  await ctx.app.ready();
  await ctx.app.services.stockNotifications.notifyRestocked();
});
afterAll(async () => {
  await ctx?.close();
  vi.restoreAllMocks();
});

/**
 * Counts the statements this process sends to a database from here on, at the drivers @store/db
 * loads: pg's client (every pool's queries go through it) and PGlite's entry points.
 */
async function countStatements(): Promise<() => number> {
  const fromDb = createRequire(new URL('../../../../packages/db/package.json', import.meta.url));
  const pg = fromDb('pg') as { Client: { prototype: { query: () => unknown } } };
  const pgliteEsm = fromDb.resolve('@electric-sql/pglite').replace(/\.cjs$/, '.js');
  const { PGlite } = (await import(pathToFileURL(pgliteEsm).href)) as {
    PGlite: { prototype: Record<'query' | 'exec' | 'transaction', () => unknown> };
  };
  const spies = [
    vi.spyOn(pg.Client.prototype, 'query'),
    vi.spyOn(PGlite.prototype, 'query'),
    vi.spyOn(PGlite.prototype, 'exec'),
    vi.spyOn(PGlite.prototype, 'transaction'),
  ];
  return () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
}

/** A callback a forger can send: a real event's body, fresh headers, a signature no secret made. */
function forged(address: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/payments/callback',
    remoteAddress: address,
    headers: {
      'content-type': 'application/json',
      'webhook-id': `evt_${randomBytes(12).toString('hex')}`,
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': `v1,${randomBytes(32).toString('base64')}`,
    },
    payload: sandboxEventBody({ orderId: randomUUID(), amountMinor: 2_990 }),
  });
}

/** `perAddress` forged callbacks from each of the 64 addresses, all at once. */
const flood = (perAddress: number) =>
  Promise.all(Array.from({ length: ADDRESSES * perAddress }, (_, index) => forged(`10.7.${index % ADDRESSES}.1`)));

describe('a flood of forged callbacks', () => {
  it('is refused 401 up to the budget and 429 with Retry-After past it, and sends the database nothing', async () => {
    const statements = await countStatements();
    const answers = await flood(4);
    const refusedAtOnce = answers.filter((answer) => answer.statusCode === 401).length;
    const overBudget = answers.filter((answer) => answer.statusCode === 429);
    expect(refusedAtOnce + overBudget.length).toBe(answers.length);
    // The burst, and what the bucket won back while the flood was being answered.
    expect(refusedAtOnce).toBeGreaterThanOrEqual(CALLBACK_FAILURE_BURST);
    expect(refusedAtOnce).toBeLessThan(CALLBACK_FAILURE_BURST + 40);
    for (const answer of overBudget) {
      expect(answer.headers['retry-after']).toBe(String(CALLBACK_RETRY_AFTER_SECONDS));
      expect(answer.json()).toEqual({ message: expect.stringContaining('try again later') });
    }
    expect(statements()).toBe(0);
    vi.restoreAllMocks();
  });

  it('does not keep a correctly signed callback out: it is acknowledged and its order fulfilled', async () => {
    const order = await customerWithCardPayment(ctx.app, ctx.database.prisma);
    const body = sandboxEventBody({
      orderId: order.orderId,
      amountMinor: order.totalMinor,
      providerPaymentId: order.providerPaymentId,
    });
    const [real, forgedAnswers, signedNoEvent] = await Promise.all([
      sendCallback(ctx.app, body),
      flood(2),
      // Signed but no event: the provider's mistake, answered as ever and outside the budget.
      sendCallback(ctx.app, JSON.stringify({ hello: 'world' })),
    ]);
    expect(real.status).toBe(200);
    expect(real.body).toEqual({ received: true, duplicate: false });
    expect(signedNoEvent.status).toBe(400);
    // The budget is still spent: the flood's callbacks are refused past it.
    expect(forgedAnswers.filter((answer) => answer.statusCode === 429).length).toBeGreaterThan(ADDRESSES);
    expect(forgedAnswers.every((answer) => [401, 429].includes(answer.statusCode))).toBe(true);
    await eventually(
      async () =>
        (await ctx.database.prisma.order.findUniqueOrThrow({ where: { id: order.orderId } })).status === 'FULFILLED',
      15_000,
    );
    expect(await ctx.database.prisma.paymentEvent.count({ where: { orderId: order.orderId } })).toBe(1);
  });
});

describe('the budget’s token bucket', () => {
  it('gives its size at once, then what it wins back, never more than its size', () => {
    let now = 0;
    const bucket = createTokenBucket(3, CALLBACK_FAILURES_PER_SECOND, () => now);
    const takes = (count: number) => Array.from({ length: count }, () => bucket.take()).filter(Boolean).length;
    expect(takes(5)).toBe(3);
    now += 1_000 / CALLBACK_FAILURES_PER_SECOND;
    expect(takes(5)).toBe(1);
    now += 60_000;
    expect(takes(10)).toBe(3);
  });
});
