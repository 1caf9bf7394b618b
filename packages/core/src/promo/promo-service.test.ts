import { randomUUID } from 'node:crypto';
import { ErrorKeys } from '@store/contract';
import { createCodeCipher, devCodeKey, type Prisma, prismaQueryable } from '@store/db';
import { seedDemo } from '@store/db/seed';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { createPromoService, type PromoCodeRefusedError, type PromoLine } from './promo-service.ts';

let database: TestDatabase;
let now: Date;
let promo: ReturnType<typeof createPromoService>;
let steamLine: PromoLine;
let xboxLine: PromoLine;

const DAY = 86_400_000;
let counter = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemo(database.prisma, { cipher: createCodeCipher(devCodeKey()) });
  now = new Date();
  promo = createPromoService({ db: database.prisma, sql: database.sql, clock: () => now });
  const pick = async (slug: string) => {
    const product = await database.prisma.product.findFirstOrThrow({
      where: { isActive: true, category: { slug } },
      orderBy: { id: 'asc' },
    });
    return { id: product.id, price_minor: product.priceMinor, quantity: 1 };
  };
  steamLine = { ...(await pick('steam')), quantity: 2 };
  xboxLine = await pick('xbox');
});
afterAll(async () => {
  await database?.cleanup();
});

function uniqueCode() {
  counter += 1;
  return `REDEEM${Date.now().toString(36).toUpperCase()}${counter}`;
}

async function createCustomer() {
  counter += 1;
  return database.prisma.user.create({
    data: { email: `promo.${counter}.${randomUUID()}@example.com`, name: `Promo${counter}`, passwordHash: 'x' },
  });
}

const subtotal = (lines: PromoLine[]) => lines.reduce((sum, line) => sum + line.price_minor * line.quantity, 0);

/** What the order will do: create the order and redeem the code, in one transaction. */
function placeOrder(userId: string, code: string, lines: PromoLine[]) {
  return database.prisma.$transaction(
    async (tx: Prisma.TransactionClient) => {
      const order = await tx.order.create({
        data: { userId, type: 'PURCHASE', subtotalMinor: subtotal(lines), totalMinor: subtotal(lines) },
      });
      const discount = await promo.redeemPromoCode(prismaQueryable(tx), { code, userId, orderId: order.id, lines });
      await tx.order.update({
        where: { id: order.id },
        data: {
          promoCodeId: discount.promoCodeId,
          discountMinor: discount.discountMinor,
          totalMinor: discount.subtotalMinor - discount.discountMinor,
        },
      });
      return { order, discount };
    },
    { maxWait: 20_000, timeout: 20_000 },
  );
}

async function refusalOf(promise: Promise<unknown>): Promise<string> {
  const error = (await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )) as PromoCodeRefusedError | undefined;
  expect(error, 'the code was refused').toBeInstanceOf(ValidationError);
  expect(error?.errors).toEqual({ code: [ErrorKeys.invalidPromoCode] });
  return (error as PromoCodeRefusedError).reason;
}

