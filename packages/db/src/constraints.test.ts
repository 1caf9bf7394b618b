import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodeCipher } from './code-cipher.ts';
import { createProductRefs, createTestDatabase, type ProductRefs, type TestDatabase } from './testing.ts';

// What the migration adds beyond schema.prisma: the stock trigger, the CHECK constraints and pg_trgm.
const cipher = createCodeCipher('0f'.repeat(32));
let db: TestDatabase;
let refs: ProductRefs;

beforeAll(async () => {
  db = await createTestDatabase();
  refs = await createProductRefs(db.prisma);
});
afterAll(async () => {
  await db?.cleanup();
});

function createProduct(name: string, priceMinor = 29_990) {
  return db.prisma.product.create({ data: { ...refs, name, nominalMinor: 5_000, priceMinor } });
}

async function addCodes(productId: number, count: number) {
  const codes = Array.from({ length: count }, () => randomUUID());
  await db.prisma.productCode.createMany({
    data: codes.map((code) => ({ productId, ciphertext: cipher.encrypt(code), codeDigest: cipher.digest(code) })),
  });
}

async function stockOf(productId: number) {
  const product = await db.prisma.product.findUniqueOrThrow({ where: { id: productId } });
  const available = await db.prisma.productCode.count({ where: { productId, status: 'AVAILABLE' } });
  expect(product.stockCount, 'stock_count equals the AVAILABLE codes').toBe(available);
  return product.stockCount;
}

async function orderLineFor(productId: number) {
  const user = await db.prisma.user.create({
    data: { email: `${randomUUID()}@example.com`, name: 'Buyer', passwordHash: 'x' },
  });
  const order = await db.prisma.order.create({
    data: {
      userId: user.id,
      type: 'PURCHASE',
      subtotalMinor: 100,
      totalMinor: 100,
      lines: { create: { productId, productName: 'line', quantity: 1, unitPriceMinor: 100 } },
    },
    include: { lines: true },
  });
  return order.lines[0]!.id;
}

describe('products.stock_count trigger', () => {
  it('counts inserted codes', async () => {
    const product = await createProduct('Trigger Insert Card');
    expect(await stockOf(product.id)).toBe(0);
    await addCodes(product.id, 5);
    expect(await stockOf(product.id)).toBe(5);
  });

  it('counts one statement of codes for several products, each once, and only those in stock', async () => {
    const first = await createProduct('Trigger Batch First');
    const second = await createProduct('Trigger Batch Second');
    await addCodes(first.id, 1);
    const lineId = await orderLineFor(second.id);
    const row = (productId: number, reserved = false) => {
      const code = randomUUID();
      return {
        productId,
        ciphertext: cipher.encrypt(code),
        codeDigest: cipher.digest(code),
        ...(reserved ? { status: 'RESERVED' as const, orderLineId: lineId } : {}),
      };
    };
    await db.prisma.productCode.createMany({
      data: [row(first.id), row(second.id), row(first.id), row(second.id, true), row(second.id), row(first.id)],
    });
    expect([await stockOf(first.id), await stockOf(second.id)]).toEqual([4, 2]);
  });

  it('follows sales, returns to stock and deletes', async () => {
    const product = await createProduct('Trigger Status Card');
    await addCodes(product.id, 4);
    const [first, second] = await db.prisma.productCode.findMany({ where: { productId: product.id }, take: 2 });
    const lineId = await orderLineFor(product.id);

    await db.prisma.productCode.updateMany({
      where: { id: { in: [first!.id, second!.id] } },
      data: { status: 'SOLD', orderLineId: lineId, soldAt: new Date() },
    });
    expect(await stockOf(product.id)).toBe(2);

    await db.prisma.productCode.update({
      where: { id: first!.id },
      data: { status: 'AVAILABLE', orderLineId: null, soldAt: null },
    });
    expect(await stockOf(product.id)).toBe(3);

    await db.prisma.productCode.delete({ where: { id: second!.id } });
    expect(await stockOf(product.id)).toBe(3);
    await db.prisma.productCode.delete({ where: { id: first!.id } });
    expect(await stockOf(product.id)).toBe(2);
  });

  it('moves stock when a code moves to another product, and ignores other updates', async () => {
    const from = await createProduct('Trigger Move From');
    const to = await createProduct('Trigger Move To');
    await addCodes(from.id, 3);
    const code = await db.prisma.productCode.findFirstOrThrow({ where: { productId: from.id } });
    await db.prisma.productCode.update({ where: { id: code.id }, data: { productId: to.id } });
    expect([await stockOf(from.id), await stockOf(to.id)]).toEqual([2, 1]);
    await db.prisma.productCode.update({ where: { id: code.id }, data: { createdAt: new Date(0) } });
    expect([await stockOf(from.id), await stockOf(to.id)]).toEqual([2, 1]);
  });
});

