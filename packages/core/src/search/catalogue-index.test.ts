import { SORT_MODES, type SortMode } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { CatalogueIndex, type IndexedProduct, type ReferenceData } from './catalogue-index.ts';

/**
 * The index on a generated catalogue, checked against the obvious way of doing the same (filter and
 * sort the whole list): listings, totals and changes must agree with it exactly.
 */

const reference: ReferenceData = {
  categories: [
    { id: 11, slug: 'steam', name: 'Steam', formattedName: 'Steam' },
    { id: 12, slug: 'xbox', name: 'Xbox', formattedName: 'Xbox' },
    { id: 13, slug: 'netflix', name: 'Netflix', formattedName: 'Netflix' },
  ],
  countries: [
    { id: 21, code: 'BR', name: 'Brazil', icon: null },
    { id: 22, code: 'US', name: 'United States', icon: null },
    { id: 23, code: 'TR', name: 'Turkey', icon: null },
  ],
  currencies: [
    { id: 31, codeName: 'USD', minorUnits: 2 },
    { id: 32, codeName: 'BRL', minorUnits: 2 },
  ],
  aliases: [{ term: 'Стим', categoryId: 11, countryId: null, currencyId: null }],
};

function product(id: number): IndexedProduct {
  const reviewCount = id % 4 === 0 ? 0 : (id % 37) + 1;
  const category = reference.categories[id % 3] as ReferenceData['categories'][number];
  const amount = [10, 20, 50, 100][id % 4] as number;
  const currency = id % 5 === 0 ? 'BRL' : 'USD';
  return {
    id,
    categoryId: category.id,
    countryId: 21 + (id % 3 === 2 ? 2 : id % 2),
    currencyId: currency === 'BRL' ? 32 : 31,
    name: `${category.name} Gift Card ${amount} ${currency} #${id}`,
    coverPath: `/static/covers/${category.slug}.svg`,
    coverText: `${amount} ${currency}`,
    nominalMinor: amount * 100,
    priceMinor: 990 + ((id * 7919) % 40_000),
    oldPriceMinor: id % 6 === 0 ? 50_000 : null,
    popularity: (id * 104_729) % 1000,
    purchasedCount: (id * 31) % 400,
    stockCount: id % 7,
    createdAt: new Date(Date.UTC(2026, 0, 1) + ((id * 13) % 365) * 86_400_000),
    reviewCount,
    ratingSum: reviewCount + ((id * 7) % (4 * reviewCount + 1)),
  };
}

const ids = (hits: { products: Array<{ id: number }> }) => hits.products.map(({ id }) => id);

