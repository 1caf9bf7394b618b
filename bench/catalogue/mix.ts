import type pg from 'pg';

/**
 * The realistic mix: what thousands of shoppers ask at once, drawn at random per request with a
 * fixed seed. Listings over every category, every sort, price, currency and country filters, and
 * page depths with a long tail; hints from prefixes (2 to 15 characters) of real product names,
 * some with a dropped, swapped or wrong letter, some typed in Cyrillic or Devanagari.
 */

export const SORTS = ['popular', 'counts', 'novelties', 'sale', 'purchased', 'decreasing', 'increase'] as const;
const PAGE_SIZE = 24;

export interface MixSource {
  categories: Array<{
    slug: string;
    products: number;
    /** Whole units of the store currency. */
    minPrice: number;
    maxPrice: number;
    countries: string[];
    currencies: string[];
  }>;
  /** Real product names, a sample of the catalogue. */
  names: string[];
  /** Platform, country and currency names in Russian and Hindi, as the catalogue has them. */
  otherScripts: string[];
}

export async function loadMixSource(pool: pg.Pool): Promise<MixSource> {
  const categories = await pool.query<{
    slug: string;
    products: number;
    min_price: number;
    max_price: number;
    countries: string[];
    currencies: string[];
  }>(`
    SELECT c.slug, COUNT(*)::int AS products,
           FLOOR(MIN(p.price_minor) / 100)::int AS min_price, CEIL(MAX(p.price_minor) / 100.0)::int AS max_price,
           array_agg(DISTINCT co.code) AS countries, array_agg(DISTINCT cu.code_name) AS currencies
    FROM products p
    JOIN categories c ON c.id = p.category_id
    JOIN countries co ON co.id = p.country_id
    JOIN currencies cu ON cu.id = p.nominal_currency_id
    WHERE p.is_active
    GROUP BY c.slug ORDER BY c.slug`);
  const names = await pool.query<{ name: string }>(
    'SELECT name FROM products WHERE is_active AND id % 5 = 0 ORDER BY id LIMIT 20000',
  );
  const aliases = await pool.query<{ term: string }>(
    "SELECT term FROM search_aliases WHERE locale IN ('ru', 'hi') ORDER BY id",
  );
  return {
    categories: categories.rows.map((row) => ({
      slug: row.slug,
      products: row.products,
      minPrice: row.min_price,
      maxPrice: row.max_price,
      countries: row.countries,
      currencies: row.currencies,
    })),
    names: names.rows.map(({ name }) => name),
    otherScripts: aliases.rows.map(({ term }) => term),
  };
}

/** mulberry32: small, fast and the same on every run for the same seed. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}

/** Listing paths (after the API prefix): /categories/{slug}?... */
export function listingMix(source: MixSource, seed: number): () => string {
  const random = seeded(seed);
  return () => {
    const category = random.pick(source.categories);
    const params = new URLSearchParams();
    if (random.next() < 0.85) params.set('sort', random.pick(SORTS));
    if (random.next() < 0.3) {
      // On the slider's steps of 50, as a shopper dragging it sends them.
      const steps = Math.max(1, Math.floor((category.maxPrice - category.minPrice) / 50));
      const min = Math.floor(category.minPrice / 50) * 50 + 50 * random.int(Math.ceil(steps / 2));
      params.set('minPrice', String(min));
      params.set('maxPrice', String(min + 50 * (1 + random.int(steps))));
    }
    if (random.next() < 0.2) {
      const first = random.pick(category.currencies);
      const second = random.pick(category.currencies);
      params.set('currency', first === second ? first : `${first},${second}`);
    }
    if (random.next() < 0.2) params.set('country', random.pick(category.countries));
    // Half look at the first page; the rest go deeper with a long (Pareto) tail to the last page.
    const pages = Math.max(1, Math.ceil(category.products / PAGE_SIZE));
    const page = random.next() < 0.5 ? 1 : Math.min(pages, Math.floor(1 / (1 - random.next()) ** (1 / 1.1)) + 1);
    params.set('page', String(page));
    return `/categories/${category.slug}?${params}`;
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A dropped, swapped or wrong letter somewhere after the first. */
function typo(text: string, random: ReturnType<typeof seeded>): string {
  if (text.length < 3) return text;
  const at = 1 + random.int(text.length - 1);
  switch (random.int(3)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1);
    case 1:
      return at + 1 < text.length ? text.slice(0, at) + text[at + 1] + text[at] + text.slice(at + 2) : text;
    default:
      return text.slice(0, at) + random.pick([...LETTERS]) + text.slice(at + 1);
  }
}

/** Hint paths (after the API prefix): /search/hints/{text} for the store, /hints/{text} for the baseline. */
export function hintMix(source: MixSource, seed: number): () => string {
  const random = seeded(seed);
  return () => {
    let text: string;
    if (random.next() < 0.15 && source.otherScripts.length > 0) {
      const term = random.pick(source.otherScripts);
      text = term.slice(0, 2 + random.int(Math.max(1, term.length - 1)));
    } else {
      const name = random.pick(source.names);
      text = name.slice(0, 2 + random.int(14));
      if (random.next() < 0.25) text = typo(text, random);
    }
    text = text.trim();
    return encodeURIComponent(text.length > 0 ? text : 'st');
  };
}
