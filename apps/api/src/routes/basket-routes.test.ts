import { randomUUID } from 'node:crypto';
import {
  BASKET_CHANGES_MAX,
  BASKET_LINE_MAX,
  BASKET_LINES_MAX,
  type BasketResponse,
  BasketResponseSchema,
  ErrorKeys,
  STORE_DISPLAY_RATE,
} from '@store/contract';
import { BASKET_REQUEST_TTL_MS } from '@store/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectFieldError, registerUser } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { createTestProduct } from '../../test/products.ts';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' }, { queue: createRecordingQueue() });
});
afterAll(async () => {
  await ctx?.close();
});

type Change = { id: number; type: 'increase' | 'decrease'; count: number };

const product = (options?: Parameters<typeof createTestProduct>[1]) => createTestProduct(ctx.database.prisma, options);
const getBasket = (token?: string) => call(ctx.app, 'GET', '/api/basket', { token });
const patch = (token: string | undefined, body: unknown) => call(ctx.app, 'PATCH', '/api/basket', { token, body });
const merge = (token: string | undefined, body: unknown) => call(ctx.app, 'POST', '/api/basket/merge', { token, body });

/** A flush that must succeed; answers the basket, checked against the contract. */
async function flush(token: string, products: Change[], flushId: string = randomUUID()): Promise<BasketResponse> {
  const response = await patch(token, { flush_id: flushId, products });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return BasketResponseSchema.parse(response.body);
}

async function basketOf(token: string): Promise<BasketResponse> {
  const response = await getBasket(token);
  expect(response.status).toBe(200);
  return BasketResponseSchema.parse(response.body);
}

const quantities = (basket: BasketResponse) =>
  Object.fromEntries(basket.products.map((line) => [line.id, line.pivot.quantity]));

const up = (id: number, count = 1): Change => ({ id, type: 'increase', count });
const down = (id: number, count = 1): Change => ({ id, type: 'decrease', count });

describe('the OpenAPI document', () => {
  it('documents the basket and promo code calls', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = response.json().paths;
    expect(Object.keys(paths['/api/basket'] ?? {}).sort()).toEqual(['get', 'patch']);
    expect(Object.keys(paths['/api/basket/merge'] ?? {})).toEqual(['post']);
    expect(Object.keys(paths['/api/promocode'] ?? {})).toEqual(['post']);
  });
});

describe('without a token', () => {
  it('answers 401 to every basket call and changes nothing', async () => {
    const { id } = await product();
    expect((await getBasket()).status).toBe(401);
    expect((await patch(undefined, { flush_id: randomUUID(), products: [up(id)] })).status).toBe(401);
    expect((await merge(undefined, { merge_id: randomUUID(), products: [{ id, quantity: 1 }] })).status).toBe(401);
    expect((await getBasket('not-a-token')).status).toBe(401);
    expect(await ctx.database.prisma.basketLine.count({ where: { productId: id } })).toBe(0);
  });
});

