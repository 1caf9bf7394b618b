import { HINTS_PER_KIND } from '@store/contract';
import { createCodeCipher, devCodeKey } from '@store/db';
import { seedDemo } from '@store/db/seed';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexedProductSearch, type IndexedProductSearch } from './indexed-product-search.ts';
import type { ProductHint } from './product-search.ts';

/**
 * What shoppers type, and what must come first (or within the first three) for it: platform names
 * and their abbreviations, typos, denominations, countries and currencies, in the four languages and
 * scripts of the store. It runs against the index the API uses, built from the demo catalogue.
 */

interface Want {
  category: string;
  /** The face value, in units of its currency. */
  amount?: number;
  currency?: string;
  country?: string;
}

type Case = [query: string, where: 'first' | 'top3', want: Want];

const CASES: Case[] = [
  // Names, prefixes and typos (a dropped, wrong, added or swapped letter).
  ['steam', 'first', { category: 'steam' }],
  ['stea', 'first', { category: 'steam' }],
  ['stem', 'first', { category: 'steam' }],
  ['setam', 'first', { category: 'steam' }],
  ['steam gift card', 'first', { category: 'steam' }],
  ['steam wallet', 'first', { category: 'steam' }],
  ['netflix', 'first', { category: 'netflix' }],
  ['netf', 'first', { category: 'netflix' }],
  ['netflx', 'first', { category: 'netflix' }],
  ['nteflix', 'first', { category: 'netflix' }],
  ['spotify', 'first', { category: 'spotify' }],
  ['spotfy', 'first', { category: 'spotify' }],
  ['spotiy', 'first', { category: 'spotify' }],
  ['playstaton', 'first', { category: 'playstation' }],
  ['playstatoin', 'first', { category: 'playstation' }],
  ['xbox', 'first', { category: 'xbox' }],
  ['xbx', 'first', { category: 'xbox' }],
  ['xobx', 'first', { category: 'xbox' }],
  ['gogle', 'first', { category: 'google-play' }],
  ['valornt', 'first', { category: 'valorant' }],
  ['valornat', 'first', { category: 'valorant' }],
  ['leauge', 'first', { category: 'league-of-legends' }],
  ['legends', 'first', { category: 'league-of-legends' }],
  // Abbreviations and other names of the platforms.
  ['psn', 'first', { category: 'playstation' }],
  ['ps4', 'first', { category: 'playstation' }],
  ['ps5', 'first', { category: 'playstation' }],
  ['ps', 'first', { category: 'playstation' }],
  ['playstation network', 'first', { category: 'playstation' }],
  ['lol', 'first', { category: 'league-of-legends' }],
  ['riot', 'first', { category: 'league-of-legends' }],
  ['riot points', 'first', { category: 'league-of-legends' }],
  ['rp', 'first', { category: 'league-of-legends' }],
  ['itunes', 'first', { category: 'app-store' }],
  ['itune', 'first', { category: 'app-store' }],
  ['apple', 'first', { category: 'app-store' }],
  ['app store', 'first', { category: 'app-store' }],
  ['xbox live', 'first', { category: 'xbox' }],
  ['game pass', 'first', { category: 'xbox' }],
  ['gamepass', 'first', { category: 'xbox' }],
  ['gamepas', 'first', { category: 'xbox' }],
  ['googleplay', 'first', { category: 'google-play' }],
  ['playstore', 'first', { category: 'google-play' }],
  ['google play', 'first', { category: 'google-play' }],
  ['google play store', 'first', { category: 'google-play' }],
  ['play store', 'first', { category: 'google-play' }],
  ['vp', 'first', { category: 'valorant' }],
  ['valorant points', 'first', { category: 'valorant' }],
  // Denominations, currencies and countries.
  ['steam 50', 'first', { category: 'steam', amount: 50 }],
  ['steam 100', 'first', { category: 'steam', amount: 100 }],
  ['steam 20 eur', 'first', { category: 'steam', amount: 20, currency: 'EUR' }],
  ['steam usd', 'first', { category: 'steam', currency: 'USD' }],
  ['50 usd', 'first', { category: '*', amount: 50, currency: 'USD' }],
  ['50 dollars', 'first', { category: '*', amount: 50, currency: 'USD' }],
  ['netflix 25', 'first', { category: 'netflix', amount: 25 }],
  ['1600 rp', 'first', { category: 'league-of-legends', country: 'BR' }],
  ['1000 vp', 'first', { category: 'valorant', country: 'BR' }],
  ['steam brasil', 'first', { category: 'steam', country: 'BR' }],
  ['steam brasil reais', 'first', { category: 'steam', country: 'BR', currency: 'BRL' }],
  ['netflix turkey', 'first', { category: 'netflix', country: 'TR' }],
  ['netflix türkiye', 'first', { category: 'netflix', country: 'TR' }],
  ['xbox brazil', 'first', { category: 'xbox', country: 'BR' }],
  ['psn uk', 'first', { category: 'playstation', country: 'GB' }],
  ['spotify polska', 'first', { category: 'spotify', country: 'PL' }],
  ['apple india', 'first', { category: 'app-store', country: 'IN' }],
  ['google play turkey', 'first', { category: 'google-play', country: 'TR' }],
  ['valorant europe', 'first', { category: 'valorant', country: 'EU' }],
  ['lol brasil', 'first', { category: 'league-of-legends', country: 'BR' }],
  // Portuguese.
  ['cartão steam', 'first', { category: 'steam' }],
  ['cartão de presente netflix brasil', 'first', { category: 'netflix', country: 'BR' }],
  // Russian, in Cyrillic.
  ['стим', 'first', { category: 'steam' }],
  ['сти', 'first', { category: 'steam' }],
  ['стеам', 'first', { category: 'steam' }],
  ['стим 50', 'first', { category: 'steam', amount: 50 }],
  ['стим бразилия', 'first', { category: 'steam', country: 'BR' }],
  ['плейстейшн', 'first', { category: 'playstation' }],
  ['плейстейшен', 'first', { category: 'playstation' }],
  ['псн', 'first', { category: 'playstation' }],
  ['нетфликс', 'first', { category: 'netflix' }],
  ['нетф', 'first', { category: 'netflix' }],
  ['нетфликс турция', 'first', { category: 'netflix', country: 'TR' }],
  ['нетфликс 100', 'first', { category: 'netflix', amount: 100 }],
  ['спотифай', 'first', { category: 'spotify' }],
  ['иксбокс', 'first', { category: 'xbox' }],
  ['валорант', 'first', { category: 'valorant' }],
  ['лига легенд', 'first', { category: 'league-of-legends' }],
  ['гугл плей', 'first', { category: 'google-play' }],
  ['айтюнс', 'first', { category: 'app-store' }],
  ['стим 20 евро', 'first', { category: 'steam', amount: 20, currency: 'EUR' }],
  // Hindi, in Devanagari.
  ['स्टीम', 'first', { category: 'steam' }],
  ['स्टीम 50', 'first', { category: 'steam', amount: 50 }],
  ['नेटफ्लिक्स', 'first', { category: 'netflix' }],
  ['नेटफ्लिक्स भारत', 'first', { category: 'netflix', country: 'IN' }],
  ['प्लेस्टेशन', 'first', { category: 'playstation' }],
  ['एक्सबॉक्स', 'first', { category: 'xbox' }],
  ['गूगल प्ले', 'first', { category: 'google-play' }],
  ['स्पॉटिफाई', 'first', { category: 'spotify' }],
  ['वैलोरेंट', 'first', { category: 'valorant' }],
  ['ऐप्पल', 'first', { category: 'app-store' }],
  // Broad words: the platform named must be among the first three.
  ['play', 'top3', { category: 'playstation' }],
  ['gift card 50 usd', 'top3', { category: 'steam', amount: 50, currency: 'USD' }],
];

