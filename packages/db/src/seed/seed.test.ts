import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodeCipher, devCodeKey } from '../code-cipher.ts';
import { assetsDir } from '../paths.ts';
import { createTestDatabase, type TestDatabase } from '../testing.ts';
import { CATEGORIES } from './demo-data.ts';
import { generateCatalogue, priceFor, seedDemo, spacedThousands } from './index.ts';

const cipher = createCodeCipher(devCodeKey());
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.cleanup();
});

describe('seedDemo', () => {
  it('seeds the nine categories with products, and only once', async () => {
    expect(await seedDemo(db.prisma, { cipher })).toBe(true);
    const productCount = await db.prisma.product.count();
    expect(await seedDemo(db.prisma, { cipher })).toBe(false);
    expect(await db.prisma.product.count()).toBe(productCount);
    expect(productCount).toBeGreaterThanOrEqual(80);

    const categories = await db.prisma.category.findMany({
      orderBy: { position: 'asc' },
      include: { _count: { select: { products: true } } },
    });
    expect(categories.map((c) => c.slug)).toEqual([
      'steam',
      'playstation',
      'xbox',
      'app-store',
      'google-play',
      'league-of-legends',
      'netflix',
      'spotify',
      'valorant',
    ]);
    for (const category of categories) {
      expect(category._count.products, category.slug).toBeGreaterThan(3);
      expect(category.svgPath).toBe(`/static/icons/${category.slug}.svg`);
    }
  });

  it('seeds once even when two processes start at the same time', async () => {
    const other = await createTestDatabase();
    try {
      const results = await Promise.all([seedDemo(other.prisma, { cipher }), seedDemo(other.prisma, { cipher })]);
      expect(results.sort()).toEqual([false, true]);
      expect(await other.prisma.category.count()).toBe(CATEGORIES.length);
    } finally {
      await other.cleanup();
    }
  });

  it('points every cover, icon and flag at a file the API serves', async () => {
    const [products, categories, countries] = await Promise.all([
      db.prisma.product.findMany({ where: { coverPath: { not: null } }, distinct: ['coverPath'] }),
      db.prisma.category.findMany(),
      db.prisma.country.findMany(),
    ]);
    const paths = [
      ...products.map((p) => p.coverPath),
      ...categories.map((c) => c.svgPath),
      ...countries.map((c) => c.icon),
    ];
    for (const urlPath of paths) {
      expect(urlPath).toMatch(/^\/static\//);
      expect(existsSync(path.join(assetsDir, (urlPath as string).slice('/static/'.length))), urlPath ?? '').toBe(true);
    }
    expect(countries.find((c) => c.code === 'EU')?.name).toBeNull();
  });

  it('makes some discounted, some new, some sold out, and gives every product its brand’s cover', async () => {
    const products = await db.prisma.product.findMany();
    const weekAgo = Date.now() - 8 * 86_400_000;
    expect(products.some((p) => p.oldPriceMinor !== null && p.oldPriceMinor > p.priceMinor)).toBe(true);
    expect(products.some((p) => p.createdAt.getTime() > weekAgo)).toBe(true);
    expect(products.some((p) => p.stockCount === 0)).toBe(true);
    expect(products.some((p) => p.stockCount > 0)).toBe(true);
    expect(products.filter((p) => p.coverPath === null).map((p) => p.name)).toEqual([]);
    const slugs = new Map((await db.prisma.category.findMany()).map((c) => [c.id, c.slug]));
    for (const p of products) expect(p.coverPath).toBe(`/static/covers/${slugs.get(p.categoryId)}.svg`);
  });

  it('stores codes encrypted, readable with the key, and counts them into stock', async () => {
    const codes = await db.prisma.productCode.findMany({ include: { product: { include: { category: true } } } });
    expect(codes.length).toBeGreaterThan(200);
    for (const code of codes) {
      const plain = cipher.decrypt(code.ciphertext);
      expect(plain).toMatch(/^[A-Z0-9-]+$/);
      expect(cipher.digest(plain)).toBe(code.codeDigest);
      if (code.product.category.slug === 'app-store') expect(plain).toMatch(/^X[A-Z0-9]{15}$/);
    }
    const products = await db.prisma.product.findMany({ include: { _count: { select: { codes: true } } } });
    for (const product of products) expect(product.stockCount, product.name).toBe(product._count.codes);
  });

  it('offers WELCOME10 (10 % off, no end date, unlimited uses) and a code limited to PlayStation', async () => {
    const codes = await db.prisma.promoCode.findMany({ include: { categories: { include: { category: true } } } });
    const byCode = new Map(codes.map((code) => [code.code, code]));
    expect(byCode.get('WELCOME10')).toMatchObject({
      discountPercent: 10,
      validFrom: null,
      validUntil: null,
      maxUses: null,
      isActive: true,
      categories: [],
    });
    expect(byCode.get('PLAY20')?.categories.map((scope) => scope.category.slug)).toEqual(['playstation']);
  });

  it('refuses a duplicate code through its digest', async () => {
    const existing = await db.prisma.productCode.findFirstOrThrow();
    await expect(
      db.prisma.productCode.create({
        data: { productId: existing.productId, ciphertext: existing.ciphertext, codeDigest: existing.codeDigest },
      }),
    ).rejects.toThrow();
  });

  it('gives shoppers words for the platforms, countries and currencies, and adds them to a store seeded without', async () => {
    const psn = await db.prisma.searchAlias.findFirstOrThrow({ where: { term: 'PSN' }, include: { category: true } });
    expect(psn.category?.slug).toBe('playstation');
    const stim = await db.prisma.searchAlias.findFirstOrThrow({ where: { term: 'Стим' }, include: { category: true } });
    expect([stim.category?.slug, stim.locale]).toEqual(['steam', 'ru']);
    const count = await db.prisma.searchAlias.count();
    expect(count).toBeGreaterThan(80);

    await db.prisma.searchAlias.deleteMany();
    expect(await seedDemo(db.prisma, { cipher })).toBe(false);
    expect(await db.prisma.searchAlias.count()).toBe(count);
    // Once a store has aliases, they are the operator's: a removed one stays removed.
    await db.prisma.searchAlias.deleteMany({ where: { term: 'PSN' } });
    await seedDemo(db.prisma, { cipher });
    expect(await db.prisma.searchAlias.count()).toBe(count - 1);
  });

  it('gives every product its description and instructions in the four languages, and adds them to a store seeded without', async () => {
    const products = await db.prisma.product.count();
    const rows = await db.prisma.productTranslation.groupBy({ by: ['locale'], _count: true });
    expect(Object.fromEntries(rows.map((row) => [row.locale, row._count]))).toEqual({
      'pt-BR': products,
      en: products,
      ru: products,
      hi: products,
    });
    const steam = await db.prisma.product.findFirstOrThrow({
      where: { category: { slug: 'steam' } },
      include: { translations: true },
    });
    const text = (locale: string) => steam.translations.find((t) => t.locale === locale);
    expect(text('en')?.description).toBe(steam.description);
    expect(text('pt-BR')?.activationInstructions).toContain('Carteira Steam');
    expect(text('ru')?.description).toMatch(/[а-я]/);
    expect(text('hi')?.activationInstructions).toMatch(/[\u0900-\u097f]/);

    await db.prisma.productTranslation.deleteMany();
    expect(await seedDemo(db.prisma, { cipher })).toBe(false);
    expect(await db.prisma.productTranslation.count()).toBe(products * 4);
  });

  it("shows Russian and Hindi shoppers prices at the demo's rates, kept fresh while they are the demo's own", async () => {
    const rates = await db.prisma.displayRate.findMany({ orderBy: { currency: 'asc' } });
    expect(rates.map((rate) => [rate.currency, rate.brlPerUnit.toString(), rate.setBy])).toEqual([
      ['INR', '0.064', 'demo'],
      ['RUB', '0.057', 'demo'],
    ]);
    // A later start dates the demo's rates anew and leaves an operator's alone.
    const old = new Date('2026-01-01T00:00:00Z');
    await db.prisma.displayRate.update({ where: { currency: 'INR' }, data: { setAt: old } });
    await db.prisma.displayRate.update({
      where: { currency: 'RUB' },
      data: { setAt: old, setBy: 'maria', brlPerUnit: '0.06' },
    });
    const now = new Date('2026-11-24T12:00:00Z');
    expect(await seedDemo(db.prisma, { cipher, now })).toBe(false);
    const after = await db.prisma.displayRate.findMany({ orderBy: { currency: 'asc' } });
    expect(after.map((rate) => [rate.currency, rate.brlPerUnit.toString(), rate.setAt, rate.setBy])).toEqual([
      ['INR', '0.064', now, 'demo'],
      ['RUB', '0.06', old, 'maria'],
    ]);
    // A rate the operator removed stays removed; a store without any (seeded before rates existed)
    // gets the demo's.
    await db.prisma.displayRate.delete({ where: { currency: 'INR' } });
    await seedDemo(db.prisma, { cipher, now });
    expect((await db.prisma.displayRate.findMany()).map((rate) => rate.currency)).toEqual(['RUB']);
    await db.prisma.displayRate.deleteMany();
    await seedDemo(db.prisma, { cipher, now });
    expect(await db.prisma.displayRate.count()).toBe(2);
  });

  it('gives most products real reviews from demo customers who cannot sign in', async () => {
    const products = await db.prisma.product.count();
    const reviewed = await db.prisma.product.count({ where: { reviews: { some: {} } } });
    expect(reviewed).toBeGreaterThan(products / 2);
    expect(reviewed).toBeLessThan(products);
    const reviews = await db.prisma.review.findMany({ include: { user: true } });
    expect(new Set(reviews.map((review) => review.rating))).toEqual(new Set([3, 4, 5]));
    expect(reviews.some((review) => /[а-я]/.test(review.text))).toBe(true);
    expect(reviews.some((review) => /[\u0900-\u097f]/.test(review.text))).toBe(true);
    for (const review of reviews) expect(review.user.passwordHash).toBe('!');
  });

  it('finds Steam for the typo "stem" through pg_trgm', async () => {
    const rows = await db.prisma.$queryRaw<Array<{ name: string }>>`
      SELECT name FROM products WHERE 'stem' <% name ORDER BY word_similarity('stem', name) DESC LIMIT 5`;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.name.startsWith('Steam'))).toBe(true);
  });
});