describe('GET and PATCH /api/basket', () => {
  it('starts empty', async () => {
    const { token } = await registerUser(ctx.app);
    expect(await basketOf(token)).toEqual({
      products: [],
      total_minor: 0,
      total: 0,
      currency: 'BRL',
      capped: [],
      display: STORE_DISPLAY_RATE,
    });
  });

  it('adds, raises, lowers and removes lines, with product data, quantities and totals', async () => {
    const { token } = await registerUser(ctx.app);
    const first = await product({ priceMinor: 1_990, stock: 8 });
    const second = await product({ priceMinor: 5_000 });

    let basket = await flush(token, [up(first.id, 2), up(second.id)]);
    expect(basket.products).toEqual([
      {
        id: first.id,
        article: String(first.id),
        name: first.name,
        price: 19.9,
        price_minor: 1_990,
        currency: 'BRL',
        category: 'steam',
        cover_path: null,
        cover_text: null,
        country_icon: expect.any(String),
        // The region the code activates in: the basket and the checkout remind of it.
        country: {
          code: expect.stringMatching(/^[A-Z]{2,8}$/),
          name: expect.toSatisfy((v) => v === null || typeof v === 'string'),
        },
        in_stock: true,
        pivot: { quantity: 2 },
        max_quantity: 8,
      },
      expect.objectContaining({ id: second.id, pivot: { quantity: 1 }, max_quantity: BASKET_LINE_MAX }),
    ]);
    expect(basket).toMatchObject({ total_minor: 2 * 1_990 + 5_000, total: 89.8, currency: 'BRL', capped: [] });

    basket = await flush(token, [up(first.id, 3), down(second.id)]);
    expect(quantities(basket)).toEqual({ [first.id]: 5 });
    basket = await flush(token, [down(first.id, 2)]);
    expect(quantities(basket)).toEqual({ [first.id]: 3 });
    // Lowering below zero removes the line, and lowering a line that is not there does nothing.
    basket = await flush(token, [down(first.id, 7), down(second.id, 2)]);
    expect(basket.products).toEqual([]);
    expect(basket.total_minor).toBe(0);
    expect(await basketOf(token)).toEqual(basket);
  });

  it('lists lines in the order they were added, whatever changes them later', async () => {
    const { token } = await registerUser(ctx.app);
    const a = await product();
    const b = await product();
    const c = await product();
    await flush(token, [up(b.id)]);
    // In one flush, the order of its changes, not of the ids.
    await flush(token, [up(c.id), up(a.id)]);
    await flush(token, [up(b.id, 2), up(c.id)]);
    expect((await basketOf(token)).products.map((line) => line.id)).toEqual([b.id, c.id, a.id]);
    // A line removed and added again goes to the end.
    await flush(token, [down(b.id, 3)]);
    await flush(token, [up(b.id)]);
    expect((await basketOf(token)).products.map((line) => line.id)).toEqual([c.id, a.id, b.id]);
  });

  it('applies a retried flush once and answers it with the basket as it is', async () => {
    const { token } = await registerUser(ctx.app);
    const { id } = await product();
    const flushId = randomUUID();
    const first = await flush(token, [up(id, 2)], flushId);
    const retry = await flush(token, [up(id, 2)], flushId);
    expect(quantities(first)).toEqual({ [id]: 2 });
    expect(retry).toEqual(first);
    // The same id in capitals is the same UUID.
    expect(quantities(await flush(token, [up(id, 2)], flushId.toUpperCase()))).toEqual({ [id]: 2 });
    // A later flush with a new id still counts, and a retry of the first still does not.
    await flush(token, [up(id)]);
    expect(quantities(await flush(token, [up(id, 2)], flushId))).toEqual({ [id]: 3 });
  });

  it('applies a flush without an id as it is sent, each time it arrives', async () => {
    const { token, user } = await registerUser(ctx.app);
    const { id } = await product();
    const { id: other } = await product();
    const once = await patch(token, { products: [up(id, 2), up(other)] });
    expect(once.status, JSON.stringify(once.body)).toBe(200);
    expect(quantities(BasketResponseSchema.parse(once.body))).toEqual({ [id]: 2, [other]: 1 });
    const again = await patch(token, { products: [up(id, 2), down(other)] });
    expect(quantities(BasketResponseSchema.parse(again.body))).toEqual({ [id]: 4 });
    // Nothing is remembered for it; a later flush with an id is applied once, as always.
    expect(await ctx.database.prisma.basketRequest.count({ where: { userId: user.id } })).toBe(0);
    const flushId = randomUUID();
    await flush(token, [down(id)], flushId);
    expect(quantities(await flush(token, [down(id)], flushId))).toEqual({ [id]: 3 });
  });

  it('applies a flush sent twice at the same moment once', async () => {
    const { token } = await registerUser(ctx.app);
    const { id } = await product();
    const flushId = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => patch(token, { flush_id: flushId, products: [up(id, 3)] })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(quantities(await basketOf(token))).toEqual({ [id]: 3 });
  });

  it('sums flushes from several tabs sent at the same moment', async () => {
    const { token } = await registerUser(ctx.app);
    const [a, b] = await Promise.all([product(), product()]);
    await flush(token, [up(a.id)]);
    const tabs = 6;
    const answers = await Promise.all(
      Array.from({ length: tabs }, (_, tab) =>
        patch(token, { flush_id: randomUUID(), products: tab % 2 === 0 ? [up(a.id), up(b.id)] : [up(b.id), up(a.id)] }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(tabs).fill(200));
    expect(quantities(await basketOf(token))).toEqual({ [a.id]: 1 + tabs, [b.id]: tabs });
  });

  it('caps a line at the stock and at the per-line maximum, and says so', async () => {
    const { token } = await registerUser(ctx.app);
    const scarce = await product({ stock: 3 });
    const plenty = await product({ stock: 40 });
    const soldOut = await product({ stock: 0 });

    let basket = await flush(token, [up(scarce.id, 5), up(plenty.id, 9), up(soldOut.id)]);
    expect(quantities(basket)).toEqual({ [scarce.id]: 3, [plenty.id]: 9 });
    expect(basket.capped).toEqual([
      { id: scarce.id, requested: 5, quantity: 3, reason: 'stock' },
      { id: soldOut.id, requested: 1, quantity: 0, reason: 'stock' },
    ]);
    expect(basket.products.map((line) => line.max_quantity)).toEqual([3, BASKET_LINE_MAX]);

    basket = await flush(token, [up(plenty.id, 4), up(scarce.id)]);
    expect(quantities(basket)).toEqual({ [scarce.id]: 3, [plenty.id]: BASKET_LINE_MAX });
    expect(basket.capped).toEqual([
      { id: plenty.id, requested: 13, quantity: BASKET_LINE_MAX, reason: 'line_max' },
      { id: scarce.id, requested: 4, quantity: 3, reason: 'stock' },
    ]);
    // `capped` belongs to the call that capped: the next answer has none.
    expect((await basketOf(token)).capped).toEqual([]);
  });

  it('brings a line down to the stock left when it is next changed', async () => {
    const { token } = await registerUser(ctx.app);
    const card = await product({ stock: 6 });
    await flush(token, [up(card.id, 6)]);
    // Codes sold to someone else meanwhile.
    await ctx.database.prisma.productCode.deleteMany({
      where: {
        id: {
          in: (await ctx.database.prisma.productCode.findMany({ where: { productId: card.id }, take: 4 })).map(
            (c) => c.id,
          ),
        },
      },
    });
    const shown = await basketOf(token);
    expect(shown.products[0]).toMatchObject({ pivot: { quantity: 6 }, max_quantity: 2, in_stock: true });
    const basket = await flush(token, [down(card.id)]);
    expect(quantities(basket)).toEqual({ [card.id]: 2 });
    expect(basket.capped).toEqual([{ id: card.id, requested: 5, quantity: 2, reason: 'stock' }]);
  });

  it(`holds at most ${BASKET_LINES_MAX} lines`, async () => {
    const { token } = await registerUser(ctx.app);
    const products = await Promise.all(Array.from({ length: BASKET_LINES_MAX + 2 }, () => product({ stock: 1 })));
    const ids = products.map((p) => p.id);
    await flush(
      token,
      ids.slice(0, 30).map((id) => up(id)),
    );
    const basket = await flush(
      token,
      ids.slice(30).map((id) => up(id)),
    );
    expect(basket.products).toHaveLength(BASKET_LINES_MAX);
    expect(basket.capped).toEqual(
      ids.slice(BASKET_LINES_MAX).map((id) => ({ id, requested: 1, quantity: 0, reason: 'basket_full' })),
    );
    // Room made by removing a line can be used in the same flush.
    const next = await flush(token, [down(ids[0] as number), up(ids[BASKET_LINES_MAX] as number)]);
    expect(next.products).toHaveLength(BASKET_LINES_MAX);
    expect(next.capped).toEqual([]);
    expect(next.products.some((line) => line.id === ids[BASKET_LINES_MAX])).toBe(true);
  });

  it('drops a product taken off sale from the basket and reports it once', async () => {
    const { token } = await registerUser(ctx.app);
    const [kept, withdrawn] = await Promise.all([product(), product()]);
    await flush(token, [up(kept.id), up(withdrawn.id, 2)]);
    await ctx.database.prisma.product.update({ where: { id: withdrawn.id }, data: { isActive: false } });

    const basket = await basketOf(token);
    expect(quantities(basket)).toEqual({ [kept.id]: 1 });
    expect(basket.capped).toEqual([{ id: withdrawn.id, requested: 2, quantity: 0, reason: 'unavailable' }]);
    expect((await basketOf(token)).capped).toEqual([]);
    // Taking it out, as a client that has not heard yet would, is no error.
    expect(quantities(await flush(token, [down(withdrawn.id, 2)]))).toEqual({ [kept.id]: 1 });
  });
});

describe('bad flushes', () => {
  let token: string;
  let id: number;
  beforeAll(async () => {
    ({ token } = await registerUser(ctx.app));
    ({ id } = await product());
    await flush(token, [up(id, 2)]);
  });

  const send = (products: unknown, flushId: unknown = randomUUID()) => patch(token, { flush_id: flushId, products });

  it('refuses counts that are not a whole number from 1 to the per-line maximum', async () => {
    expectFieldError(await send([{ id, type: 'increase', count: -1 }]), 'products.0.count', ErrorKeys.tooSmall);
    expectFieldError(await send([{ id, type: 'decrease', count: 0 }]), 'products.0.count', ErrorKeys.tooSmall);
    expectFieldError(await send([{ id, type: 'increase', count: 1.5 }]), 'products.0.count', ErrorKeys.notANumber);
    expectFieldError(
      await send([{ id, type: 'increase', count: BASKET_LINE_MAX + 1 }]),
      'products.0.count',
      ErrorKeys.tooLarge,
    );
    for (const count of [1e12, 2 ** 53, '3', null, 'lots']) {
      const response = await send([{ id, type: 'increase', count }]);
      expect(response.status, String(count)).toBe(422);
      expect(Object.keys(response.body.errors)).toEqual(['products.0.count']);
    }
    expectFieldError(await send([{ id, type: 'increase' }]), 'products.0.count', ErrorKeys.notANumber);
  });

  it('refuses unknown change types and bad product ids', async () => {
    expectFieldError(await send([{ id, type: 'set', count: 1 }]), 'products.0.type', ErrorKeys.unknownOption);
    expectFieldError(await send([{ id, count: 1 }]), 'products.0.type', ErrorKeys.unknownOption);
    expectFieldError(await send([{ id: 0, type: 'increase', count: 1 }]), 'products.0.id', ErrorKeys.tooSmall);
    expectFieldError(await send([{ id: 'abc', type: 'increase', count: 1 }]), 'products.0.id', ErrorKeys.invalidValue);
    expectFieldError(await send([{ id: 2 ** 31, type: 'increase', count: 1 }]), 'products.0.id', ErrorKeys.tooLarge);
  });

  it('refuses a product twice in one flush, with the index of the second', async () => {
    const other = await product();
    expectFieldError(await send([up(id), up(other.id), down(id)]), 'products.2.id', ErrorKeys.duplicateValue);
  });

  it(`refuses an empty list, a list over ${BASKET_CHANGES_MAX} changes and a missing list`, async () => {
    expectFieldError(await send([]), 'products', ErrorKeys.requiredField);
    const many = Array.from({ length: BASKET_CHANGES_MAX + 1 }, (_, index) => up(index + 1));
    expectFieldError(await send(many), 'products', ErrorKeys.tooLong);
    expectFieldError(await patch(token, { flush_id: randomUUID() }), 'products', ErrorKeys.requiredField);
    expectFieldError(await send({ 0: up(id) }), 'products', ErrorKeys.requiredField);
  });

  it('refuses a malformed flush id, and applies nothing of its flush', async () => {
    const before = await basketOf(token);
    expectFieldError(await send([up(id)], 'flush-1'), 'flush_id', ErrorKeys.invalidValue);
    expectFieldError(await send([up(id)], 42), 'flush_id', ErrorKeys.requiredField);
    expectFieldError(await send([up(id)], null), 'flush_id', ErrorKeys.requiredField);
    expect(await basketOf(token)).toEqual(before);
  });

  it('refuses unknown products and products no longer sold, naming each, and applies nothing', async () => {
    const withdrawn = await product({ isActive: false });
    const fine = await product();
    const flushId = randomUUID();
    const response = await send([up(fine.id), up(2_000_000_000), up(withdrawn.id), down(2_000_000_001)], flushId);
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual({
      'products.1.id': [ErrorKeys.invalidValue],
      'products.2.id': [ErrorKeys.invalidValue],
      'products.3.id': [ErrorKeys.invalidValue],
    });
    expect(typeof response.body.message).toBe('string');
    expect(quantities(await basketOf(token))).toEqual({ [id]: 2 });
    // The refused id is not remembered: the corrected flush under it is applied.
    expect(quantities(await flush(token, [up(fine.id)], flushId))).toEqual({ [id]: 2, [fine.id]: 1 });
    await flush(token, [down(fine.id)]);
  });

  it('answers 4xx, never 500, to bodies of the wrong shape', async () => {
    for (const body of [null, [], 'x'.repeat(10_000), { flush_id: {}, products: 'all' }, { products: [[]] }]) {
      const response = await patch(token, body);
      expect(response.status, JSON.stringify(body).slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    expect(quantities(await basketOf(token))).toEqual({ [id]: 2 });
  });
});

describe('POST /api/basket/merge', () => {
  it('adds the guest basket to the server basket, summing and capping, once per merge id', async () => {
    const { token } = await registerUser(ctx.app);
    const [onServer, scarce, guestOnly, withdrawn] = await Promise.all([
      product(),
      product({ stock: 4 }),
      product(),
      product({ isActive: false }),
    ]);
    await flush(token, [up(onServer.id, 2), up(scarce.id, 3)]);

    const mergeId = randomUUID();
    const guest = [
      { id: guestOnly.id, quantity: 2 },
      { id: onServer.id, quantity: 1 },
      { id: scarce.id, quantity: 3 },
      { id: withdrawn.id, quantity: 1 },
      { id: 2_000_000_000, quantity: 1 },
    ];
    const response = await merge(token, { merge_id: mergeId, products: guest });
    expect(response.status).toBe(200);
    const merged = BasketResponseSchema.parse(response.body);
    expect(quantities(merged)).toEqual({ [onServer.id]: 3, [scarce.id]: 4, [guestOnly.id]: 2 });
    expect(merged.products.map((line) => line.id)).toEqual([onServer.id, scarce.id, guestOnly.id]);
    expect(merged.capped).toEqual([
      { id: scarce.id, requested: 6, quantity: 4, reason: 'stock' },
      { id: withdrawn.id, requested: 1, quantity: 0, reason: 'unavailable' },
      { id: 2_000_000_000, requested: 1, quantity: 0, reason: 'unavailable' },
    ]);

    // Logging in again with the same local copy does not add it twice.
    const again = await merge(token, { merge_id: mergeId, products: guest });
    expect(again.status).toBe(200);
    expect(quantities(BasketResponseSchema.parse(again.body))).toEqual(quantities(merged));
  });

  it('clamps the sum to the per-line maximum', async () => {
    const { token } = await registerUser(ctx.app);
    const card = await product({ stock: 50 });
    await flush(token, [up(card.id, 7)]);
    const response = await merge(token, { merge_id: randomUUID(), products: [{ id: card.id, quantity: 6 }] });
    const merged = BasketResponseSchema.parse(response.body);
    expect(quantities(merged)).toEqual({ [card.id]: BASKET_LINE_MAX });
    expect(merged.capped).toEqual([{ id: card.id, requested: 13, quantity: BASKET_LINE_MAX, reason: 'line_max' }]);
  });

  it('merges the same copy sent twice at once only once', async () => {
    const { token } = await registerUser(ctx.app);
    const card = await product();
    const body = { merge_id: randomUUID(), products: [{ id: card.id, quantity: 2 }] };
    const answers = await Promise.all([merge(token, body), merge(token, body), merge(token, body)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(quantities(await basketOf(token))).toEqual({ [card.id]: 2 });
  });

  it('accepts an empty guest basket and answers the server basket', async () => {
    const { token } = await registerUser(ctx.app);
    const card = await product();
    await flush(token, [up(card.id)]);
    const response = await merge(token, { merge_id: randomUUID(), products: [] });
    expect(quantities(BasketResponseSchema.parse(response.body))).toEqual({ [card.id]: 1 });
  });

  it('refuses bad guest baskets with field errors', async () => {
    const { token } = await registerUser(ctx.app);
    const card = await product();
    const send = (products: unknown, mergeId: unknown = randomUUID()) => merge(token, { merge_id: mergeId, products });
    expectFieldError(
      await merge(token, { products: [{ id: card.id, quantity: 1 }] }),
      'merge_id',
      ErrorKeys.requiredField,
    );
    expectFieldError(await send([], 'not-a-uuid'), 'merge_id', ErrorKeys.invalidValue);
    expectFieldError(await send([{ id: card.id, quantity: 0 }]), 'products.0.quantity', ErrorKeys.tooSmall);
    expectFieldError(await send([{ id: card.id, quantity: 2.5 }]), 'products.0.quantity', ErrorKeys.notANumber);
    expectFieldError(
      await send([{ id: card.id, quantity: BASKET_LINE_MAX + 1 }]),
      'products.0.quantity',
      ErrorKeys.tooLarge,
    );
    expectFieldError(
      await send([
        { id: card.id, quantity: 1 },
        { id: card.id, quantity: 2 },
      ]),
      'products.1.id',
      ErrorKeys.duplicateValue,
    );
    const many = Array.from({ length: BASKET_LINES_MAX + 1 }, (_, index) => ({ id: index + 1, quantity: 1 }));
    expectFieldError(await send(many), 'products', ErrorKeys.tooLong);
    expect((await basketOf(token)).products).toEqual([]);
  });
});

describe("another customer's basket", () => {
  it('is neither seen nor changed by anyone else, whatever ids they send', async () => {
    const alice = await registerUser(ctx.app);
    const bob = await registerUser(ctx.app);
    const [card, other] = await Promise.all([product(), product()]);
    const flushId = randomUUID();
    await flush(alice.token, [up(card.id, 3)], flushId);

    expect((await basketOf(bob.token)).products).toEqual([]);
    // Bob's flush under Alice's id is Bob's own, applied to Bob's basket only.
    expect(quantities(await flush(bob.token, [up(other.id)], flushId))).toEqual({ [other.id]: 1 });
    await flush(bob.token, [down(card.id, 3)]);
    const merged = await merge(bob.token, { merge_id: randomUUID(), products: [{ id: card.id, quantity: 1 }] });
    expect(quantities(BasketResponseSchema.parse(merged.body))).toEqual({ [other.id]: 1, [card.id]: 1 });

    expect(quantities(await basketOf(alice.token))).toEqual({ [card.id]: 3 });
  });
});

describe('remembered request ids', () => {
  it(`are kept ${BASKET_REQUEST_TTL_MS / 86_400_000} days and then pruned by later writes`, async () => {
    const { token, user } = await registerUser(ctx.app);
    const card = await product();
    const db = ctx.database.prisma;
    const oldId = randomUUID();
    const recentId = randomUUID();
    await db.basketRequest.createMany({
      data: [
        {
          userId: user.id,
          requestId: oldId,
          kind: 'FLUSH',
          createdAt: new Date(Date.now() - BASKET_REQUEST_TTL_MS - 60_000),
        },
        {
          userId: user.id,
          requestId: recentId,
          kind: 'FLUSH',
          createdAt: new Date(Date.now() - BASKET_REQUEST_TTL_MS + 3_600_000),
        },
      ],
    });
    // Any customer's write prunes.
    const other = await registerUser(ctx.app);
    await flush(other.token, [up(card.id)]);
    const left = await db.basketRequest.findMany({ where: { userId: user.id }, select: { requestId: true } });
    expect(left.map((row) => row.requestId)).toEqual([recentId]);

    // Within the week the id still counts as applied; after it, it is a new flush.
    expect(quantities(await flush(token, [up(card.id)], recentId))).toEqual({});
    expect(quantities(await flush(token, [up(card.id)], oldId))).toEqual({ [card.id]: 1 });
  });
});