/** What both a hint and a search result tell of a product. */
interface Found {
  name: string;
  category: string;
  nominal: { amount: number; currency: string };
  country: string;
}

const fromHint = (hint: ProductHint): Found => ({ ...hint, country: hint.region.code });

const fits = (product: Found, want: Want) =>
  (want.category === '*' || product.category === want.category) &&
  (want.amount === undefined || product.nominal.amount === want.amount) &&
  (want.currency === undefined || product.nominal.currency === want.currency) &&
  (want.country === undefined || product.country === want.country);

const describeProduct = (product: Found | undefined) =>
  product
    ? `${product.name} [${product.category} ${product.nominal.amount} ${product.nominal.currency} ${product.country}]`
    : 'nothing';

let db: TestDatabase;
let search: IndexedProductSearch;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedDemo(db.prisma, { cipher: createCodeCipher(devCodeKey()) });
  search = await createIndexedProductSearch({ db: db.prisma, sql: db.sql });
});
afterAll(async () => {
  await search?.close();
  await db?.cleanup();
});

describe('relevance: what a shopper types finds what they mean', () => {
  it('has at least sixty queries', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
  });

  it.each(CASES)('%s: %s is %j', async (query, where, want) => {
    const count = where === 'first' ? 1 : 3;
    const hints = (await search.hints(query, HINTS_PER_KIND)).byName.map(fromHint);
    const results = (await search.products({ text: query, offset: 0, limit: 3 })).products.map((product) => ({
      ...product,
      country: product.country.code,
    }));
    expect(
      hints.slice(0, count).some((hint) => fits(hint, want)),
      `hints: ${hints.slice(0, 3).map(describeProduct).join('; ')}`,
    ).toBe(true);
    expect(
      results.slice(0, count).some((product) => fits(product, want)),
      `results: ${results.map(describeProduct).join('; ')}`,
    ).toBe(true);
  });

  it('finds a product by its article, and by the beginning of it', async () => {
    const product = await db.prisma.product.findFirstOrThrow({ where: { id: { gte: 10 } }, orderBy: { id: 'asc' } });
    const exact = await search.hints(String(product.id), HINTS_PER_KIND);
    expect(exact.byArticle[0]?.id).toBe(product.id);
    const start = await search.hints(String(product.id).slice(0, 1), HINTS_PER_KIND);
    expect(start.byArticle.map(({ id }) => id)).toContain(Number(String(product.id).slice(0, 1)));
  });

  it('finds nothing for nonsense, and no hint names a product twice', async () => {
    expect((await search.hints('zzqxqzz', HINTS_PER_KIND)).byName).toEqual([]);
    expect((await search.products({ text: 'zzqxqzz', offset: 0, limit: 24 })).total).toBe(0);
    const names = (await search.hints('card', HINTS_PER_KIND)).byName.map(({ name }) => name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBe(HINTS_PER_KIND);
  });

  it('puts 50-unit cards before 10-unit ones for "steam 50", all of them first', async () => {
    const { products, total } = await search.products({ text: 'steam 50', offset: 0, limit: 60 });
    const fifties = products.filter((product) => product.nominal.amount === 50).length;
    expect(fifties).toBeGreaterThanOrEqual(3);
    expect(products.slice(0, fifties).every((product) => product.nominal.amount === 50)).toBe(true);
    expect(products.every((product) => product.category === 'steam')).toBe(true);
    expect(total).toBe(products.length);
  });
});
