import { randomInt } from 'node:crypto';
import type { CodeCipher } from '../code-cipher.ts';
import type { Prisma, PrismaClient } from '../generated/client.ts';
import {
  type AliasDef,
  CATEGORIES,
  CATEGORY_ALIASES,
  type CategoryDef,
  COUNTRIES,
  COUNTRY_ALIASES,
  CURRENCIES,
  CURRENCY_ALIASES,
  DEMO_DISPLAY_RATES,
  type Offer,
  PROMO_CODES,
} from './demo-data.ts';
import { CATEGORY_TRANSLATIONS, DEMO_REVIEWERS, DEMO_REVIEWS } from './demo-translations.ts';

const DAY_MS = 86_400_000;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const MARGIN = 1.06;
const CODE_BATCH = 500;
/** Serialises seeding: API instances starting together on one database must not both seed it. */
const SEED_LOCK_KEY = 72_707_370;

/** A small seeded generator, so the demo catalogue is the same on every machine. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Price in BRL centavos from a face value: converted, a margin on top, ending in ,90. */
export function priceFor(amount: number, currency: string): number {
  const rate = CURRENCIES.find((c) => c.code === currency)?.brl;
  if (rate === undefined) throw new Error(`unknown currency ${currency}`);
  return Math.max(1, Math.ceil(amount * rate * MARGIN)) * 100 - 10;
}

/**
 * "1 000": thousands are separated by a space in every language, as the web app writes numbers
 * (docs/currency.md, "Numbers in every language"); a no-break space, so a name never wraps inside a
 * number and search reads it as one.
 */
export function spacedThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
}

function fill(template: string, category: CategoryDef, offer: Offer, amount: number): string {
  const units = category.unitsPerCurrency?.[offer.currency];
  return template
    .replace('{amount}', spacedThousands(amount))
    .replace('{currency}', offer.currency)
    .replace('{label}', offer.label ?? '')
    .replace('{units}', spacedThousands(units ? amount * units : amount));
}

/** A random code in the platform's format. Codes use crypto randomness: they must not be guessable. */
export function makeCode(category: CategoryDef): string {
  const alphabet = category.codeAlphabet ?? CODE_ALPHABET;
  const group = (length: number) => Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
  const code = category.codeFormat.map(group).join('-');
  return category.slug === 'app-store' ? `X${code.slice(1)}` : code;
}

async function seedReferenceData(prisma: Prisma.TransactionClient) {
  await prisma.currency.createMany({
    data: CURRENCIES.map(({ code, minorUnits }) => ({ codeName: code, minorUnits })),
    skipDuplicates: true,
  });
  await prisma.country.createMany({
    data: COUNTRIES.map(({ code, name }) => ({ code, name, icon: `/static/countries/${code}.svg` })),
    skipDuplicates: true,
  });
  await prisma.category.createMany({
    data: CATEGORIES.map((category, position) => ({
      slug: category.slug,
      name: category.name,
      formattedName: category.formattedName,
      svgPath: `/static/icons/${category.slug}.svg`,
      position,
    })),
    skipDuplicates: true,
  });
  const [currencies, countries, categories] = await Promise.all([
    prisma.currency.findMany(),
    prisma.country.findMany(),
    prisma.category.findMany(),
  ]);
  await seedSearchAliases(prisma, { categories, countries, currencies });
  return {
    currencyId: new Map(currencies.map((c) => [c.codeName, c.id])),
    countryId: new Map(countries.map((c) => [c.code, c.id])),
    categoryId: new Map(categories.map((c) => [c.slug, c.id])),
  };
}

/**
 * The demo's search aliases (demo-data.ts) for whichever of their categories, countries and
 * currencies the database has; those already there are left as they are.
 */