const compare: Record<SortMode, (a: IndexedProduct, b: IndexedProduct) => number> = {
  popular: (a, b) => b.popularity - a.popularity || a.id - b.id,
  counts: (a, b) => b.stockCount - a.stockCount || b.popularity - a.popularity || a.id - b.id,
  novelties: (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id,
  sale: (a, b) => {
    if ((a.oldPriceMinor === null) !== (b.oldPriceMinor === null)) return a.oldPriceMinor === null ? 1 : -1;
    const ratio = (p: IndexedProduct) => (p.oldPriceMinor === null ? 0 : p.priceMinor / p.oldPriceMinor);
    return ratio(a) - ratio(b) || a.id - b.id;
  },
  purchased: (a, b) => b.purchasedCount - a.purchasedCount || a.id - b.id,
  decreasing: (a, b) => b.priceMinor - a.priceMinor || a.id - b.id,
  increase: (a, b) => a.priceMinor - b.priceMinor || a.id - b.id,
};

describe('CatalogueIndex listings', () => {
  const products = Array.from({ length: 3_000 }, (_, i) => product(i + 1));
  const index = CatalogueIndex.build(reference, products);

  it.each(SORT_MODES)('lists a category sorted by %s exactly as sorting the whole list would', (sort) => {
    const expected = products
      .filter((p) => p.categoryId === 12)
      .sort(compare[sort])
      .map(({ id }) => id);
    const page = index.products({ category: 'xbox', sort, offset: 48, limit: 24 });
    expect(page.total).toBe(expected.length);
    expect(ids(page)).toEqual(expected.slice(48, 72));
  });

  it('filters by price, currency and country, with the same total on every page', () => {
    const wanted = (p: IndexedProduct) =>
      p.categoryId === 11 &&
      p.priceMinor >= 10_000 &&
      p.priceMinor <= 30_000 &&
      p.currencyId === 31 &&
      p.countryId === 22;
    const expected = products.filter(wanted).sort(compare.increase);
    const query = {
      category: 'steam',
      sort: 'increase' as const,
      minPriceMinor: 10_000,
      maxPriceMinor: 30_000,
      currencies: ['USD'],
      countries: ['US'],
      limit: 10,
    };
    for (const offset of [0, 10, 20, 0]) {
      const page = index.products({ ...query, offset });
      expect(page.total).toBe(expected.length);
      expect(ids(page)).toEqual(expected.slice(offset, offset + 10).map(({ id }) => id));
    }
  });

  it('lists only discounted products for the discounts list, deepest discount first', () => {
    const expected = products.filter((p) => p.oldPriceMinor !== null).sort(compare.sale);
    const page = index.products({ discountedOnly: true, sort: 'sale', offset: 0, limit: 60 });
    expect(page.total).toBe(expected.length);
    expect(ids(page)).toEqual(expected.slice(0, 60).map(({ id }) => id));
  });

  it('answers an unknown category with nothing', () => {
    expect(index.products({ category: 'nope', offset: 0, limit: 24 })).toEqual({
      total: 0,
      products: [],
      priceRange: null,
    });
  });

  it('knows each category: count, price range, and only the countries it has', () => {
    const facts = index.categoryFacts().get('netflix');
    const netflix = products.filter((p) => p.categoryId === 13);
    expect(facts).toEqual({
      slug: 'netflix',
      productsCount: netflix.length,
      minPriceMinor: Math.min(...netflix.map((p) => p.priceMinor)),
      maxPriceMinor: Math.max(...netflix.map((p) => p.priceMinor)),
      countries: ['TR'],
    });
  });
});

describe('CatalogueIndex ratings', () => {
  const rated = (id: number, reviewCount: number, ratingSum: number) => ({ ...product(id), reviewCount, ratingSum });

  it('gives each product the average of its reviews to one decimal, and their number', () => {
    const index = CatalogueIndex.build(reference, [
      rated(1, 20, 89),
      rated(2, 3, 13),
      rated(3, 1, 5),
      rated(4, 7, 7),
      rated(5, 0, 0),
      // More reviews than 16 bits hold: the count is kept whole.
      rated(6, 123_457, 567_902),
    ]);
    const byId = new Map(index.products({ offset: 0, limit: 10 }).products.map((p) => [p.id, p.rating]));
    expect(Object.fromEntries(byId)).toEqual({
      1: { average: 4.5, count: 20 },
      2: { average: 4.3, count: 3 },
      3: { average: 5, count: 1 },
      4: { average: 1, count: 7 },
      5: { average: null, count: 0 },
      6: { average: 4.6, count: 123_457 },
    });
  });

  it('matches the obvious computation for every product of a generated catalogue', () => {
    const products = Array.from({ length: 1_000 }, (_, i) => product(i + 1));
    const index = CatalogueIndex.build(reference, products);
    const listed = index.products({ sort: 'increase', offset: 0, limit: 1_000 }).products;
    expect(listed).toHaveLength(1_000);
    for (const summary of listed) {
      const source = products[summary.id - 1] as IndexedProduct;
      expect(summary.rating.count).toBe(source.reviewCount);
      if (source.reviewCount === 0) {
        expect(summary.rating.average).toBeNull();
        continue;
      }
      // Within half a tenth of the exact average, and a whole number of tenths.
      const tenths = (summary.rating.average as number) * 10;
      expect(Math.abs(tenths - (source.ratingSum * 10) / source.reviewCount)).toBeLessThanOrEqual(0.5 + 1e-9);
      expect(Math.abs(tenths - Math.round(tenths))).toBeLessThan(1e-9);
    }
  });
});

describe('CatalogueIndex changes', () => {
  it('moves a changed price within built orders and updates filtered totals', () => {
    const products = Array.from({ length: 500 }, (_, i) => product(i + 1));
    const index = CatalogueIndex.build(reference, products);
    const filtered = { category: 'steam', sort: 'increase' as const, maxPriceMinor: 2_000, offset: 0, limit: 500 };
    const before = index.products(filtered);
    const target = products.find((p) => p.categoryId === 11 && p.priceMinor > 2_000) as IndexedProduct;
    expect(index.apply([{ ...target, priceMinor: 100 }], [])).toBe(true);
    const after = index.products(filtered);
    expect(after.total).toBe(before.total + 1);
    expect(ids(after)[0]).toBe(target.id);
    expect(ids(index.products({ category: 'steam', sort: 'increase', offset: 0, limit: 1 }))).toEqual([target.id]);
  });

  it('finds a renamed product by its new words only, and drops a removed one everywhere', () => {
    const products = Array.from({ length: 200 }, (_, i) => product(i + 1));
    const index = CatalogueIndex.build(reference, products);
    const renamed = products[10] as IndexedProduct;
    const removed = products[20] as IndexedProduct;
    expect(index.apply([{ ...renamed, name: 'Quasar Nebula Card' }], [removed.id])).toBe(true);
    expect(index.hints('quasar', 8).byName.map(({ id }) => id)).toEqual([renamed.id]);
    expect(index.hints(`#${renamed.id}`, 8).byName.map(({ id }) => id)).not.toContain(renamed.id);
    expect(index.hints(String(removed.id), 8).byArticle.map(({ id }) => id)).not.toContain(removed.id);
    const all = index.products({ offset: 0, limit: 500 });
    expect(all.total).toBe(199);
    expect(ids(all)).not.toContain(removed.id);
    expect(index.size).toBe(199);
  });

  it('shows a review posted: the new average and count, in the same place of every listing', () => {
    const products = Array.from({ length: 300 }, (_, i) => product(i + 1));
    const index = CatalogueIndex.build(reference, products);
    const listing = { category: 'xbox', sort: 'popular' as const, offset: 0, limit: 200 };
    const before = index.products(listing);
    const target = products.find((p) => p.categoryId === 12 && p.reviewCount === 0) as IndexedProduct;
    expect(before.products.find(({ id }) => id === target.id)?.rating).toEqual({ average: null, count: 0 });

    expect(index.apply([{ ...target, reviewCount: 1, ratingSum: 4 }], [])).toBe(true);
    const after = index.products(listing);
    expect(ids(after)).toEqual(ids(before));
    expect(after.products.find(({ id }) => id === target.id)?.rating).toEqual({ average: 4, count: 1 });
    expect(index.products({ text: target.name, offset: 0, limit: 1 }).products[0]).toMatchObject({
      id: target.id,
      rating: { average: 4, count: 1 },
    });

    expect(index.apply([{ ...target, reviewCount: 2, ratingSum: 9 }], [])).toBe(true);
    expect(index.products(listing).products.find(({ id }) => id === target.id)?.rating).toEqual({
      average: 4.5,
      count: 2,
    });
  });

  it('says when it is out of room, so that it is built again', () => {
    const index = new CatalogueIndex(reference, 1024);
    const many = Array.from({ length: 1_025 }, (_, i) => product(i + 1));
    expect(index.apply(many.slice(0, 1_024), [])).toBe(true);
    expect(index.apply(many.slice(1_024), [])).toBe(false);
    expect(index.size).toBe(1_024);
  });
});

describe('CatalogueIndex matching', () => {
  const index = CatalogueIndex.build(
    reference,
    Array.from({ length: 300 }, (_, i) => product(i + 1)),
  );

  it('finds by an alias in another script, and by its Latin spelling', () => {
    for (const text of ['стим', 'stim']) {
      const names = index.hints(text, 8).byName.map(({ name }) => name);
      expect(names.length).toBe(8);
      for (const name of names) expect(name).toMatch(/^Steam/);
    }
  });

  it('finds what has the most of the words when nothing has them all', () => {
    const { products, total } = index.products({ text: 'netflix xbox turkey', offset: 0, limit: 5 });
    expect(total).toBeGreaterThan(0);
    for (const found of products) expect([found.category, found.country.code]).toEqual(['netflix', 'TR']);
  });

  it('gives up on a long text of unrelated words quickly, with what one word finds', () => {
    const text = Array.from({ length: 20 }, (_, i) => (i % 2 ? 'xbox' : 'netflix')).join(' ');
    const started = performance.now();
    const { total } = index.products({ text: `${text} steam`, offset: 0, limit: 5 });
    expect(performance.now() - started).toBeLessThan(200);
    expect(total).toBeGreaterThan(0);
  });
});