describe('spacedThousands', () => {
  it('writes names and cover texts as the store writes numbers: "1 000", never "1,000"', async () => {
    expect(spacedThousands(1000)).toBe('1\u00a0000');
    expect(spacedThousands(1_234_567)).toBe('1\u00a0234\u00a0567');
    expect(spacedThousands(500)).toBe('500');
    const thousands = await db.prisma.product.findFirstOrThrow({ where: { name: { contains: '1\u00a0000 INR' } } });
    expect(thousands.coverText).toBe('1\u00a0000 INR');
    expect(await db.prisma.product.count({ where: { name: { contains: ',' } } })).toBe(0);
  });
});

describe('priceFor', () => {
  it('prices in BRL centavos, ending in ,90, above the converted face value', () => {
    expect(priceFor(100, 'BRL')).toBe(10_590);
    expect(priceFor(10, 'USD') % 100).toBe(90);
    expect(priceFor(10, 'USD')).toBeGreaterThan(5_600);
    expect(() => priceFor(1, 'XXX')).toThrow();
  });
});

describe('generateCatalogue', () => {
  it('tops the catalogue up to the asked size, over every platform', async () => {
    const total = await generateCatalogue(db.prisma, { products: 2_000 });
    expect(total).toBe(2_000);
    expect(await generateCatalogue(db.prisma, { products: 1_000 })).toBe(2_000);
    const [row] = await db.prisma.$queryRaw<Array<{ categories: number; discounted: number }>>`
      SELECT COUNT(DISTINCT category_id)::int AS categories,
             COUNT(*) FILTER (WHERE old_price_minor IS NOT NULL)::int AS discounted FROM products`;
    expect(row?.categories).toBe(9);
    expect(row?.discounted).toBeGreaterThan(100);
  });
});