async function seedSearchAliases(
  prisma: Prisma.TransactionClient,
  known: {
    categories: Array<{ id: number; slug: string }>;
    countries: Array<{ id: number; code: string }>;
    currencies: Array<{ id: number; codeName: string }>;
  },
) {
  const aliases = (
    byKey: Record<string, AliasDef[]>,
    ids: Map<string, number>,
    target: 'categoryId' | 'countryId' | 'currencyId',
  ) =>
    Object.entries(byKey).flatMap(([key, defs]) => {
      const id = ids.get(key);
      return id === undefined ? [] : defs.map(({ term, locale }) => ({ term, locale: locale ?? null, [target]: id }));
    });
  await prisma.searchAlias.createMany({
    data: [
      ...aliases(CATEGORY_ALIASES, new Map(known.categories.map((c) => [c.slug, c.id])), 'categoryId'),
      ...aliases(COUNTRY_ALIASES, new Map(known.countries.map((c) => [c.code, c.id])), 'countryId'),
      ...aliases(CURRENCY_ALIASES, new Map(known.currencies.map((c) => [c.codeName, c.id])), 'currencyId'),
    ],
    skipDuplicates: true,
  });
}

/**
 * Every demo product's description and activation instructions in the four languages, from its
 * platform's texts (English is the platform's own). Products of categories the demo does not know, and
 * products that already have texts, are left as they are.
 */
async function seedProductTranslations(prisma: Prisma.TransactionClient) {
  const products = await prisma.product.findMany({
    where: { translations: { none: {} } },
    select: { id: true, category: { select: { slug: true } } },
  });
  const data = products.flatMap(({ id, category }) => {
    const own = CATEGORIES.find((c) => c.slug === category.slug);
    const translated = CATEGORY_TRANSLATIONS[category.slug];
    if (!own || !translated) return [];
    return [
      { productId: id, locale: 'en', description: own.description, activationInstructions: own.instructions },
      ...Object.entries(translated).map(([locale, texts]) => ({
        productId: id,
        locale,
        description: texts.description,
        activationInstructions: texts.instructions,
      })),
    ];
  });
  await prisma.productTranslation.createMany({ data, skipDuplicates: true });
}

/**
 * Reviews on about two thirds of the demo products, from demo customers who cannot sign in (their
 * password hash is not a hash), so product pages and ratings show what a real store's would.
 */
async function seedReviews(prisma: Prisma.TransactionClient, now: Date) {
  const random = prng(20_261_127);
  await prisma.user.createMany({
    data: DEMO_REVIEWERS.map((name) => ({
      name,
      email: `${name.toLowerCase()}@reviews.example.com`,
      passwordHash: '!',
      locale: 'en',
      activatedAt: now,
      emailVerifiedAt: now,
    })),
    skipDuplicates: true,
  });
  const reviewers = await prisma.user.findMany({
    where: { name: { in: DEMO_REVIEWERS }, passwordHash: '!' },
    select: { id: true },
    orderBy: { name: 'asc' },
  });
  const products = await prisma.product.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
  const data = products.flatMap(({ id }) => {
    if (random() < 0.33) return [];
    const count = 1 + Math.floor(random() * Math.min(4, reviewers.length));
    const start = Math.floor(random() * reviewers.length);
    return Array.from({ length: count }, (_, index) => {
      const review = DEMO_REVIEWS[Math.floor(random() * DEMO_REVIEWS.length)] ?? { rating: 5, text: 'Great.' };
      return {
        productId: id,
        userId: reviewers[(start + index) % reviewers.length]?.id ?? '',
        rating: review.rating,
        text: review.text,
        createdAt: new Date(now.getTime() - (1 + random() * 120) * DAY_MS),
      };
    });
  });
  await prisma.review.createMany({ data: data.filter((row) => row.userId !== ''), skipDuplicates: true });
}

function lookup(map: Map<string, number>, key: string): number {
  const id = map.get(key);
  if (id === undefined) throw new Error(`seed data refers to unknown ${key}`);
  return id;
}

export interface SeedOptions {
  cipher: CodeCipher;
  /** The clock the "new" and "discounted" marks are relative to. */
  now?: Date;
}

/** Who the demo's own display rates are set by; an operator's rate never carries it. */
export const DEMO_RATES_SET_BY = 'demo';

/**
 * The demo's display rates: added to a store that has none (a new one, or one seeded before rates
 * existed), and dated anew at every start while they are still the demo's own, so the demo never
 * falls back to BRL for a rate gone stale. A rate an operator set (`rates set`) is left as it is,
 * and one an operator removed stays removed while any other rate is there.
 */
