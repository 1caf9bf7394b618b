import {
  CategoryListingResponseSchema,
  ProductDetailSchema,
  SearchHintsResponseSchema,
  SearchResponseSchema,
} from '@store/contract';
import { eventuallyPasses } from '@store/core/testing';
import { qb } from '@store/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../test/accounts.ts';
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
    // The change was written straight to the database: both instances learn it from the feed, each
    // in its own time.
    await eventuallyPasses(async () => {
      expect(await hintNames(second.app, 'zephyrine')).toEqual(['Zephyrine Quasar Gift Card 10 USD']);
      expect(await hintNames(second.app, product.name)).not.toContain(product.name);
      expect(await hintNames(first.app, 'zephyrine')).toEqual(['Zephyrine Quasar Gift Card 10 USD']);
    });
  });

  it('drops a product taken off sale from listings and counts', async () => {
    const listing = async () =>
      (await second.app.inject({ method: 'GET', url: '/api/categories/valorant?limit=60' })).json() as {
        result: { total: number; products: Array<{ id: number }> };
      };
    const before = await listing();
    const gone = before.result.products[0] as { id: number };
    await first.database.prisma.product.update({ where: { id: gone.id }, data: { isActive: false } });
    await eventuallyPasses(async () => {
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
    await eventuallyPasses(async () => {
      expect((await sorted())[0]).toMatchObject({ id: dearest.id, price_minor: 90 });
    });
  });

  it("shows a review posted through another instance in the product's rating, and a deleted one gone", async () => {
    const listing = async (app: typeof first.app) =>
      CategoryListingResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/api/categories/netflix?limit=60' })).json(),
      ).result.products;
    const searched = async (app: typeof first.app, text: string) =>
      SearchResponseSchema.parse(
        (
          await app.inject({ method: 'GET', url: `/api/search/products/${encodeURIComponent(text)}/filter?limit=60` })
        ).json(),
      ).result.products;
    const rated = (products: Array<{ id: number; rating: unknown }>, id: number) =>
      products.find((product) => product.id === id)?.rating;
    const ratingInDatabase = async (id: number) => {
      const [row] = await first.database.sql.query(
        qb
          .selectFrom('reviews')
          .select((eb) => [
            eb
              .cast<number | null>(eb.fn('round', [eb.cast(eb.fn.avg('rating'), 'numeric'), eb.lit(1)]), 'float8')
              .as('average'),
            eb.cast<number>(eb.fn.countAll(), 'integer').as('count'),
          ])
          .where('product_id', '=', id),
      );
      return row;
    };

    const before = await listing(second.app);
    const target = before[0] as (typeof before)[number];
    // Both instances have answered (and cached) the listing and the search before the review.
    await searched(second.app, target.name);
    expect(rated(before, target.id)).toEqual(await ratingInDatabase(target.id));

    const { token } = await registerUser(first.app);
    const posted = await call(first.app, 'POST', '/api/products/feedbacks', {
      body: { productId: target.id, rating: 1, text: 'The code did not work in my region.' },
      token,
    });
    expect(posted.status).toBe(201);
    const after = await ratingInDatabase(target.id);
    expect(after?.count).toBe(target.rating.count + 1);

    await eventuallyPasses(async () => {
      expect(rated(await listing(second.app), target.id)).toEqual(after);
      expect(rated(await searched(second.app, target.name), target.id)).toEqual(after);
    });
    expect(rated(await listing(first.app), target.id)).toEqual(after);
    const page = ProductDetailSchema.parse(
      (await second.app.inject({ method: 'GET', url: `/api/products/${target.id}` })).json(),
    );
    expect(page.rating).toEqual(after);

    await first.database.prisma.review.delete({ where: { id: (posted.body as { id: string }).id } });
    await eventuallyPasses(async () => {
      expect(rated(await listing(second.app), target.id)).toEqual(target.rating);
    });
  });

  it('learns a new alias without a restart', async () => {
    const category = await first.database.prisma.category.findUniqueOrThrow({ where: { slug: 'valorant' } });
    expect(await hintNames(second.app, 'valopointz')).toEqual([]);
    await first.database.prisma.searchAlias.create({ data: { term: 'ValoPointz', categoryId: category.id } });
    await eventuallyPasses(async () => {
      const names = await hintNames(second.app, 'valopointz');
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(name).toContain('Valorant');
    });
  });
});
