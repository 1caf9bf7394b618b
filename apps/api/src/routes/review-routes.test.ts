import { ErrorKeys, ProductDetailSchema, ReviewSchema, ReviewsResponseSchema } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectFieldError, registerUser } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';

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
