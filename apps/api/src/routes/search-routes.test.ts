import { ErrorKeys, SEARCH_MAX, SearchHintsResponseSchema, SearchResponseSchema } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

async function get(url: string) {
  const response = await ctx.app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json() };
}

describe('GET /api/search/hints/:query', () => {
  it('finds names containing the text', async () => {
    const { status, body } = await get('/api/search/hints/netflix');
    expect(status).toBe(200);
    const hints = SearchHintsResponseSchema.parse(body);
    expect(hints.hintsByName.length).toBeGreaterThan(0);
    for (const hint of hints.hintsByName) expect(hint.name.toLowerCase()).toContain('netflix');
    expect(hints.hintsByArt).toEqual([]);
  });

  it('tolerates a typo: "stem" finds Steam', async () => {
    const hints = SearchHintsResponseSchema.parse((await get('/api/search/hints/stem')).body);
    expect(hints.hintsByName.some((hint) => hint.name.includes('Steam'))).toBe(true);
  });

  it('finds a product by its article (the id)', async () => {
    const product = await ctx.database.prisma.product.findFirstOrThrow({ orderBy: { id: 'asc' } });
    const hints = SearchHintsResponseSchema.parse((await get(`/api/search/hints/${product.id}`)).body);
    expect(hints.hintsByArt[0]).toMatchObject({ id: product.id, name: product.name, article: String(product.id) });
  });

  it.each(["'", '%25', '_', '%22%3B--', '%5C', '100%25'])('treats %s literally and answers 200', async (text) => {
    const { status, body } = await get(`/api/search/hints/${text}`);
    expect(status).toBe(200);
    SearchHintsResponseSchema.parse(body);
  });

  it('answers Cyrillic and Devanagari text', async () => {
    expect((await get(`/api/search/hints/${encodeURIComponent('подарочная')}`)).status).toBe(200);
    expect((await get(`/api/search/hints/${encodeURIComponent('उपहार')}`)).status).toBe(200);
  });

  it('gives each hint what helps choose: cover, price and region', async () => {
    const hints = SearchHintsResponseSchema.parse((await get('/api/search/hints/netflix%20brasil')).body);
    const [first] = hints.hintsByName;
    expect(first?.name).toMatch(/Netflix .*\(BR\)/);
    const product = await ctx.database.prisma.product.findFirstOrThrow({ where: { name: first?.name } });
    expect(first?.thumbnail).toBe(product.coverPath);
    expect(first?.price).toBe(product.priceMinor / 100);
    expect(first?.currency).toBe('BRL');
    expect(first?.region).toEqual({ code: 'BR', name: 'Brazil' });
  });

  it.each([
    ['psn', 'PlayStation'],
    ['lol', 'League of Legends'],
    ['xbx', 'Xbox'],
    ['стим', 'Steam'],
    ['नेटफ्लिक्स', 'Netflix'],
  ])('knows what a shopper means by %s', async (text, name) => {
    const hints = SearchHintsResponseSchema.parse((await get(`/api/search/hints/${encodeURIComponent(text)}`)).body);
    expect(hints.hintsByName[0]?.name).toContain(name);
  });

  it('rejects text longer than the search box allows', async () => {
    const { status, body } = await get(`/api/search/hints/${'a'.repeat(SEARCH_MAX + 1)}`);
    expect(status).toBe(422);
    expect(body.errors.query).toContain(ErrorKeys.tooLong);
  });

  it('answers 10 KB of search text with 414 and a message, before any work is done', async () => {
    const { status, body } = await get(`/api/search/hints/${'x'.repeat(10_240)}`);
    expect(status).toBe(414);
    expect(body).toEqual({ message: 'The request URL is too long.' });
  });

  it('rejects blank text', async () => {
    const { status, body } = await get('/api/search/hints/%20%20');
    expect(status).toBe(422);
    expect(body.errors.query).toContain(ErrorKeys.requiredField);
  });
});

describe('GET /api/search/products/:query/filter', () => {
  it('finds products for a typo and pages with totals', async () => {
    const { status, body } = await get('/api/search/products/stem/filter?limit=5');
    expect(status).toBe(200);
    const search = SearchResponseSchema.parse(body);
    expect(search.result.total).toBeGreaterThan(0);
    expect(search.result.products.every((product) => product.category === 'steam')).toBe(true);
  });

  it('applies the same filters as categories', async () => {
    const { body } = await get('/api/search/products/card/filter?sort=increase&minPrice=50&maxPrice=300&limit=60');
    const { result } = SearchResponseSchema.parse(body);
    const prices = result.products.map((product) => product.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    for (const price of prices) {
      expect(price).toBeGreaterThanOrEqual(50);
      expect(price).toBeLessThanOrEqual(300);
    }
  });

  it('answers an empty page, not an error, when nothing matches', async () => {
    const { status, body } = await get('/api/search/products/zzzqqqxxx/filter');
    expect(status).toBe(200);
    expect(SearchResponseSchema.parse(body).result).toMatchObject({ total: 0, products: [] });
  });

  it.each([
    ['sort=random', 'sort', ErrorKeys.unknownOption],
    ['minPrice=abc', 'minPrice', ErrorKeys.notANumber],
    ['minPrice=9&maxPrice=1', 'minPrice', ErrorKeys.minAboveMax],
    ['page=-4', 'page', ErrorKeys.notANumber],
  ])('rejects %s with 422', async (query, field, key) => {
    const { status, body } = await get(`/api/search/products/steam/filter?${query}`);
    expect(status).toBe(422);
    expect(body.errors[field]).toContain(key);
  });

  it('puts the denomination asked for first: "steam 50"', async () => {
    const { result } = SearchResponseSchema.parse((await get('/api/search/products/steam%2050/filter?limit=3')).body);
    expect(result.products.map((product) => product.nominal.amount)).toEqual([50, 50, 50]);
  });

  it('treats a percent sign literally', async () => {
    const { status, body } = await get('/api/search/products/%25/filter');
    expect(status).toBe(200);
    expect(SearchResponseSchema.parse(body).result.total).toBe(0);
  });
});

describe('malformed URLs', () => {
  it('answers a broken percent-encoding with 400 and a message', async () => {
    const { status, body } = await get('/api/search/hints/%E0%A4%A');
    expect(status).toBe(400);
    expect(body).toEqual({ message: 'The request URL is malformed.' });
  });
});
