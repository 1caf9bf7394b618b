import { OrderDeliverySchema, PaymentResponseSchema } from '@store/contract';
import { createLedgerService } from '@store/core';
import { eventually } from '@store/core/testing';
import { DEV_SANDBOX_API_KEY } from '@store/sandbox/dev-secrets';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts.ts';
import { CARDS, cardFields, customerWithOrder, listeningTestApp, postForm } from '../../test/payments.ts';
import { loggerOptions } from '../app.ts';
import { loadEnv } from '../env.ts';

// The sandbox misbehaving as providers do: every callback delivered twice, newest first, late. Each
// order still completes exactly once; and no code or card number reaches a log line, an email or a
// URL, with the production logger at its most talkative.

const lines: string[] = [];
const stream = { write: (line: string) => lines.push(line) };
let ctx: Awaited<ReturnType<typeof listeningTestApp>>;

beforeAll(async () => {
  const production = loggerOptions(loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'trace' })) as pino.LoggerOptions;
  ctx = await listeningTestApp(
    {},
    {
      logger: { ...production, level: 'trace', stream },
      jobLogger: pino({ ...production, level: 'trace' }, stream),
    },
  );
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.prisma;
const admin = { authorization: `Bearer ${DEV_SANDBOX_API_KEY}`, 'content-type': 'application/json' };

async function chaos(settings: { duplicate: boolean; out_of_order: boolean; delay_ms: number }) {
  const response = await ctx.app.inject({
    method: 'PUT',
    url: '/sandbox/admin/chaos',
    headers: admin,
    payload: settings,
  });
  expect(response.statusCode).toBe(200);
}

describe('with the sandbox’s chaos switch on (duplicates, out of order, late)', () => {
  it('every order completes exactly once, and no code or card number is in a log, an email or a URL', {
    timeout: 60_000,
  }, async () => {
    await chaos({ duplicate: true, out_of_order: true, delay_ms: 1_500 });
    try {
      const buyers = await Promise.all(
        Array.from({ length: 3 }, () => customerWithOrder(ctx.app, db(), { count: 2, stock: 4 })),
      );
      const [first, second, third] = buyers as [(typeof buyers)[0], (typeof buyers)[0], (typeof buyers)[0]];
      const pay = (buyer: typeof first, number: string) =>
        call(ctx.app, 'POST', '/api/payment', {
          token: buyer.token,
          body: { type: 'purchase', ...cardFields(number) },
        });
      // First a challenge, passed at once: its pending and its success leave in one late batch,
      // success first. Then two cards that succeed outright.
      const challenged = PaymentResponseSchema.parse((await pay(third, CARDS.threeDsRedirect)).body);
      if (challenged.status !== '3DS_REDIRECT') throw new Error(`expected 3DS_REDIRECT, got ${challenged.status}`);
      const passed = await postForm(ctx.app, '/sandbox/3ds/challenge', {
        ...challenged.redirectParams,
        outcome: 'pass',
      });
      expect(passed.statusCode).toBe(303);
      const returnUrl = String(passed.headers.location);
      expect(PaymentResponseSchema.parse((await pay(first, CARDS.success)).body).status).toBe('success');
      expect(PaymentResponseSchema.parse((await pay(second, CARDS.mir)).body).status).toBe('success');

      // Every copy of every callback delivered: two of each.
      await eventually(async () => {
        const { deliveries } = (
          await ctx.app.inject({ method: 'GET', url: '/sandbox/admin/deliveries', headers: admin })
        ).json() as {
          deliveries: Array<{ copy: number; state: string }>;
        };
        return deliveries.length === 8 && deliveries.every((delivery) => delivery.state === 'delivered');
      }, 20_000);
      await eventually(async () => (await db().paymentEvent.count({ where: { processedAt: null } })) === 0, 15_000);

      const codesShown: string[] = [];
      for (const buyer of buyers) {
        const order = await db().order.findUniqueOrThrow({ where: { id: buyer.orderId } });
        expect(order.status).toBe('FULFILLED');
        expect(await db().productCode.count({ where: { orderLine: { orderId: buyer.orderId } } })).toBe(2);
        const events = await db().paymentEvent.findMany({ where: { orderId: buyer.orderId } });
        expect(events.filter((event) => event.outcome === 'completed')).toHaveLength(1);
        const delivery = OrderDeliverySchema.parse(
          (await call(ctx.app, 'GET', `/api/payment-confirm/${buyer.orderId}`, { token: buyer.token })).body,
        );
        codesShown.push(...delivery.products.flatMap((product) => product.codes.map((code) => code.code)));
      }
      // The challenged payment: its success applied, its late pending stale.
      const third3ds = await db().paymentEvent.findMany({
        where: { orderId: third.orderId },
        orderBy: { version: 'asc' },
      });
      expect(third3ds.map((event) => [event.type, event.outcome])).toEqual([
        ['payment.pending', 'stale'],
        ['payment.succeeded', 'completed'],
      ]);
      expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);

      expect(codesShown).toHaveLength(6);
      await eventually(async () => (await db().outboundEmail.count({ where: { status: 'PENDING' } })) === 0, 10_000);
      const log = lines.join('');
      const outbox = JSON.stringify(await db().outboundEmail.findMany());
      expect(log).toContain('payment event applied');
      for (const code of [...codesShown, ...buyers.flatMap((buyer) => buyer.codes)]) {
        expect(log).not.toContain(code);
        expect(outbox).not.toContain(code);
        expect(returnUrl).not.toContain(code);
      }
      for (const number of [CARDS.success, CARDS.mir, CARDS.threeDsRedirect]) {
        expect(log).not.toContain(number.replaceAll(' ', ''));
        expect(log).not.toContain(number);
      }
    } finally {
      await chaos({ duplicate: false, out_of_order: false, delay_ms: 0 });
    }
  });
});