describe('CHECK constraints', () => {
  const violates = (promise: Promise<unknown>) => expect(promise).rejects.toThrow(/check constraint|violates/i);

  it('keeps a balance from going below zero', async () => {
    const user = await db.prisma.user.create({
      data: { email: 'balance@example.com', name: 'Saver', passwordHash: 'x', balanceMinor: 500 },
    });
    await violates(db.prisma.user.update({ where: { id: user.id }, data: { balanceMinor: { decrement: 501 } } }));
    await db.prisma.user.update({ where: { id: user.id }, data: { balanceMinor: { decrement: 500 } } });
  });

  it('refuses negative prices, stock below zero and a non-positive basket quantity', async () => {
    await violates(createProduct('Negative Price Card', -1));
    const product = await createProduct('Checked Card');
    await violates(db.prisma.product.update({ where: { id: product.id }, data: { stockCount: -1 } }));
    const user = await db.prisma.user.create({
      data: { email: 'basket@example.com', name: 'Basket', passwordHash: 'x' },
    });
    await violates(db.prisma.basketLine.create({ data: { userId: user.id, productId: product.id, quantity: 0 } }));
    await db.prisma.basketLine.create({ data: { userId: user.id, productId: product.id, quantity: 1 } });
  });

  it('refuses an order line of no items', async () => {
    const product = await createProduct('Order Line Card');
    const lineId = await orderLineFor(product.id);
    await violates(db.prisma.orderLine.update({ where: { id: lineId }, data: { quantity: 0 } }));
  });

  it('keeps ratings within 1..5 and discounts within 1..100 percent', async () => {
    const product = await createProduct('Reviewed Card');
    const user = await db.prisma.user.create({
      data: { email: 'review@example.com', name: 'Critic', passwordHash: 'x' },
    });
    const review = { productId: product.id, userId: user.id, text: 'ok' };
    await violates(db.prisma.review.create({ data: { ...review, rating: 0 } }));
    await violates(db.prisma.review.create({ data: { ...review, rating: 6 } }));
    await db.prisma.review.create({ data: { ...review, rating: 5 } });
    await violates(db.prisma.promoCode.create({ data: { code: 'ZERO', discountPercent: 0 } }));
    await violates(db.prisma.promoCode.create({ data: { code: 'TOOMUCH', discountPercent: 101 } }));
    await db.prisma.promoCode.create({ data: { code: 'ALL', discountPercent: 100 } });
  });

  it('holds promo codes to upper-case codes, a usage count within the limit and a window that ends after it starts', async () => {
    await violates(db.prisma.promoCode.create({ data: { code: 'lower', discountPercent: 5 } }));
    await violates(db.prisma.promoCode.create({ data: { code: 'WITH SPACE', discountPercent: 5 } }));
    await violates(db.prisma.promoCode.create({ data: { code: 'NOUSES', discountPercent: 5, maxUses: 0 } }));
    const at = new Date('2026-12-01T00:00:00Z');
    await violates(
      db.prisma.promoCode.create({ data: { code: 'BACKWARDS', discountPercent: 5, validFrom: at, validUntil: at } }),
    );
    const limited = await db.prisma.promoCode.create({ data: { code: 'TWICE_2-X', discountPercent: 5, maxUses: 2 } });
    await db.prisma.promoCode.update({ where: { id: limited.id }, data: { usedCount: 2 } });
    await violates(db.prisma.promoCode.update({ where: { id: limited.id }, data: { usedCount: 3 } }));
    await violates(db.prisma.promoCode.update({ where: { id: limited.id }, data: { usedCount: -1 } }));
  });
});

describe('pg_trgm', () => {
  it('finds Steam products for the misspelt "stem"', async () => {
    await createProduct('Steam Gift Card 50 USD');
    await createProduct('Spotify Premium 3 Months');
    const rows = await db.prisma.$queryRaw<Array<{ name: string }>>`
      SELECT name FROM products WHERE 'stem' <% name ORDER BY word_similarity('stem', name) DESC`;
    expect(rows.map((row) => row.name)).toContain('Steam Gift Card 50 USD');
    expect(rows.map((row) => row.name)).not.toContain('Spotify Premium 3 Months');
  });

  it('can answer the search from a trigram index', async () => {
    const [, plan] = await db.prisma.$transaction([
      db.prisma.$executeRaw`SET LOCAL enable_seqscan = off`,
      db.prisma.$queryRaw<Array<{ 'QUERY PLAN': string }>>`
        EXPLAIN SELECT id FROM products WHERE 'stem' <% name`,
    ]);
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/products_name_trgm(_gist)?_idx/);
  });
});
