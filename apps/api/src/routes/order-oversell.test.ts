import { ErrorKeys } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { createCodedProduct, createSignedInCustomers, fundMany } from '../../test/orders.ts';

// A thousand customers buy the last hundred codes of a product at the same moment, through the API:
// each creates a spending order and pays it from the balance. Run against PostgreSQL (DATABASE_URL);
// concurrency cannot be shown on PGlite, which runs one query at a time.

const CODES = 100;
const CUSTOMERS = 1_000;
const PRICE = 2_990;

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '100000' }, { queue: createRecordingQueue() });
});
afterAll(async () => {
  await ctx?.close();
});

describe('oversell', () => {
  // A race: run three times, each on a product and customers of its own.
  it(`sells ${CODES} codes exactly once each to ${CUSTOMERS} concurrent buyers; the rest are refused or refunded`, {
    repeats: 2,
    timeout: 120_000,
  }, async () => {
    const db = ctx.database.prisma;
    const { product, codes } = await createCodedProduct(db, { stock: CODES, priceMinor: PRICE });
    const customers = await createSignedInCustomers(ctx.app, db, CUSTOMERS);
    await fundMany(
      ctx.database.sql,
      customers.map((customer) => customer.userId),
      PRICE,
    );
    await db.basketLine.createMany({
      data: customers.map((customer) => ({ userId: customer.userId, productId: product.id, quantity: 1 })),
    });

    const started = Date.now();
    const results = await Promise.all(
      customers.map(async ({ token }) => {
        const created = await call(ctx.app, 'POST', '/api/orders/create?type=spending', {
          token,
          body: { type: 'spending' },
        });
        if (created.status !== 201) return { created };
        const spent = await call(
          ctx.app,
          'POST',
          `/api/payment/spending-balance-handle?orderId=${created.body.order_id}`,
          { token },
        );
        return { created, spent };
      }),
    );
    const elapsedMs = Date.now() - started;

    const statuses = results.flatMap(({ created, spent }) => [created.status, ...(spent ? [spent.status] : [])]);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    const refusedAtCreation = results.filter(({ created }) => created.status === 422);
    for (const { created } of refusedAtCreation) {
      expect(created.body.errors).toEqual({ [`products.${product.id}`]: [ErrorKeys.outOfStock] });
    }
    const spends = results.flatMap(({ spent }) => (spent ? [spent] : []));
    expect(spends.every((spent) => spent.status === 200)).toBe(true);
    expect(refusedAtCreation.length + spends.length).toBe(CUSTOMERS);
    const fulfilled = spends.filter((spent) => spent.body.status === 'fulfilled');
    const refunded = spends.filter((spent) => spent.body.status === 'refunded');
    expect(fulfilled).toHaveLength(CODES);
    expect(fulfilled.length + refunded.length).toBe(spends.length);
    for (const spent of refunded) expect(spent.body).toMatchObject({ refunded_minor: PRICE, balance_minor: PRICE });
    for (const spent of fulfilled) expect(spent.body).toMatchObject({ refunded_minor: 0, balance_minor: 0 });

    const sold = await db.productCode.findMany({ where: { productId: product.id } });
    expect(sold).toHaveLength(CODES);
    expect(sold.every((code) => code.status === 'SOLD' && code.orderLineId !== null)).toBe(true);
    expect(new Set(sold.map((code) => code.orderLineId)).size).toBe(CODES);
    const lines = await db.orderLine.findMany({
      where: { productId: product.id, codes: { some: {} } },
      select: { order: { select: { userId: true, status: true } }, _count: { select: { codes: true } } },
    });
    expect(lines).toHaveLength(CODES);
    expect(lines.every((line) => line._count.codes === 1 && line.order.status === 'FULFILLED')).toBe(true);
    expect(new Set(lines.map((line) => line.order.userId)).size).toBe(CODES);
    expect(await db.product.findUniqueOrThrow({ where: { id: product.id } })).toMatchObject({
      stockCount: 0,
      purchasedCount: CODES,
    });
    expect(codes).toHaveLength(CODES);

    const balances = await db.user.aggregate({
      where: { id: { in: customers.map((customer) => customer.userId) } },
      _sum: { balanceMinor: true },
    });
    expect(Number(balances._sum.balanceMinor)).toBe((CUSTOMERS - CODES) * PRICE);
    expect(await ctx.app.services.ledger.verifyBooks()).toEqual([]);
    process.stdout.write(
      `oversell: ${CUSTOMERS} buyers in ${elapsedMs} ms; ${refusedAtCreation.length} refused at creation, ` +
        `${fulfilled.length} fulfilled, ${refunded.length} refunded\n`,
    );
  });
});