async function seedDisplayRates(tx: Prisma.TransactionClient, now: Date) {
  if ((await tx.displayRate.count()) === 0) {
    await tx.displayRate.createMany({
      data: DEMO_DISPLAY_RATES.map((rate) => ({ ...rate, setAt: now, setBy: DEMO_RATES_SET_BY })),
    });
    return;
  }
  await tx.displayRate.updateMany({
    where: { setBy: DEMO_RATES_SET_BY, setAt: { lt: now } },
    data: { setAt: now },
  });
}

/**
 * Seeds the demo store into an empty database: reference data, about a hundred products over the
 * nine platforms (some discounted, some new, some sold out, each with its brand's cover art), encrypted demo
 * codes, promo codes and search aliases. All or nothing, in one transaction; answers false when
 * categories are already there, and then only adds the search aliases to a store that has none.
 */
export async function seedDemo(prisma: PrismaClient, options: SeedOptions): Promise<boolean> {
  return prisma.$transaction((tx) => seedDemoIn(tx, options), { maxWait: 30_000, timeout: 120_000 });
}

async function seedDemoIn(tx: Prisma.TransactionClient, { cipher, now = new Date() }: SeedOptions) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY}::bigint)`;
  if ((await tx.category.count()) > 0) {
    // A demo store seeded before search aliases existed gets them once; after that they are the
    // operator's to change.
    if ((await tx.searchAlias.count()) === 0) {
      const [categories, countries, currencies] = await Promise.all([
        tx.category.findMany(),
        tx.country.findMany(),
        tx.currency.findMany(),
      ]);
      await seedSearchAliases(tx, { categories, countries, currencies });
    }
    // Likewise the products' texts in the four languages, for a demo store seeded before they existed.
    if ((await tx.productTranslation.count()) === 0) await seedProductTranslations(tx);
    await seedDisplayRates(tx, now);
    return false;
  }
  const ids = await seedReferenceData(tx);
  const random = prng(20_261_122);

  const rows = CATEGORIES.flatMap((category) =>
    category.offers.flatMap((offer) =>
      offer.amounts.map((amount) => {
        const price = priceFor(amount, offer.currency);
        const discounted = random() < 0.18;
        const isNew = random() < 0.2;
        const soldOut = random() < 0.12;
        // Once a few products went without cover art; each shows its brand's now. The draw stays, so
        // the rest of the demo catalogue (prices, stock, dates) is what it was.
        random();
        const discountedPrice = Math.max(90, Math.round((price * (0.8 + random() * 0.12)) / 100) * 100 - 10);
        return {
          category,
          soldOut,
          data: {
            categoryId: lookup(ids.categoryId, category.slug),
            countryId: lookup(ids.countryId, offer.country),
            nominalCurrencyId: lookup(ids.currencyId, offer.currency),
            name: fill(category.productName, category, offer, amount),
            description: category.description,
            activationInstructions: category.instructions,
            coverPath: `/static/covers/${category.slug}.svg`,
            coverText: fill(category.coverText, category, offer, amount),
            nominalMinor: amount * 100,
            priceMinor: discounted && discountedPrice < price ? discountedPrice : price,
            oldPriceMinor: discounted && discountedPrice < price ? price : null,
            popularity: Math.floor(random() * 1000),
            purchasedCount: Math.floor(random() * 400),
            createdAt: new Date(now.getTime() - (isNew ? random() * 7 : 14 + random() * 180) * DAY_MS),
          },
        };
      }),
    ),
  );

  const rowByName = new Map(rows.map((row) => [row.data.name, row]));
  if (rowByName.size !== rows.length) throw new Error('demo product names must be unique');
  const products = await tx.product.createManyAndReturn({
    data: rows.map((row) => row.data),
    select: { id: true, name: true },
  });

  const codes = products.flatMap(({ id, name }) => {
    const row = rowByName.get(name);
    if (!row || row.soldOut) return [];
    return Array.from({ length: 3 + Math.floor(random() * 10) }, () => {
      const code = makeCode(row.category);
      return { productId: id, ciphertext: cipher.encrypt(code), codeDigest: cipher.digest(code) };
    });
  });
  for (let start = 0; start < codes.length; start += CODE_BATCH) {
    await tx.productCode.createMany({ data: codes.slice(start, start + CODE_BATCH), skipDuplicates: true });
  }

  await seedProductTranslations(tx);
  await seedReviews(tx, now);
  await seedDisplayRates(tx, now);

  await tx.promoCode.createMany({
    data: PROMO_CODES.map(({ categories: _, ...promo }) => promo),
    skipDuplicates: true,
  });
  const promoIds = new Map(
    (await tx.promoCode.findMany({ select: { id: true, code: true } })).map((p) => [p.code, p.id]),
  );
  await tx.promoCodeCategory.createMany({
    data: PROMO_CODES.flatMap(({ code, categories = [] }) =>
      categories.map((slug) => ({ promoCodeId: lookup(promoIds, code), categoryId: lookup(ids.categoryId, slug) })),
    ),
    skipDuplicates: true,
  });
  return true;
}

const NAME_WORDS = ['Gift Card', 'Digital Code', 'Wallet Top-Up', 'Prepaid Card', 'eGift', 'Voucher'];

/**
 * Tops the catalogue up to `products` products for benchmarks: names over every platform with
 * varied words and amounts so trigram search sees a realistic spread. One INSERT ... SELECT per
 * batch keeps 100,000 rows to seconds.
 */
export async function generateCatalogue(
  prisma: PrismaClient,
  { products = 100_000 }: { products?: number } = {},
): Promise<number> {
  const ids = await seedReferenceData(prisma);
  const existing = await prisma.product.count();
  const missing = products - existing;
  if (missing <= 0) return existing;

  const categories = CATEGORIES.map((c) => ({ id: lookup(ids.categoryId, c.slug), name: c.name, slug: c.slug }));
  const countries = COUNTRIES.map((c) => lookup(ids.countryId, c.code));
  const currencies = CURRENCIES.map((c) => ({ id: lookup(ids.currencyId, c.code), code: c.code }));
  const batch = 20_000;
  for (let done = 0; done < missing; done += batch) {
    const size = Math.min(batch, missing - done);
    await prisma.$executeRaw`
      INSERT INTO products (category_id, country_id, nominal_currency_id, name, description,
        activation_instructions, cover_path, cover_text, nominal_minor, price_minor, old_price_minor,
        popularity, purchased_count, stock_count, created_at)
      SELECT
        (${categories.map((c) => c.id)}::int[])[1 + (n % ${categories.length})],
        (${countries}::int[])[1 + ((n / 7) % ${countries.length})],
        (${currencies.map((c) => c.id)}::int[])[1 + ((n / 3) % ${currencies.length})],
        (${categories.map((c) => c.name)}::text[])[1 + (n % ${categories.length})] || ' ' ||
          (${NAME_WORDS}::text[])[1 + ((n / 11) % ${NAME_WORDS.length})] || ' ' ||
          (5 * (1 + (n % 40)))::text || ' ' ||
          (${currencies.map((c) => c.code)}::text[])[1 + ((n / 3) % ${currencies.length})] || ' #' || n::text,
        'Generated for benchmarks.', '', '/static/covers/' ||
          (${categories.map((c) => c.slug)}::text[])[1 + (n % ${categories.length})] || '.svg',
        (5 * (1 + (n % 40)))::text || ' ' ||
          (${currencies.map((c) => c.code)}::text[])[1 + ((n / 3) % ${currencies.length})],
        500 * (1 + (n % 40)),
        990 + (abs(hashint4(n)) % 200000),
        CASE WHEN n % 6 = 0 THEN 990 + (abs(hashint4(n)) % 200000) + 5000 END,
        abs(hashint4(n * 7)) % 1000,
        abs(hashint4(n * 13)) % 500,
        0,
        now() - make_interval(days => (abs(hashint4(n * 3)) % 365))
      FROM generate_series(${existing + done + 1}::int, ${existing + done + size}::int) AS n`;
  }
  return prisma.product.count();
}
