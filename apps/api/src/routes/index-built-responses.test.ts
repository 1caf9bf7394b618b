import {
  CategoryListingResponseSchema,
  DISPLAY_CURRENCY_BY_LOCALE,
  LOCALES,
  PRODUCT_LISTS,
  ProductListResponseSchema,
  SearchHintsResponseSchema,
  SearchResponseSchema,
  SORT_MODES,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';

// Production writes listings, search results and hints without checking them against the contract
// (app.ts, INDEX_BUILT_RESPONSES). That is safe only while what the services build IS the contract:
// no field the schema would strip, none it would change. This checks it over the demo catalogue.

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

/** What production writes (the object as it is) must be what the checked serializer writes. */
function expectWrittenAsChecked(schema: { parse(data: unknown): unknown }, data: unknown) {
  expect(JSON.parse(JSON.stringify(data))).toStrictEqual(JSON.parse(JSON.stringify(schema.parse(data))));
}

describe('answers built from the search index', () => {
  it('are their contract exactly: listings of every category, sort, filter and page', async () => {
    const { catalogue } = ctx.app.services;
    const categories = await catalogue.listCategories();
    expect(categories.length).toBeGreaterThan(0);
    let products = 0;
    for (const category of categories) {
      for (const sort of SORT_MODES) {
        for (const page of [1, 2]) {
          const listing = await catalogue.getCategoryListing(category.id, { sort, page });
          products += listing.result.products.length;
          expectWrittenAsChecked(CategoryListingResponseSchema, listing);
        }
      }
      const filtered = await catalogue.getCategoryListing(category.id, { minPrice: 10, maxPrice: 500, sort: 'sale' });
      expectWrittenAsChecked(CategoryListingResponseSchema, filtered);
      // With the display rate of each language (the demo store has RUB and INR).
      for (const lang of LOCALES) {
        const shown = await catalogue.getCategoryListing(category.id, { lang });
        expect(shown.display.currency).toBe(DISPLAY_CURRENCY_BY_LOCALE[lang]);
        expectWrittenAsChecked(CategoryListingResponseSchema, shown);
      }
    }
    expect(products).toBeGreaterThan(50);
  });

  it('are their contract exactly: product lists, search results and hints', async () => {
    const { catalogue } = ctx.app.services;
    for (const list of PRODUCT_LISTS) {
      for (const lang of [undefined, ...LOCALES]) {
        expectWrittenAsChecked(ProductListResponseSchema, await catalogue.listProducts(list, { lang }));
      }
    }
    let hints = 0;
    for (const text of ['steam', 'psn', 'стим', 'नेटफ्लिक्स', 'netflx', '50', 'zzzz-nothing']) {
      for (const lang of [undefined, 'ru', 'hi'] as const) {
        expectWrittenAsChecked(SearchResponseSchema, await catalogue.searchProducts(text, { lang }));
        const found = await catalogue.searchHints(text, lang);
        hints += found.hintsByName.length + found.hintsByArt.length;
        expectWrittenAsChecked(SearchHintsResponseSchema, found);
      }
    }
    expect(hints).toBeGreaterThan(5);
  });
});
