import {
  CategoriesResponseSchema,
  CategoryListingResponseSchema,
  CountriesResponseSchema,
  CurrenciesResponseSchema,
  ErrorKeys,
  PAGE_SIZE,
  ProductDetailSchema,
  ProductListResponseSchema,
  ProductSummarySchema,
  ReviewsResponseSchema,
  SimilarProductsResponseSchema,
  SORT_MODES,
} from '@store/contract';
import { eventuallyPasses } from '@store/core/testing';
import { qb } from '@store/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';

const SLUGS = [
  'steam',
  'playstation',
  'xbox',
  'app-store',
  'google-play',
  'league-of-legends',
  'netflix',
  'spotify',
  'valorant',
];

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

async function get(url: string) {
  const response = await ctx.app.inject({ method: 'GET', url, headers: { 'x-requested-with': 'XMLHttpRequest' } });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

function expectValidation(body: { message: unknown; errors: Record<string, string[]> }, field: string, key: string) {
  expect(typeof body.message).toBe('string');
  expect(body.errors[field]).toContain(key);
}

describe('GET /api/categories', () => {
  it('lists the nine categories of the store with product counts', async () => {
    const { status, body } = await get('/api/categories');
    expect(status).toBe(200);
    const categories = CategoriesResponseSchema.parse(body);
    expect(categories.map((category) => category.id).sort()).toEqual([...SLUGS].sort());
    for (const category of categories) expect(category.products_count).toBeGreaterThan(0);
  });
});

describe('GET /api/categories/:id', () => {
  it('lists a category page with totals and a price range', async () => {
    const { status, body } = await get('/api/categories/steam');
    expect(status).toBe(200);
    const listing = CategoryListingResponseSchema.parse(body);
    expect(listing.category.id).toBe('steam');
    expect(listing.result.total).toBe(listing.category.products_count);
    expect(listing.result.products.length).toBe(Math.min(PAGE_SIZE, listing.result.total));
    expect(listing.result.pages).toBe(Math.ceil(listing.result.total / PAGE_SIZE));
    for (const product of listing.result.products) expect(product.category).toBe('steam');
    expect(listing.priceRange.max).toBeGreaterThanOrEqual(listing.priceRange.min);
  });

  it.each(SORT_MODES)('sorts by %s', async (sort) => {
    const { status, body } = await get(`/api/categories/playstation?sort=${sort}&limit=60`);
    expect(status).toBe(200);
    const products = CategoryListingResponseSchema.parse(body).result.products;
    expect(products.length).toBeGreaterThan(1);
    const pairs = products.slice(1).map((product, index) => [products[index]!, product] as const);
    for (const [a, b] of pairs) {
      if (sort === 'increase') expect(a.price_minor).toBeLessThanOrEqual(b.price_minor);
      if (sort === 'decreasing') expect(a.price_minor).toBeGreaterThanOrEqual(b.price_minor);
      if (sort === 'novelties') expect(a.created_at >= b.created_at).toBe(true);
      if (sort === 'counts') expect(Number(a.in_stock)).toBeGreaterThanOrEqual(Number(b.in_stock));
      if (sort === 'sale') expect(a.discount > 0 || b.discount === 0).toBe(true);
    }
  });

  it('filters by price range, currency and country', async () => {
    const all = CategoryListingResponseSchema.parse((await get('/api/categories/steam?limit=60')).body);
    const sample = all.result.products[0]!;
    const min = Math.floor(sample.price);
    const max = Math.ceil(sample.price);
    const { body } = await get(
      `/api/categories/steam?minPrice=${min}&maxPrice=${max}&currency=${sample.nominal.currency.toLowerCase()}&country=${sample.country.code}`,
    );
    const filtered = CategoryListingResponseSchema.parse(body).result;
    expect(filtered.products.map((product) => product.id)).toContain(sample.id);
    for (const product of filtered.products) {
      expect(product.price).toBeGreaterThanOrEqual(min);
      expect(product.price).toBeLessThanOrEqual(max);
      expect(product.nominal.currency).toBe(sample.nominal.currency);
      expect(product.country.code).toBe(sample.country.code);
    }
    expect(filtered.total).toBeLessThanOrEqual(all.result.total);
  });

  it('pages by page and by offset, without overlap, and reports the total past the end', async () => {
    const first = CategoryListingResponseSchema.parse((await get('/api/categories/steam?limit=3&page=1')).body).result;
    const second = CategoryListingResponseSchema.parse((await get('/api/categories/steam?limit=3&page=2')).body).result;
    const byOffset = CategoryListingResponseSchema.parse(
      (await get('/api/categories/steam?limit=3&offset=3')).body,
    ).result;
    expect(second.products.map((p) => p.id)).toEqual(byOffset.products.map((p) => p.id));
    const firstIds = new Set(first.products.map((p) => p.id));
    for (const product of second.products) expect(firstIds.has(product.id)).toBe(false);
    const beyond = CategoryListingResponseSchema.parse((await get('/api/categories/steam?page=9000')).body).result;
    expect(beyond.products).toEqual([]);
    expect(beyond.total).toBe(first.total);
  });

  it('answers an unknown category with 404', async () => {
    const { status, body } = await get('/api/categories/no-such-category');
    expect(status).toBe(404);
    expect(body.message).toMatch(/not found/i);
  });

  it.each([
    ['sort=cheapest', 'sort', ErrorKeys.unknownOption],
    ['page=-1', 'page', ErrorKeys.notANumber],
    ['page=0', 'page', ErrorKeys.tooSmall],
    ['page=99999999', 'page', ErrorKeys.tooLarge],
    ['minPrice=ten', 'minPrice', ErrorKeys.notANumber],
    ['maxPrice=1e3', 'maxPrice', ErrorKeys.notANumber],
    ['minPrice=500&maxPrice=100', 'minPrice', ErrorKeys.minAboveMax],
    [`currency=${'USD,'.repeat(2_600)}`, 'currency', ErrorKeys.tooLong],
    ['country=%27%3B%20DROP%20TABLE%20products', 'country.0', ErrorKeys.invalidValue],
  ])('rejects %s with 422 on %s', async (query, field, key) => {
    const { status, body } = await get(`/api/categories/steam?${query}`);
    expect(status).toBe(422);
    expectValidation(body, field, key);
  });

  it('rejects a malformed slug with 422', async () => {
    const { status, body } = await get('/api/categories/Steam%20Cards');
    expect(status).toBe(422);
    expectValidation(body, 'id', ErrorKeys.invalidValue);
  });

  it('ignores a 10 KB unknown parameter instead of failing', async () => {
    const { status } = await get(`/api/categories/steam?junk=${'x'.repeat(10_240)}`);
    expect(status).toBe(200);
  });
});

describe('product lists', () => {
  it.each(['popular-products', 'novelties', 'discounts'])('GET /api/%s answers result.products', async (list) => {
    const { status, body } = await get(`/api/${list}`);
    expect(status).toBe(200);
    const { result } = ProductListResponseSchema.parse(body);
    expect(result.products.length).toBeGreaterThan(0);
    if (list === 'discounts') {
      for (const product of result.products) {
        expect(product.old_price_minor).toBeGreaterThan(product.price_minor);
        expect(product.discount).toBeGreaterThan(0);
      }
    }
  });

  it('orders popular products by popularity and pages by offset', async () => {
    const first = ProductListResponseSchema.parse((await get('/api/popular-products?limit=4')).body).result;
    const next = ProductListResponseSchema.parse((await get('/api/popular-products?limit=4&offset=4')).body).result;
    expect(next.page).toBe(2);
    expect(new Set([...first.products, ...next.products].map((p) => p.id)).size).toBe(8);
  });

  it('orders novelties newest first', async () => {
    const { result } = ProductListResponseSchema.parse((await get('/api/novelties?limit=10')).body);
    const dates = result.products.map((product) => product.created_at);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('rejects a negative offset with 422', async () => {
    const { status, body } = await get('/api/novelties?offset=-10');
    expect(status).toBe(422);
    expectValidation(body, 'offset', ErrorKeys.notANumber);
  });
});

describe('products', () => {
  async function someProductId() {
    const { body } = await get('/api/categories/xbox?limit=1');
    return CategoryListingResponseSchema.parse(body).result.products[0]!.id;
  }

  it('GET /api/products/:id answers the product with description and instructions', async () => {
    const id = await someProductId();
    const { status, body } = await get(`/api/products/${id}`);
    expect(status).toBe(200);
    const product = ProductDetailSchema.parse(body);
    expect(product.id).toBe(id);
    expect(product.article).toBe(String(id));
    expect(product.category).toBe('xbox');
    expect(product.activation_instructions.length).toBeGreaterThan(0);
    expect(product.in_stock).toBe(product.stock > 0);
  });

  it('GET /api/products/:id?lang= answers the texts in that language, English without one', async () => {
    const id = await someProductId();
    const texts = async (query: string) => ProductDetailSchema.parse((await get(`/api/products/${id}${query}`)).body);
    const english = await texts('');
    expect(english.description).toMatch(/Microsoft account/);
    expect((await texts('?lang=en')).description).toBe(english.description);
    const portuguese = await texts('?lang=pt-BR');
    expect(portuguese.description).toMatch(/conta Microsoft/);
    expect(portuguese.activation_instructions).toMatch(/Digite o código/);
    expect((await texts('?lang=ru')).activation_instructions).toMatch(/Введите/);
    expect((await texts('?lang=hi')).description).toMatch(/[\u0900-\u097f]/);
  });

  it('GET /api/products/:id?lang= refuses a language the store does not speak with 422', async () => {
    const id = await someProductId();
    const { status, body } = await get(`/api/products/${id}?lang=fr`);
    expect(status).toBe(422);
    expectValidation(body, 'lang', ErrorKeys.unknownOption);
  });

  it('GET /api/products/for-basket/:id answers the basket shape', async () => {
    const id = await someProductId();
    const { status, body } = await get(`/api/products/for-basket/${id}`);
    expect(status).toBe(200);
    expect(ProductSummarySchema.parse(body).id).toBe(id);
  });

  it('GET /api/products/:id/similar-products answers others of the same category', async () => {
    const id = await someProductId();
    const { status, body } = await get(`/api/products/${id}/similar-products`);
    expect(status).toBe(200);
    const { products } = SimilarProductsResponseSchema.parse(body);
    expect(products.length).toBeGreaterThan(0);
    for (const product of products) {
      expect(product.id).not.toBe(id);
      expect(product.category).toBe('xbox');
    }
  });

  it.each(['/api/products/999999', '/api/products/for-basket/999999', '/api/products/999999/similar-products'])(
    '%s answers 404 for an unknown product',
    async (url) => {
      const { status, body } = await get(url);
      expect(status).toBe(404);
      expect(body.message).toBe('Product not found');
    },
  );

  it.each(['abc', '0', '-3', '12abc', '99999999999'])('GET /api/products/%s answers 422', async (id) => {
    const { status, body } = await get(`/api/products/${id}`);
    expect(status).toBe(422);
    expect(Object.keys(body.errors)).toEqual(['id']);
  });
});

describe('GET /api/products/feedbacks/:id', () => {
  it('lists reviews newest first with their authors and the average', async () => {
    // One the demo's reviewers left alone, so these three are all it has.
    const product = await ctx.database.prisma.product.findFirstOrThrow({
      where: { reviews: { none: {} } },
      orderBy: { id: 'asc' },
    });
    const users = await Promise.all(
      ['Alice1', 'Bruno2', 'Chandra3'].map((name, index) =>
        ctx.database.prisma.user
          .create({
            data: { name, email: `${name.toLowerCase()}@example.com`, passwordHash: 'x', locale: 'en' },
            select: { id: true, name: true, email: true },
          })
          .then((user) => ({ ...user, rating: index + 3 })),
      ),
    );
    for (const [index, user] of users.entries()) {
      await ctx.database.prisma.review.create({
        data: {
          productId: product.id,
          userId: user.id,
          rating: user.rating,
          text: `Review ${index}`,
          createdAt: new Date(Date.UTC(2026, 0, index + 1)),
        },
      });
    }
    const { status, body } = await get(`/api/products/feedbacks/${product.id}?limit=2`);
    expect(status).toBe(200);
    const reviews = ReviewsResponseSchema.parse(body);
    expect(reviews.total).toBe(3);
    expect(reviews.average).toBe(4);
    expect(reviews.feedbacks.map((review) => review.author)).toEqual(['Chandra3', 'Bruno2']);
    expect(JSON.stringify(body)).not.toContain('@example.com');
    const rest = ReviewsResponseSchema.parse((await get(`/api/products/feedbacks/${product.id}?offset=2`)).body);
    expect(rest.feedbacks.map((review) => review.text)).toEqual(['Review 0']);
    const detail = ProductDetailSchema.parse((await get(`/api/products/${product.id}`)).body);
    expect(detail.rating).toEqual({ average: 4, count: 3 });
  });

  it('answers 404 for an unknown product and 422 for a bad offset', async () => {
    expect((await get('/api/products/feedbacks/999999')).status).toBe(404);
    expect((await get('/api/products/feedbacks/1?offset=x')).status).toBe(422);
  });
});

describe('ratings on listings', () => {
  /** Every product's rating as the database computes it: the average of its reviews to one decimal. */
  async function ratingsInDatabase() {
    const rows = await ctx.database.sql.query(
      qb
        .selectFrom('products as p')
        .leftJoin('reviews as r', 'r.product_id', 'p.id')
        .select((eb) => [
          'p.id',
          eb
            .cast<number | null>(eb.fn('round', [eb.cast(eb.fn.avg('r.rating'), 'numeric'), eb.lit(1)]), 'float8')
            .as('average'),
          eb.cast<number>(eb.fn.count('r.id'), 'integer').as('count'),
        ])
        .where((eb) => eb.ref('p.is_active'))
        .groupBy('p.id'),
    );
    return new Map(rows.map(({ id, average, count }) => [id, { average, count }]));
  }

  it('gives every product of listings, lists, search and similar products its average and number of reviews', async () => {
    // Reviews written straight into the database by other tests reach the index a moment later.
    await eventuallyPasses(async () => {
      const expected = await ratingsInDatabase();
      const seen: Array<{ id: number; rating: unknown }> = [];
      for (const slug of SLUGS) {
        seen.push(
          ...CategoryListingResponseSchema.parse((await get(`/api/categories/${slug}?limit=60`)).body).result.products,
        );
      }
      for (const list of ['popular-products', 'novelties', 'discounts']) {
        seen.push(...ProductListResponseSchema.parse((await get(`/api/${list}?limit=60`)).body).result.products);
      }
      const found = (await get('/api/search/products/steam/filter?limit=60')).body as { result: { products: [] } };
      seen.push(...found.result.products);
      const first = seen[0] as { id: number };
      seen.push(
        ...SimilarProductsResponseSchema.parse((await get(`/api/products/${first.id}/similar-products`)).body).products,
      );

      expect(seen.length).toBeGreaterThan(200);
      for (const product of seen)
        expect({ id: product.id, rating: product.rating }).toEqual({
          id: product.id,
          rating: expected.get(product.id),
        });
      // The demo catalogue has reviewed products and products nobody reviewed yet: both are listed.
      const counts = seen.map((product) => (product.rating as { count: number }).count);
      expect(counts.some((count) => count > 0)).toBe(true);
      expect(counts.some((count) => count === 0)).toBe(true);
    });
  });

  it('says a product without reviews has no average, not zero stars, and the product page agrees', async () => {
    const [unreviewed] = await ctx.database.prisma.product.findMany({
      where: { isActive: true, reviews: { none: {} } },
      orderBy: { id: 'asc' },
      take: 1,
    });
    const [reviewed] = await ctx.database.prisma.product.findMany({
      where: { isActive: true, reviews: { some: {} } },
      orderBy: { id: 'asc' },
      take: 1,
    });
    const expected = await ratingsInDatabase();
    for (const product of [unreviewed, reviewed]) {
      if (!product) throw new Error('the demo catalogue lacks a reviewed or an unreviewed product');
      const page = ProductDetailSchema.parse((await get(`/api/products/${product.id}`)).body);
      expect(page.rating).toEqual(expected.get(product.id));
      const basket = ProductSummarySchema.parse((await get(`/api/products/for-basket/${product.id}`)).body);
      expect(basket.rating).toEqual(expected.get(product.id));
    }
    expect(expected.get((unreviewed as { id: number }).id)).toEqual({ average: null, count: 0 });
  });
});

describe('countries and currencies', () => {
  it('GET /api/countries lists countries, with regions as a null name', async () => {
    const { status, body } = await get('/api/countries');
    expect(status).toBe(200);
    const countries = CountriesResponseSchema.parse(body);
    expect(countries.some((country) => country.code === 'BR')).toBe(true);
    expect(countries.some((country) => country.name === null)).toBe(true);
  });

  it('GET /api/countries?category= lists only the countries the category has products for', async () => {
    const { status, body } = await get('/api/countries?category=netflix');
    expect(status).toBe(200);
    const codes = CountriesResponseSchema.parse(body).map((country) => country.code);
    const products = await ctx.database.prisma.product.findMany({
      where: { category: { slug: 'netflix' }, isActive: true },
      select: { country: { select: { code: true } } },
    });
    expect(codes.sort()).toEqual([...new Set(products.map((product) => product.country.code))].sort());
    expect(codes).not.toContain('GB');
    expect((await get('/api/countries?category=')).body).toEqual((await get('/api/countries')).body);
  });

  it('GET /api/countries answers an unknown category with 404 and a malformed one with 422', async () => {
    expect((await get('/api/countries?category=no-such-category')).status).toBe(404);
    const { status, body } = await get('/api/countries?category=Not%20A%20Slug');
    expect(status).toBe(422);
    expectValidation(body, 'category', ErrorKeys.invalidValue);
  });

  it('GET /api/currencies lists ISO codes', async () => {
    const { status, body } = await get('/api/currencies');
    expect(status).toBe(200);
    const codes = CurrenciesResponseSchema.parse(body).map((currency) => currency.codeName);
    expect(codes).toContain('USD');
    expect(codes).toContain('BRL');
  });
});
