import { randomUUID } from 'node:crypto';
import { CreateOrderResponseSchema, OrderDeliverySchema } from '@store/contract';
import {
  createDevMailbox,
  createInProcessQueue,
  createJobHandlers,
  createOrderOperations,
  createOutboxMailer,
  type JobQueue,
} from '@store/core';
import { seedDemo } from '@store/db/seed';
import { createTestDatabase } from '@store/db/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../test/accounts.ts';
import { buildTestApp, type TestDatabase } from '../../test/helper.ts';
import { createCodedProduct, fund, testCipher } from '../../test/orders.ts';
import { loggerOptions } from '../app.ts';
import { loadEnv } from '../env.ts';

// Codes are secrets: they reach their owner in a response body and nowhere else. This runs a whole
// purchase with the production logger at its most talkative level and the real in-process queue
// (which renders and "sends" the receipt), then looks for the codes in every log line and every
// outbox row.

const lines: string[] = [];
const stream = { write: (line: string) => lines.push(line) };
let ctx: Awaited<ReturnType<typeof buildTestApp>>;
let database: TestDatabase;
let queue: JobQueue;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemo(database.prisma, { cipher: testCipher });
  const production = loggerOptions(loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'trace' })) as pino.LoggerOptions;
  // The jobs log through the same production logger, so a receipt's sending is captured too.
  const jobLogger = pino({ ...production, level: 'trace' }, stream);
  const devMailbox = createDevMailbox();
  queue = createInProcessQueue(
    createJobHandlers({
      sql: database.sql,
      logger: jobLogger,
      mailer: createOutboxMailer(devMailbox, jobLogger),
    }),
    jobLogger,
  );
  ctx = await buildTestApp(
    { RATE_LIMIT_SCALE: '1000' },
    { database, queue, devMailbox, logger: { ...production, level: 'trace', stream } },
  );
});
afterAll(async () => {
  await ctx?.close();
  await queue?.close();
  await database?.cleanup();
});

describe('codes', () => {
  it('never appear in a log line or in the outbox, only in the owner’s answers', async () => {
    const db = ctx.database.prisma;
    const { token, user } = await registerUser(ctx.app);
    await fund(ctx.database.sql, user.id, 100_000);
    const { product, codes } = await createCodedProduct(db, { stock: 3, priceMinor: 1_000 });
    const flush = await call(ctx.app, 'PATCH', '/api/basket', {
      token,
      body: { flush_id: randomUUID(), products: [{ id: product.id, type: 'increase', count: 3 }] },
    });
    expect(flush.status).toBe(200);
    const created = await call(ctx.app, 'POST', '/api/orders/create?type=spending', {
      token,
      body: { type: 'spending' },
    });
    const { order_id } = CreateOrderResponseSchema.parse(created.body);
    expect(
      (await call(ctx.app, 'POST', `/api/payment/spending-balance-handle?orderId=${order_id}`, { token })).status,
    ).toBe(200);
    const delivery = OrderDeliverySchema.parse(
      (await call(ctx.app, 'GET', `/api/payment-confirm/${order_id}`, { token })).body,
    );
    expect(delivery.products[0]?.codes.map((code) => code.code).sort()).toEqual([...codes].sort());
    await call(ctx.app, 'GET', `/api/payment-products/${order_id}`, { token });
    await call(ctx.app, 'GET', '/api/profile/products/purchased/search?search_string=Order', { token });

    // An operator refunds the order: the balance notice goes the same way as the receipt.
    await createOrderOperations({ db, sql: ctx.database.sql, publicUrl: 'http://localhost:3000', queue }).refundOrder(
      order_id,
    );

    // Both were rendered and handed to the (outbox) mailer by the in-process queue.
    const sent = async () =>
      (await db.outboundEmail.findMany({ where: { toAddress: user.email } })).map((row) => [row.template, row.status]);
    for (let waited = 0; waited < 200; waited += 1) {
      if ((await sent()).every(([, status]) => status !== 'PENDING')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await sent()).sort()).toEqual([
      ['account-activation', 'SENT'],
      ['balance-refund', 'SENT'],
      ['order-receipt', 'SENT'],
    ]);

    const log = lines.join('');
    expect(log).toContain(order_id);
    expect(log).toContain('email delivered into the dev mailbox');
    const outbox = JSON.stringify(await db.outboundEmail.findMany());
    const mailbox = JSON.stringify((await call(ctx.app, 'GET', `/dev/mailbox.json?to=${user.email}`)).body);
    expect(mailbox).toContain('/profile');
    for (const code of codes) {
      expect(log).not.toContain(code);
      expect(outbox).not.toContain(code);
      expect(mailbox).not.toContain(code);
    }
  });
});
