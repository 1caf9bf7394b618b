import { randomUUID } from 'node:crypto';
import {
  ErrorKeys,
  PROMO_LOGIN_REQUIRED,
  PromoErrorSchema,
  type PromoRefusal,
  PromoResultSchema,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectFieldError, registerUser } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { createTestProduct } from '../../test/products.ts';
import { rateLimit } from '../plugins/rate-limit-presets.ts';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' }, { queue: createRecordingQueue() });
});
afterAll(async () => {
  await ctx?.close();
});

const DAY = 86_400_000;
const db = () => ctx.database.prisma;
const product = (options?: Parameters<typeof createTestProduct>[1]) => createTestProduct(db(), options);
let codeCounter = 0;
/** A code no other test of this run uses. */
function newCode(prefix = 'TEST') {
  codeCounter += 1;
  return `${prefix}${Date.now().toString(36).toUpperCase()}${codeCounter}`;
}

const tryCode = (token: string | undefined, code: string, price = '100', app = ctx.app) =>
  call(app, 'POST', `/api/promocode/?price=${price}&code=${encodeURIComponent(code)}`, { token, body: {} });

/** A customer whose server basket holds these lines. */
async function customerWith(lines: Array<{ id: number; count: number }>) {
  const customer = await registerUser(ctx.app);
  if (lines.length > 0) {
    const response = await call(ctx.app, 'PATCH', '/api/basket', {
      token: customer.token,
      body: { flush_id: randomUUID(), products: lines.map(({ id, count }) => ({ id, type: 'increase', count })) },
    });
    expect(response.status).toBe(200);
  }
  return customer;
}

function expectRefusal(response: { status: number; body: unknown }, reason: PromoRefusal) {
  expect(response.status).toBe(422);
  const body = PromoErrorSchema.parse(response.body);
  expect(body.errors).toEqual({ code: [ErrorKeys.invalidPromoCode] });
  expect(body.reason).toBe(reason);
  expect(body.message.length).toBeGreaterThan(0);
}

