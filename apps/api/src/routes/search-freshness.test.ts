import { SearchHintsResponseSchema } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';

/**
 * Every API instance answers search from its own index: a product changed through one instance (or
 * straight in the database) must show in the other's hints, searches and listings, through the
 * database's change feed (LISTEN/NOTIFY on PostgreSQL, PGlite's in-process notifications embedded).
 */

let first: Awaited<ReturnType<typeof buildTestApp>>;
let second: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  first = await buildTestApp({ CATALOGUE_CACHE_MS: '60000' });
  second = await buildTestApp({ CATALOGUE_CACHE_MS: '60000' }, { database: first.database });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

async function hintNames(app: typeof first.app, text: string) {
  const response = await app.inject({ method: 'GET', url: `/api/search/hints/${encodeURIComponent(text)}` });
  return SearchHintsResponseSchema.parse(response.json()).hintsByName.map(({ name }) => name);
}

/** Polls until `check` passes, for at most five seconds: the feed is asynchronous, not slow. */
async function eventually(check: () => Promise<void>) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('an index kept fresh in every instance', () => {
  it('shows a product renamed through another instance, under its new name only', async () => {
    const product = await first.database.prisma.product.findFirstOrThrow({ where: { name: { contains: 'Spotify' } } });
    // Both instances have answered (and cached) the old words before the change.
    expect(await hintNames(second.app, 'zephyrine')).toEqual([]);
    expect(await hintNames(second.app, product.name)).toContain(product.name);

    await first.database.prisma.product.update({
      where: { id: product.id },
      data: { name: 'Zephyrine Quasar Gift Card 10 USD' },
    });
    await eventually(async () => {
      expect(await hintNames(second.app, 'zephyrine')).toEqual(['Zephyrine Quasar Gift Card 10 USD']);
      expect(await hintNames(second.app, product.name)).not.toContain(product.name);
    });
    expect(await hintNames(first.app, 'zephyrine')).toEqual(['Zephyrine Quasar Gift Card 10 USD']);
  });

  it('drops a product taken off sale from listings and counts', async () => {
    const listing = async () =>
      (await second.app.inject({ method: 'GET', url: '/api/categories/valorant?limit=60' })).json() as {
        result: { total: number; products: Array<{ id: number }> };
      };
    const before = await listing();
    const gone = before.result.products[0] as { id: number };
    await first.database.prisma.product.update({ where: { id: gone.id }, data: { isActive: false } });
    await eventually(async () => {
      const after = await listing();
      expect(after.result.total).toBe(before.result.total - 1);
      expect(after.result.products.map(({ id }) => id)).not.toContain(gone.id);
    });
  });

  it('moves a product whose price changed within the price order', async () => {
    const sorted = async () =>
      (
        (await second.app.inject({ method: 'GET', url: '/api/categories/xbox?sort=increase&limit=3' })).json() as {
          result: { products: Array<{ id: number; price_minor: number }> };
        }
      ).result.products;
    const dearest = await first.database.prisma.product.findFirstOrThrow({
      where: { category: { slug: 'xbox' }, isActive: true },
      orderBy: { priceMinor: 'desc' },
    });
    await sorted();
    await first.database.prisma.product.update({ where: { id: dearest.id }, data: { priceMinor: 90 } });
    await eventually(async () => {
      expect((await sorted())[0]).toMatchObject({ id: dearest.id, price_minor: 90 });
    });
  });

  it('learns a new alias without a restart', async () => {
    const category = await first.database.prisma.category.findUniqueOrThrow({ where: { slug: 'valorant' } });
    expect(await hintNames(second.app, 'valopointz')).toEqual([]);
    await first.database.prisma.searchAlias.create({ data: { term: 'ValoPointz', categoryId: category.id } });
    await eventually(async () => {
      const names = await hintNames(second.app, 'valopointz');
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(name).toContain('Valorant');
    });
  });
});
