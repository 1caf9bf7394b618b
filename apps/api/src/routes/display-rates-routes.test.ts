import { randomUUID } from 'node:crypto';
import {
  BasketResponseSchema,
  CategoryListingResponseSchema,
  ErrorKeys,
  ProductDetailSchema,
  ProductListResponseSchema,
  SearchHintsResponseSchema,
  SearchResponseSchema,
  STORE_DISPLAY_RATE,
} from '@store/contract';
import { createDisplayRateAdmin } from '@store/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../test/accounts.ts';
import { buildTestApp } from '../../test/helper.ts';

// Prices in the shopper's currency: every answer with prices to show carries the rate of the
// request's language; the prices themselves, and what is charged, stay in BRL.

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' });
});
afterAll(async () => {
  await ctx?.close();
});

const get = (url: string, token?: string) => call(ctx.app, 'GET', url, { token });
const admin = () => createDisplayRateAdmin({ sql: ctx.database.sql });

/** Sets a rate and waits for this instance to hold it (the change feed brings it within moments). */
async function setRate(currency: string, rate: string) {
  await admin().set({ currency, rate, setBy: 'test' });
  await ctx.app.services.displayRates.refresh();
}

const RUB = { currency: 'RUB', rate: '0.057', set_at: expect.any(String) };
const INR = { currency: 'INR', rate: '0.064', set_at: expect.any(String) };

describe('the rate of the request language', () => {
  it('comes with a category listing; prices stay in BRL', async () => {
    const ru = await get('/api/categories/steam?lang=ru');
    expect(ru.status).toBe(200);
    const listing = CategoryListingResponseSchema.parse(ru.body);
    // The demo store's own rates, seeded with it.
    expect(listing.display).toEqual(RUB);
    const pt = CategoryListingResponseSchema.parse((await get('/api/categories/steam?lang=pt-BR')).body);
    expect(pt.display).toEqual(STORE_DISPLAY_RATE);
    expect(listing.result.products.map((p) => [p.id, p.price_minor, p.currency])).toEqual(
      pt.result.products.map((p) => [p.id, p.price_minor, 'BRL']),
    );
    // No language: the store's currency.
    expect(CategoryListingResponseSchema.parse((await get('/api/categories/steam')).body).display).toEqual(
      STORE_DISPLAY_RATE,
    );
  });

  it('comes with product lists, search results, hints and the product page', async () => {
    const list = await get('/api/popular-products?lang=hi');
    expect(ProductListResponseSchema.parse(list.body).display).toEqual(INR);
    const search = await get('/api/search/products/steam/filter?lang=ru&sort=increase');
    expect(SearchResponseSchema.parse(search.body).display).toEqual(RUB);
    const hints = await get('/api/search/hints/stea?lang=hi');
    const parsedHints = SearchHintsResponseSchema.parse(hints.body);
    expect(parsedHints.display).toEqual(INR);
    expect(parsedHints.hintsByName[0]?.currency).toBe('BRL');
    const en = await get('/api/search/hints/stea?lang=en');
    expect(SearchHintsResponseSchema.parse(en.body).display).toEqual(STORE_DISPLAY_RATE);
    const product = await get('/api/products/1?lang=ru');
    expect(ProductDetailSchema.parse(product.body)).toMatchObject({ currency: 'BRL', display: RUB });
  });

  it('comes with the basket, whose total is charged in BRL', async () => {
    const { token } = await registerUser(ctx.app);
    const patched = await call(ctx.app, 'PATCH', '/api/basket?lang=ru', {
      token,
      body: { flush_id: randomUUID(), products: [{ id: 1, type: 'increase', count: 2 }] },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(BasketResponseSchema.parse(patched.body)).toMatchObject({ currency: 'BRL', display: RUB });
    const basket = BasketResponseSchema.parse((await get('/api/basket?lang=hi', token)).body);
    expect(basket.display).toEqual(INR);
    expect(basket.total_minor).toBe((basket.products[0]?.price_minor ?? 0) * 2);
    expect(BasketResponseSchema.parse((await get('/api/basket', token)).body).display).toEqual(STORE_DISPLAY_RATE);
  });
});

describe('a rate set anew', () => {
  it('reaches cached listings and hints at once', async () => {
    const url = '/api/categories/xbox?lang=ru';
    expect(CategoryListingResponseSchema.parse((await get(url)).body).display.rate).toBe('0.057');
    expect(SearchHintsResponseSchema.parse((await get('/api/search/hints/xbo?lang=ru')).body).display.rate).toBe(
      '0.057',
    );
    await setRate('RUB', '0.06');
    try {
      expect(CategoryListingResponseSchema.parse((await get(url)).body).display).toEqual({ ...RUB, rate: '0.06' });
      expect(SearchHintsResponseSchema.parse((await get('/api/search/hints/xbo?lang=ru')).body).display.rate).toBe(
        '0.06',
      );
    } finally {
      await setRate('RUB', '0.057');
    }
  });

  it('reaches the instance through the change feed, without asking it to read', async () => {
    await admin().set({ currency: 'INR', rate: '0.07', setBy: 'test' });
    try {
      await expect
        .poll(async () => ProductListResponseSchema.parse((await get('/api/novelties?lang=hi')).body).display.rate, {
          timeout: 10_000,
        })
        .toBe('0.07');
    } finally {
      await setRate('INR', '0.064');
    }
  });

  it('falls back to BRL once older than 7 days, and when removed', async () => {
    const { prisma } = ctx.database;
    await prisma.displayRate.update({
      where: { currency: 'RUB' },
      data: { setAt: new Date(Date.now() - 8 * 24 * 3_600_000) },
    });
    await ctx.app.services.displayRates.refresh();
    try {
      expect(CategoryListingResponseSchema.parse((await get('/api/categories/steam?lang=ru')).body).display).toEqual(
        STORE_DISPLAY_RATE,
      );
      expect(ProductDetailSchema.parse((await get('/api/products/1?lang=ru')).body).display).toEqual(
        STORE_DISPLAY_RATE,
      );
      await admin().remove('INR');
      await ctx.app.services.displayRates.refresh();
      expect(ProductListResponseSchema.parse((await get('/api/popular-products?lang=hi')).body).display).toEqual(
        STORE_DISPLAY_RATE,
      );
    } finally {
      await setRate('RUB', '0.057');
      await setRate('INR', '0.064');
    }
  });
});

describe('bad input', () => {
  it.each([
    '/api/categories/steam?lang=de',
    '/api/popular-products?lang=RU',
    '/api/search/products/steam/filter?lang=xx',
    '/api/search/hints/steam?lang=fr',
    '/api/products/1?lang=en-US',
  ])('%s is a 422 on lang', async (url) => {
    const { status, body } = await get(url);
    expect(status).toBe(422);
    expect(body.errors.lang).toEqual([ErrorKeys.unknownOption]);
  });

  it('the basket refuses an unknown language with a 422, before changing anything', async () => {
    const { token } = await registerUser(ctx.app);
    const bad = await call(ctx.app, 'PATCH', '/api/basket?lang=zz', {
      token,
      body: { flush_id: randomUUID(), products: [{ id: 1, type: 'increase', count: 1 }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.lang).toEqual([ErrorKeys.unknownOption]);
    const basket = BasketResponseSchema.parse((await get('/api/basket?lang=pt-BR', token)).body);
    expect(basket.products).toEqual([]);
    expect((await get('/api/basket?lang=zz', token)).status).toBe(422);
  });
});
