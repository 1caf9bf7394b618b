import { randomUUID } from 'node:crypto';
import {
  CreateOrderResponseSchema,
  ErrorKeys,
  MyReviewResponseSchema,
  ProductDetailSchema,
  ReviewSchema,
  ReviewsResponseSchema,
} from '@store/contract';
import { createOrderOperations } from '@store/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectFieldError, registerUser } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { createCodedProduct, fund } from '../../test/orders.ts';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;
let productId: number;

beforeAll(async () => {
  // The catalogue's page cache stays on, as in production: a new review must show through it.
  ctx = await buildTestApp(
    { RATE_LIMIT_SCALE: '1000', CATALOGUE_CACHE_MS: '60000' },
    { queue: createRecordingQueue() },
  );
  const product = await ctx.database.prisma.product.findFirstOrThrow({
    where: { isActive: true },
    orderBy: { id: 'asc' },
  });
  productId = product.id;
});
afterAll(async () => {
  await ctx?.close();
});

const review = (body: unknown, token?: string) => call(ctx.app, 'POST', '/api/products/feedbacks', { body, token });

describe('POST /api/products/feedbacks', () => {
  it('stores the review, which shows at once in the listing and the rating', async () => {
    const before = ReviewsResponseSchema.parse(
      (await call(ctx.app, 'GET', `/api/products/feedbacks/${productId}`)).body,
    );
    const product = ProductDetailSchema.parse((await call(ctx.app, 'GET', `/api/products/${productId}`)).body);

    const { token, user } = await registerUser(ctx.app);
    const response = await review({ productId, rating: 4, text: 'Code arrived at once.' }, token);
    expect(response.status).toBe(201);
    const created = ReviewSchema.parse(response.body);
    expect(created).toMatchObject({ rating: 4, text: 'Code arrived at once.', author: user.name });

    const after = ReviewsResponseSchema.parse(
      (await call(ctx.app, 'GET', `/api/products/feedbacks/${productId}`)).body,
    );
    expect(after.total).toBe(before.total + 1);
    expect(after.feedbacks[0]).toEqual(created);
    const rated = ProductDetailSchema.parse((await call(ctx.app, 'GET', `/api/products/${productId}`)).body);
    expect(rated.rating.count).toBe(product.rating.count + 1);
  });

  it('accepts the product id as a string of digits, as a route parameter passes it on', async () => {
    const { token } = await registerUser(ctx.app);
    const response = await review({ productId: String(productId), rating: '5', text: 'Great.' }, token);
    expect(response.status).toBe(201);
  });

  it('refuses a second review of the same product by the same customer with a 422 on productId', async () => {
    const { token } = await registerUser(ctx.app);
    expect((await review({ productId, rating: 5, text: 'First one.' }, token)).status).toBe(201);
    const second = await review({ productId, rating: 1, text: 'Second one.' }, token);
    expectFieldError(second, 'productId', ErrorKeys.reviewExists);
  });

  it('404s an unknown product', async () => {
    const { token } = await registerUser(ctx.app);
    const response = await review({ productId: 2_000_000_000, rating: 5, text: 'Nothing here.' }, token);
    expect(response.status).toBe(404);
    expect(typeof response.body.message).toBe('string');
  });

  it('validates rating, text and product id', async () => {
    const { token } = await registerUser(ctx.app);
    expectFieldError(await review({ productId, rating: 6, text: 'Fine.' }, token), 'rating', ErrorKeys.tooLarge);
    expectFieldError(await review({ productId, rating: 0, text: 'Fine.' }, token), 'rating', ErrorKeys.tooSmall);
    expectFieldError(await review({ productId, rating: 4.5, text: 'Fine.' }, token), 'rating', ErrorKeys.notANumber);
    expectFieldError(await review({ productId, rating: true, text: 'Fine.' }, token), 'rating', ErrorKeys.notANumber);
    expectFieldError(await review({ productId, rating: 4, text: '  ' }, token), 'text', ErrorKeys.requiredField);
    expectFieldError(await review({ productId, rating: 4, text: 'x'.repeat(1001) }, token), 'text', ErrorKeys.tooLong);
    expectFieldError(
      await review({ productId: 'abc', rating: 4, text: 'Fine.' }, token),
      'productId',
      ErrorKeys.notANumber,
    );
    expectFieldError(
      await review({ productId: 2 ** 31, rating: 4, text: 'Fine.' }, token),
      'productId',
      ErrorKeys.tooLarge,
    );
    expectFieldError(
      await review({ productId: [1], rating: 4, text: 'Fine.' }, token),
      'productId',
      ErrorKeys.notANumber,
    );
    expectFieldError(await review({ rating: 4, text: 'Fine.' }, token), 'productId', ErrorKeys.requiredField);
  });

  it('answers 4xx, never 500, to 10 KB bodies and wrong JSON types', async () => {
    const { token } = await registerUser(ctx.app);
    const big = 'x'.repeat(10 * 1024);
    for (const body of [
      { productId: big, rating: big, text: big },
      { productId: {}, rating: null, text: 5 },
      [],
      'null',
      big,
    ]) {
      const response = await review(body, token);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
  });
});

/** A customer who bought one code of `product` from the balance (a fulfilled order). */
async function buyer(product: { id: number; priceMinor: number }) {
  const customer = await registerUser(ctx.app);
  await fund(ctx.database.sql, customer.user.id, product.priceMinor);
  const flush = await call(ctx.app, 'PATCH', '/api/basket', {
    token: customer.token,
    body: { flush_id: randomUUID(), products: [{ id: product.id, type: 'increase', count: 1 }] },
  });
  expect(flush.status).toBe(200);
  const created = await call(ctx.app, 'POST', '/api/orders/create?type=spending', {
    token: customer.token,
    body: { type: 'spending' },
  });
  const { order_id: orderId } = CreateOrderResponseSchema.parse(created.body);
  const spent = await call(ctx.app, 'POST', `/api/payment/spending-balance-handle?orderId=${orderId}`, {
    token: customer.token,
  });
  expect(spent.body.status).toBe('fulfilled');
  return { ...customer, orderId };
}

const listing = async (id: number, query = '') =>
  ReviewsResponseSchema.parse((await call(ctx.app, 'GET', `/api/products/feedbacks/${id}${query}`)).body);

describe('verified buyers', () => {
  it('marks the review of a customer who bought the product, lists it first on request, and unmarks it once refunded in full', async () => {
    const { product } = await createCodedProduct(ctx.database.prisma, { stock: 3 });
    const paying = await buyer(product);
    const browsing = await registerUser(ctx.app);
    const bought = ReviewSchema.parse(
      (await review({ productId: product.id, rating: 5, text: 'Bought it, works.' }, paying.token)).body,
    );
    expect(bought.verified_buyer).toBe(true);
    // Written after, so newest first puts it on top.
    const heard = ReviewSchema.parse(
      (await review({ productId: product.id, rating: 2, text: 'Heard it is slow.' }, browsing.token)).body,
    );
    expect(heard.verified_buyer).toBe(false);

    expect((await listing(product.id)).feedbacks.map((r) => [r.id, r.verified_buyer])).toEqual([
      [heard.id, false],
      [bought.id, true],
    ]);
    expect((await listing(product.id, '?sort=verified')).feedbacks.map((r) => r.id)).toEqual([bought.id, heard.id]);
    expect((await listing(product.id, '?offset=0&sort=newest')).feedbacks.map((r) => r.id)).toEqual([
      heard.id,
      bought.id,
    ]);
    expectFieldError(
      await call(ctx.app, 'GET', `/api/products/feedbacks/${product.id}?sort=best`),
      'sort',
      ErrorKeys.unknownOption,
    );

    await createOrderOperations({
      db: ctx.database.prisma,
      sql: ctx.database.sql,
      publicUrl: 'http://localhost:3000',
      queue: createRecordingQueue(),
    }).refundOrder(paying.orderId);
    const refunded = (await listing(product.id)).feedbacks.find((r) => r.id === bought.id);
    expect(refunded?.verified_buyer).toBe(false);
  });

  it('does not count an order that was never paid', async () => {
    const { product } = await createCodedProduct(ctx.database.prisma, { stock: 3 });
    const customer = await registerUser(ctx.app);
    await call(ctx.app, 'PATCH', '/api/basket', {
      token: customer.token,
      body: { flush_id: randomUUID(), products: [{ id: product.id, type: 'increase', count: 1 }] },
    });
    expect(
      (await call(ctx.app, 'POST', '/api/orders/create', { token: customer.token, body: { type: 'purchase' } })).status,
    ).toBe(201);
    const written = ReviewSchema.parse(
      (await review({ productId: product.id, rating: 3, text: 'Not paid yet.' }, customer.token)).body,
    );
    expect(written.verified_buyer).toBe(false);
  });
});

describe('the author changes or deletes their review', () => {
  const patchReview = (id: string, body: unknown, token?: string) =>
    call(ctx.app, 'PATCH', `/api/reviews/${id}`, { body, token });
  const deleteReview = (id: string, token?: string) => call(ctx.app, 'DELETE', `/api/reviews/${id}`, { token });
  const ownReview = async (id: number, token: string) =>
    MyReviewResponseSchema.parse((await call(ctx.app, 'GET', `/api/products/${id}/my-review`, { token })).body).review;

  it('reads, edits and deletes their own review; the listing and the rating follow', async () => {
    const { product } = await createCodedProduct(ctx.database.prisma, { stock: 1 });
    const { token } = await registerUser(ctx.app);
    expect(await ownReview(product.id, token)).toBeNull();
    const written = ReviewSchema.parse((await review({ productId: product.id, rating: 2, text: 'Slow.' }, token)).body);
    expect(written.edited_at).toBeNull();
    expect(await ownReview(product.id, token)).toEqual(written);

    const edited = await patchReview(written.id, { rating: 5, text: 'It arrived after all.' }, token);
    expect(edited.status).toBe(200);
    const after = ReviewSchema.parse(edited.body);
    expect(after).toMatchObject({
      id: written.id,
      rating: 5,
      text: 'It arrived after all.',
      created_at: written.created_at,
    });
    expect(after.edited_at).not.toBeNull();
    const listed = await listing(product.id);
    expect(listed.feedbacks).toEqual([after]);
    expect(listed.average).toBe(5);
    // One field alone is a change too.
    expect(ReviewSchema.parse((await patchReview(written.id, { rating: 4 }, token)).body).text).toBe(
      'It arrived after all.',
    );
    expectFieldError(await patchReview(written.id, {}, token), 'text', ErrorKeys.requiredField);
    expectFieldError(await patchReview(written.id, { rating: 9 }, token), 'rating', ErrorKeys.tooLarge);
    expectFieldError(await patchReview(written.id, { text: ' ' }, token), 'text', ErrorKeys.requiredField);

    const deleted = await deleteReview(written.id, token);
    expect(deleted.status).toBe(200);
    expect((await listing(product.id)).total).toBe(0);
    expect(await ownReview(product.id, token)).toBeNull();
    expect((await deleteReview(written.id, token)).status).toBe(404);
    // Deleted, the product may be reviewed again.
    expect((await review({ productId: product.id, rating: 4, text: 'Again.' }, token)).status).toBe(201);
  });

  it("refuses another customer's review with 403, an unknown one with 404, and a guest with 401", async () => {
    const { product } = await createCodedProduct(ctx.database.prisma, { stock: 1 });
    const author = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const written = ReviewSchema.parse(
      (await review({ productId: product.id, rating: 4, text: 'Mine.' }, author.token)).body,
    );
    for (const response of [
      await patchReview(written.id, { text: 'Not mine.' }, other.token),
      await deleteReview(written.id, other.token),
    ]) {
      expect(response.status).toBe(403);
      expect(typeof response.body.message).toBe('string');
    }
    expect((await patchReview(randomUUID(), { text: 'Nobody’s.' }, other.token)).status).toBe(404);
    expect((await deleteReview(randomUUID(), other.token)).status).toBe(404);
    expect((await patchReview(written.id, { text: 'Guest.' })).status).toBe(401);
    expect((await deleteReview(written.id)).status).toBe(401);
    expect((await call(ctx.app, 'GET', `/api/products/${product.id}/my-review`)).status).toBe(401);
    expectFieldError(await patchReview('not-a-uuid', { text: 'Bad id.' }, author.token), 'id', ErrorKeys.invalidValue);
    // Untouched.
    expect((await listing(product.id)).feedbacks).toEqual([written]);
  });
});
