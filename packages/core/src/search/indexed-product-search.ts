import { type Database, type PrismaClient, type Queryable, qb, type SqlClient } from '@store/db';
import type { Logger } from '../shared/logger.ts';
import { silentLogger } from '../shared/logger.ts';
import { CatalogueIndex, type IndexedProduct, type ReferenceData } from './catalogue-index.ts';
import type { ProductSearch } from './product-search.ts';

/** The channel the catalogue's triggers notify (migration 20261126000000). */
export const CATALOGUE_CHANNEL = 'catalogue_changed';
const LOAD_BATCH = 20_000;
/** Changed products read back per query. */
const CHANGE_BATCH = 1_000;
/** Dropped slots may reach this share of the live ones before the index is built again. */
const MAX_DROPPED_SHARE = 0.25;
const RETRY_MS = 2_000;

export interface IndexedProductSearchDeps {
  db: PrismaClient;
  sql: SqlClient;
  /** The change feed (Database.listen). Without one the index is built once and never changes. */
  listen?: Database['listen'];
  logger?: Logger;
  /** Changes notified within this many milliseconds are applied together. */
  batchMs?: number;
}

export interface IndexStats {
  products: number;
  /** How long the last full build took, from the first query to a usable index. */
  buildMs: number;
  /** Bytes in the index's arrays (strings and maps not counted: see the process's memory for those). */
  arrayBytes: number;
}

export type IndexedProductSearch = ProductSearch & { stats(): IndexStats };

/** What the index keeps of a product. */
const productRows = qb
  .selectFrom('products')
  .select([
    'id',
    'category_id',
    'country_id',
    'nominal_currency_id',
    'name',
    'cover_path',
    'cover_text',
    'nominal_minor',
    'price_minor',
    'old_price_minor',
    'popularity',
    'purchased_count',
    'stock_count',
    'created_at',
    'is_active',
  ]);

type ProductRow = Awaited<ReturnType<typeof productRows.execute>>[number];

/** Per product with reviews: how many, and their ratings added up. */
type Ratings = Map<number, { count: number; sum: number }>;

/** Every review counts: reviews have no moderation step, and the product page lists each one once posted. */
const ratingRows = qb
  .selectFrom('reviews')
  .select((eb) => [
    'product_id',
    eb.cast<number>(eb.fn.countAll(), 'integer').as('count'),
    eb.cast<number>(eb.fn.sum('rating'), 'integer').as('sum'),
  ])
  .groupBy('product_id');

const toRatings = (rows: Awaited<ReturnType<typeof ratingRows.execute>>): Ratings =>
  new Map(rows.map((row) => [row.product_id, row]));

const ratingsBetween = async (sql: Queryable, from: number, to: number): Promise<Ratings> =>
  toRatings(await sql.query(ratingRows.where((eb) => eb.between('product_id', from, to))));

/** One array parameter, however many ids: the statement's text stays the same. */
const ratingsOf = async (sql: Queryable, ids: number[]): Promise<Ratings> =>
  toRatings(await sql.query(ratingRows.where((eb) => eb('product_id', '=', eb.fn.any(eb.val(ids))))));

const toProduct = (row: ProductRow, ratings: Ratings): IndexedProduct => ({
  id: row.id,
  categoryId: row.category_id,
  countryId: row.country_id,
  currencyId: row.nominal_currency_id,
  name: row.name,
  coverPath: row.cover_path,
  coverText: row.cover_text,
  nominalMinor: row.nominal_minor,
  priceMinor: row.price_minor,
  oldPriceMinor: row.old_price_minor,
  popularity: row.popularity,
  purchasedCount: row.purchased_count,
  stockCount: row.stock_count,
  createdAt: row.created_at,
  reviewCount: ratings.get(row.id)?.count ?? 0,
  ratingSum: ratings.get(row.id)?.sum ?? 0,
});

async function loadReference(db: PrismaClient): Promise<ReferenceData> {
  const [categories, countries, currencies, aliases] = await Promise.all([
    db.category.findMany({ orderBy: [{ position: 'asc' }, { id: 'asc' }] }),
    db.country.findMany({ orderBy: [{ name: { sort: 'asc', nulls: 'first' } }, { code: 'asc' }] }),
    db.currency.findMany({ orderBy: { id: 'asc' } }),
    db.searchAlias.findMany({ orderBy: { id: 'asc' } }),
  ]);
  return {
    categories: categories.map(({ id, slug, name, formattedName }) => ({ id, slug, name, formattedName })),
    countries: countries.map(({ id, code, name, icon }) => ({ id, code, name, icon })),
    currencies: currencies.map(({ id, codeName, minorUnits }) => ({ id, codeName, minorUnits })),
    aliases: aliases.map(({ term, categoryId, countryId, currencyId }) => ({
      term,
      categoryId,
      countryId,
      currencyId,
    })),
  };
}