describe('redeemPromoCode', () => {
  it('records the use, counts it and computes the discount from the order lines given', async () => {
    const code = uniqueCode();
    await promo.createPromoCode({ code, percent: 15, maxUses: 5, categories: ['xbox'] });
    const customer = await createCustomer();
    const { order, discount } = await placeOrder(customer.id, ` ${code.toLowerCase()} `, [steamLine, xboxLine]);

    expect(discount).toMatchObject({
      code,
      percent: 15,
      subtotalMinor: subtotal([steamLine, xboxLine]),
      discountMinor: Math.floor((xboxLine.price_minor * 15 + 50) / 100),
      appliesTo: [xboxLine.id],
    });
    const stored = await database.prisma.promoCode.findUniqueOrThrow({
      where: { code },
      include: { redemptions: true },
    });
    expect(stored.usedCount).toBe(1);
    expect(stored.redemptions).toEqual([expect.objectContaining({ userId: customer.id, orderId: order.id })]);
  });

  it('checks every rule again at order time', async () => {
    const code = uniqueCode();
    await promo.createPromoCode({ code, percent: 10, validUntil: new Date(now.getTime() + DAY) });
    const customer = await createCustomer();
    const later = new Date(now.getTime() + 2 * DAY);
    const late = createPromoService({ db: database.prisma, sql: database.sql, clock: () => later });
    const attempt = database.prisma.$transaction(async (tx) => {
      const order = await tx.order.create({
        data: { userId: customer.id, type: 'PURCHASE', subtotalMinor: 100, totalMinor: 100 },
      });
      return late.redeemPromoCode(prismaQueryable(tx), {
        code,
        userId: customer.id,
        orderId: order.id,
        lines: [xboxLine],
      });
    });
    expect(await refusalOf(attempt)).toBe('expired');
    expect(await refusalOf(placeOrder(customer.id, 'NOSUCHCODE', [xboxLine]))).toBe('unknown');
    expect(await refusalOf(placeOrder(customer.id, code, []))).toBe('empty_basket');
    const outOfScope = uniqueCode();
    await promo.createPromoCode({ code: outOfScope, percent: 10, productIds: [steamLine.id] });
    expect(await refusalOf(placeOrder(customer.id, outOfScope, [xboxLine]))).toBe('out_of_scope');
    // A refused redemption takes the order down with it and counts nothing.
    expect(await database.prisma.order.count({ where: { userId: customer.id } })).toBe(0);
    expect((await database.prisma.promoCode.findUniqueOrThrow({ where: { code } })).usedCount).toBe(0);
  });

  it('gives the last use of a limited code to exactly one of several concurrent orders', async () => {
    const code = uniqueCode();
    await promo.createPromoCode({ code, percent: 20, maxUses: 3 });
    await database.prisma.promoCode.update({ where: { code }, data: { usedCount: 2 } });
    const customers = await Promise.all(Array.from({ length: 6 }, () => createCustomer()));

    const results = await Promise.allSettled(customers.map((customer) => placeOrder(customer.id, code, [xboxLine])));

    const won = results.filter((result) => result.status === 'fulfilled');
    const lost = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost.map((result) => (result.reason as PromoCodeRefusedError).reason)).toEqual(Array(5).fill('used_up'));
    const stored = await database.prisma.promoCode.findUniqueOrThrow({
      where: { code },
      include: { redemptions: true },
    });
    expect(stored.usedCount).toBe(3);
    expect(stored.redemptions).toHaveLength(1);
    expect(await database.prisma.order.count({ where: { userId: { in: customers.map((c) => c.id) } } })).toBe(1);
  });

  it("gives one customer's concurrent orders one use of the code between them, held until that order is paid", async () => {
    const code = uniqueCode();
    await promo.createPromoCode({ code, percent: 5 });
    const customer = await createCustomer();

    const results = await Promise.allSettled([1, 2, 3].map(() => placeOrder(customer.id, code, [steamLine])));

    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect((result.reason as PromoCodeRefusedError).reason).toBe('held');
    }
    expect((await database.prisma.promoCode.findUniqueOrThrow({ where: { code } })).usedCount).toBe(1);
    // The order holding it waits for its payment: the code is held, not spent.
    expect(await refusalOf(placeOrder(customer.id, code, [steamLine]))).toBe('held');
    const [holding] = await database.prisma.promoRedemption.findMany({ where: { userId: customer.id } });
    await database.prisma.order.update({
      where: { id: holding?.orderId },
      data: { status: 'FULFILLED', paidAt: new Date(), fulfilledAt: new Date() },
    });
    expect(await refusalOf(placeOrder(customer.id, code, [steamLine]))).toBe('already_used');
  });
});

describe('operator functions', () => {
  it('create a code with its scope, list it and deactivate it', async () => {
    const code = uniqueCode();
    const validFrom = new Date(now.getTime() - DAY);
    const validUntil = new Date(now.getTime() + 30 * DAY);
    const created = await promo.createPromoCode({
      code: code.toLowerCase(),
      percent: 12,
      validFrom,
      validUntil,
      maxUses: 100,
      categories: ['xbox', 'steam', 'xbox'],
      productIds: [xboxLine.id],
    });
    expect(created).toMatchObject({
      code,
      percent: 12,
      validFrom,
      validUntil,
      maxUses: 100,
      usedCount: 0,
      isActive: true,
      status: 'usable',
      categories: ['steam', 'xbox'],
      productIds: [xboxLine.id],
    });
    expect((await promo.listPromoCodes()).find((listed) => listed.code === code)).toEqual(created);

    const deactivated = await promo.deactivatePromoCode(` ${code.toLowerCase()}`);
    expect(deactivated).toMatchObject({ code, isActive: false, status: 'inactive' });
    expect(await promo.deactivatePromoCode(code)).toMatchObject({ isActive: false });
    const customer = await createCustomer();
    expect(await refusalOf(placeOrder(customer.id, code, [xboxLine]))).toBe('inactive');
  });

  it('list what each code would meet now', async () => {
    const [scheduled, ended, spent] = [uniqueCode(), uniqueCode(), uniqueCode()];
    await promo.createPromoCode({ code: scheduled, percent: 5, validFrom: new Date(now.getTime() + DAY) });
    await promo.createPromoCode({ code: ended, percent: 5, validUntil: new Date(now.getTime() - 1) });
    await promo.createPromoCode({ code: spent, percent: 5, maxUses: 1 });
    await database.prisma.promoCode.update({ where: { code: spent }, data: { usedCount: 1 } });
    const status = new Map((await promo.listPromoCodes()).map((listed) => [listed.code, listed.status]));
    expect([status.get(scheduled), status.get(ended), status.get(spent), status.get('WELCOME10')]).toEqual([
      'not_yet_valid',
      'expired',
      'used_up',
      'usable',
    ]);
  });

  it('refuse unknown categories and products and a code that exists, naming each', async () => {
    const error = await promo
      .createPromoCode({ code: 'welcome10', percent: 5, categories: ['steam', 'nosuch'], productIds: [2_000_000_000] })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual({
      categories: [ErrorKeys.invalidValue],
      products: [ErrorKeys.invalidValue],
      code: [ErrorKeys.duplicateValue],
    });
    expect((error as ValidationError).message).toBe(
      'no category nosuch; no product 2000000000; the code WELCOME10 exists already.',
    );
    await expect(promo.deactivatePromoCode('NOSUCHCODE')).rejects.toBeInstanceOf(NotFoundError);
  });
});