describe('POST /api/promocode', () => {
  let cheap: Awaited<ReturnType<typeof product>>;
  let dear: Awaited<ReturnType<typeof product>>;
  beforeAll(async () => {
    cheap = await product({ priceMinor: 1_005 });
    dear = await product({ priceMinor: 4_995, category: 'xbox' });
  });

  it('answers WELCOME10 on the server basket: price, discounted price and percent, rounded per line', async () => {
    const { token } = await customerWith([
      { id: cheap.id, count: 1 },
      { id: dear.id, count: 3 },
    ]);
    // The client's own total is not what the discount is computed from.
    const response = await tryCode(token, 'WELCOME10', '1');
    expect(response.status).toBe(200);
    // 10.05 x 1 -> 1.005 off, rounded half up to 1.01; 49.95 x 3 = 149.85 -> 14.985 off, 14.99.
    expect(PromoResultSchema.parse(response.body)).toEqual({
      code: 'WELCOME10',
      price: 159.9,
      priceWithDiscount: 143.9,
      discount: 10,
      price_minor: 15_990,
      price_with_discount_minor: 14_390,
      discount_minor: 1_600,
      currency: 'BRL',
      applies_to: [cheap.id, dear.id],
    });
  });

  it('ignores case and surrounding spaces, on the path with or without its trailing slash', async () => {
    const { token } = await customerWith([{ id: cheap.id, count: 1 }]);
    for (const code of ['welcome10', '  WeLcOmE10 ', '\tWELCOME10']) {
      const response = await tryCode(token, code);
      expect(response.status, code).toBe(200);
      expect(response.body.code).toBe('WELCOME10');
    }
    const noSlash = await call(ctx.app, 'POST', '/api/promocode?code=welcome10', { token, body: {} });
    expect(noSlash.status).toBe(200);
  });

  it('tells a guest to log in (401 with the hint code)', async () => {
    const response = await tryCode(undefined, 'WELCOME10');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: expect.any(String), code: PROMO_LOGIN_REQUIRED });
    expect((await tryCode('forged.token.here', 'WELCOME10')).body.code).toBe(PROMO_LOGIN_REQUIRED);
  });

  it('refuses an unknown code', async () => {
    const { token } = await customerWith([{ id: cheap.id, count: 1 }]);
    expectRefusal(await tryCode(token, 'NOSUCHCODE'), 'unknown');
  });

  it('refuses a deactivated code', async () => {
    const code = newCode();
    await db().promoCode.create({ data: { code, discountPercent: 5, isActive: false } });
    const { token } = await customerWith([{ id: cheap.id, count: 1 }]);
    expectRefusal(await tryCode(token, code), 'inactive');
  });

  it('refuses a code before its window opens and after it closes, and takes it in between', async () => {
    const now = Date.now();
    const early = newCode();
    const late = newCode();
    const open = newCode();
    await db().promoCode.createMany({
      data: [
        { code: early, discountPercent: 5, validFrom: new Date(now + DAY) },
        { code: late, discountPercent: 5, validFrom: new Date(now - 2 * DAY), validUntil: new Date(now - 1_000) },
        { code: open, discountPercent: 5, validFrom: new Date(now - DAY), validUntil: new Date(now + DAY) },
      ],
    });
    const { token } = await customerWith([{ id: cheap.id, count: 1 }]);
    expectRefusal(await tryCode(token, early), 'not_yet_valid');
    expectRefusal(await tryCode(token, late), 'expired');
    expect((await tryCode(token, open)).status).toBe(200);
  });

  it('refuses a code whose uses are all taken', async () => {
    const code = newCode();
    await db().promoCode.create({ data: { code, discountPercent: 5, maxUses: 2, usedCount: 2 } });
    const { token } = await customerWith([{ id: cheap.id, count: 1 }]);
    expectRefusal(await tryCode(token, code), 'used_up');
  });

  it('refuses a code this customer has used already, and not for another customer', async () => {
    const code = newCode();
    const promo = await db().promoCode.create({ data: { code, discountPercent: 5 } });
    const first = await customerWith([{ id: cheap.id, count: 1 }]);
    const order = await db().order.create({
      data: { userId: first.user.id, type: 'PURCHASE', subtotalMinor: 1_005, discountMinor: 50, totalMinor: 955 },
    });
    await db().promoRedemption.create({ data: { promoCodeId: promo.id, userId: first.user.id, orderId: order.id } });
    // On an order whose payment the provider is deciding the code is held, and says so; once paid, used.
    await db().payment.create({
      data: {
        orderId: order.id,
        provider: 'sandbox',
        method: 'QR',
        status: 'PENDING',
        amountMinor: 955,
        currency: 'BRL',
      },
    });
    expectRefusal(await tryCode(first.token, code), 'held');
    await db().order.update({
      where: { id: order.id },
      data: { status: 'FULFILLED', paidAt: new Date(), fulfilledAt: new Date() },
    });
    expectRefusal(await tryCode(first.token, code), 'already_used');
    const second = await customerWith([{ id: cheap.id, count: 1 }]);
    expect((await tryCode(second.token, code)).status).toBe(200);
  });

  it('gives a code back from an order given up (its widget closed) to the next order, and keeps it with one the provider is deciding', async () => {
    const code = newCode();
    await db().promoCode.create({ data: { code, discountPercent: 10 } });
    const { token, user } = await customerWith([{ id: cheap.id, count: 1 }]);
    const order = (body: object) => call(ctx.app, 'POST', '/api/orders/create', { token, body });
    const first = await order({ type: 'purchase', code });
    expect(first.status).toBe(201);
    const firstId = String(first.body.order_id);
    // The widget opened (the store's record of the attempt, not yet known to the provider), then closed.
    await db().payment.create({
      data: { orderId: firstId, provider: 'sandbox', method: 'WIDGET', amountMinor: 905, currency: 'BRL' },
    });
    await db().order.update({ where: { id: firstId }, data: { status: 'PENDING' } });
    // The code applies again, and the next order takes it; the one given up is cancelled.
    expect(PromoResultSchema.parse((await tryCode(token, code)).body).discount_minor).toBe(101);
    const second = await order({ type: 'purchase', code });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const secondId = String(second.body.order_id);
    expect(await db().order.findUniqueOrThrow({ where: { id: firstId } })).toMatchObject({ status: 'CANCELLED' });
    expect(await db().order.findUniqueOrThrow({ where: { id: secondId } })).toMatchObject({
      status: 'CREATED',
      discountMinor: 101n,
    });
    const stored = await db().promoCode.findUniqueOrThrow({ where: { code }, include: { redemptions: true } });
    expect(stored.usedCount).toBe(1);
    expect(stored.redemptions.map((redemption) => redemption.orderId)).toEqual([secondId]);

    // A payment the provider is deciding (a QR waiting for the bank) keeps its order and the code.
    await db().payment.create({
      data: {
        orderId: secondId,
        provider: 'sandbox',
        method: 'QR',
        status: 'PENDING',
        providerPaymentId: `pay_${randomUUID()}`,
        amountMinor: 904,
        currency: 'BRL',
      },
    });
    expectRefusal(await tryCode(token, code), 'held');
    const third = await order({ type: 'purchase', code });
    expect(third.status).toBe(422);
    expect(third.body).toMatchObject({ errors: { code: [ErrorKeys.invalidPromoCode] } });
    expect(String(third.body.message)).toMatch(/still waiting for its payment/);
    expect(await db().order.findUniqueOrThrow({ where: { id: secondId } })).toMatchObject({ status: 'CREATED' });
    expect(await db().order.count({ where: { userId: user.id } })).toBe(2);
  });

  it('applies a scoped code to the lines in its scope only', async () => {
    const byCategory = newCode();
    const byProduct = newCode();
    const xbox = await db().category.findUniqueOrThrow({ where: { slug: 'xbox' } });
    await db().promoCode.create({
      data: { code: byCategory, discountPercent: 20, categories: { create: [{ categoryId: xbox.id }] } },
    });
    await db().promoCode.create({
      data: { code: byProduct, discountPercent: 50, products: { create: [{ productId: cheap.id }] } },
    });
    const { token } = await customerWith([
      { id: cheap.id, count: 2 },
      { id: dear.id, count: 1 },
    ]);
    const category = PromoResultSchema.parse((await tryCode(token, byCategory)).body);
    expect(category).toMatchObject({ price_minor: 7_005, discount_minor: 999, applies_to: [dear.id], discount: 20 });
    const single = PromoResultSchema.parse((await tryCode(token, byProduct)).body);
    expect(single).toMatchObject({ price_minor: 7_005, discount_minor: 1_005, applies_to: [cheap.id] });
    expect(single.price_with_discount_minor).toBe(6_000);
  });

  it('refuses a scoped code when nothing in the basket is in its scope', async () => {
    const code = newCode();
    const netflix = await db().category.findUniqueOrThrow({ where: { slug: 'netflix' } });
    await db().promoCode.create({
      data: { code, discountPercent: 10, categories: { create: [{ categoryId: netflix.id }] } },
    });
    const { token } = await customerWith([{ id: cheap.id, count: 1 }]);
    expectRefusal(await tryCode(token, code), 'out_of_scope');
  });

  it('refuses any code on an empty basket', async () => {
    const { token } = await customerWith([]);
    expectRefusal(await tryCode(token, 'WELCOME10'), 'empty_basket');
  });

  it('checks the code and price for shape, with field errors and no reason', async () => {
    const { token } = await customerWith([{ id: cheap.id, count: 1 }]);
    const short = await tryCode(token, 'ab');
    expectFieldError(short, 'code', ErrorKeys.tooShort);
    expect(short.body.reason).toBeUndefined();
    expectFieldError(await tryCode(token, 'WELCOME 10'), 'code', ErrorKeys.invalidPromoCode);
    expectFieldError(await tryCode(token, 'X'.repeat(33)), 'code', ErrorKeys.tooLong);
    expectFieldError(await tryCode(token, 'WELCOME10', 'abc'), 'price', ErrorKeys.notANumber);
    expectFieldError(await tryCode(token, 'WELCOME10', '-5'), 'price', ErrorKeys.notANumber);
    expectFieldError(
      await call(ctx.app, 'POST', '/api/promocode/?price=10', { token, body: {} }),
      'code',
      ErrorKeys.requiredField,
    );
    expect((await tryCode(token, 'WELCOME10', '1234.5')).status).toBe(200);
  });
});

describe('repeated tries', () => {
  it('are refused with 429 and the server message once the promo limit is reached', async () => {
    const scale = 0.1;
    const { max } = rateLimit('promo', scale);
    const limited = await buildTestApp({ RATE_LIMIT_SCALE: String(scale) }, { database: ctx.database });
    try {
      const { token } = await customerWith([]);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < max; attempt += 1) {
        statuses.push((await tryCode(token, newCode('GUESS'), '100', limited.app)).status);
      }
      expect(statuses).toEqual(Array(max).fill(422));
      const refused = await tryCode(token, 'WELCOME10', '100', limited.app);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/^Too many requests/);
    } finally {
      await limited.close();
    }
  });
});