/** Every product on sale, in batches by id so that a million rows never sit in one result. */
async function loadProducts(sql: SqlClient): Promise<IndexedProduct[]> {
  const products: IndexedProduct[] = [];
  let after = 0;
  for (;;) {
    const rows = await sql.query(
      productRows
        .where((eb) => eb.ref('is_active'))
        .where('id', '>', after)
        .orderBy('id')
        .limit(LOAD_BATCH),
    );
    const ratings =
      rows.length === 0 ? new Map() : await ratingsBetween(sql, after + 1, (rows.at(-1) as ProductRow).id);
    for (const row of rows) products.push(toProduct(row, ratings));
    if (rows.length < LOAD_BATCH) return products;
    after = (rows.at(-1) as ProductRow).id;
  }
}

async function build(db: PrismaClient, sql: SqlClient): Promise<{ index: CatalogueIndex; buildMs: number }> {
  const started = performance.now();
  const [reference, products] = await Promise.all([loadReference(db), loadProducts(sql)]);
  const index = CatalogueIndex.build(reference, products);
  return { index, buildMs: Math.round(performance.now() - started) };
}

/**
 * The search port's adapter in the API process: the catalogue index built from the database at
 * start, then kept fresh from the change feed. Every API instance runs its own; each hears every
 * change through PostgreSQL's LISTEN/NOTIFY (PGlite's, when embedded). Changed products are read
 * again by id and applied in batches; "*" (reference data, aliases, bulk changes) and a lost
 * connection build the whole index again, serving the old one until the new one is ready.
 */
export async function createIndexedProductSearch({
  db,
  sql,
  listen,
  logger = silentLogger,
  batchMs = 50,
}: IndexedProductSearchDeps): Promise<IndexedProductSearch> {
  const pendingIds = new Set<number>();
  let reloadAll = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let closed = false;
  const listeners = new Set<() => void>();

  const schedule = (delay = batchMs) => {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = running.then(flush);
    }, delay);
  };

  // Subscribed before the first build: what changes while it reads is applied right after it.
  const unlisten = await listen?.(CATALOGUE_CHANNEL, {
    onNotification(payload) {
      if (payload === '*') reloadAll = true;
      else for (const id of payload.split(',')) if (/^\d+$/.test(id)) pendingIds.add(Number(id));
      schedule();
    },
    onReconnect() {
      logger.warn({}, 'catalogue change feed reconnected; rebuilding the search index');
      reloadAll = true;
      schedule(0);
    },
  });

  // Changes notified while the first build reads wait for it: they are chained after it.
  let current!: Awaited<ReturnType<typeof build>>;
  const first = build(db, sql).then((built) => {
    current = built;
  });
  running = first;
  try {
    await first;
  } catch (error) {
    await unlisten?.();
    throw error;
  }
  logger.info({ products: current.index.size, buildMs: current.buildMs }, 'search index built');

  const changed = () => {
    for (const listener of listeners) listener();
  };

  async function rebuild() {
    reloadAll = false;
    pendingIds.clear();
    current = await build(db, sql);
    changed();
  }

  async function flush() {
    if (closed) return;
    try {
      if (reloadAll) {
        await rebuild();
        return;
      }
      if (pendingIds.size === 0) return;
      const ids = [...pendingIds];
      pendingIds.clear();
      const active: IndexedProduct[] = [];
      for (let start = 0; start < ids.length; start += CHANGE_BATCH) {
        const chunk = ids.slice(start, start + CHANGE_BATCH);
        const [rows, ratings] = await Promise.all([
          sql.query(productRows.where((eb) => eb('id', '=', eb.fn.any(eb.val(chunk))))),
          ratingsOf(sql, chunk),
        ]);
        for (const row of rows) if (row.is_active) active.push(toProduct(row, ratings));
      }
      const activeIds = new Set(active.map(({ id }) => id));
      const removed = ids.filter((id) => !activeIds.has(id));
      const { index } = current;
      const applied = index.apply(active, removed);
      if (!applied || index.slotsUsed - index.size > index.size * MAX_DROPPED_SHARE) {
        await rebuild();
        return;
      }
      changed();
    } catch (error) {
      if (closed) return;
      logger.error({ err: error }, 'search index refresh failed; rebuilding it shortly');
      reloadAll = true;
      schedule(RETRY_MS);
    }
  }

  return {
    async hints(text, limit) {
      return current.index.hints(text, limit);
    },
    async products(query) {
      return current.index.products(query);
    },
    async categoryFacts() {
      return current.index.categoryFacts();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stats() {
      return { products: current.index.size, buildMs: current.buildMs, arrayBytes: current.index.approximateBytes() };
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      await unlisten?.();
      await running;
    },
  };
}
