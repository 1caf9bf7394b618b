import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createIndexedProductSearch, type ProductQuery } from '@store/core';
import { createDatabase } from '@store/db';
import { generateCatalogue } from '@store/db/seed';
import pg from 'pg';
import { hintMix, listingMix, loadMixSource } from './mix.ts';

/**
 * What the in-process search index costs: the time to build it from PostgreSQL (what it adds to an
 * API instance's start) and the memory it holds, at each catalogue size, each measured in a fresh
 * process; and how long one hint or listing takes in it, without HTTP, over the realistic mix.
 *
 *   DATABASE_URL=postgresql://... pnpm --filter @store/bench index-cost
 *
 * Env: BENCH_INDEX_SIZES (100000,1000000); each size gets its own database, store_bench_<size>,
 * made once and reused.
 */
const adminUrl = process.env.DATABASE_URL;
const SIZES = (process.env.BENCH_INDEX_SIZES ?? '100000,1000000').split(',').map(Number);

const databaseUrl = (size: number) => {
  const url = new URL(adminUrl as string);
  url.pathname = `/store_bench_${size}`;
  return url.toString();
};

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

interface Measurement {
  products: number;
  buildMs: number;
  heapMb: number;
  externalMb: number;
  rssMb: number;
  hintP50: number;
  hintP99: number;
  listingP50: number;
  listingP99: number;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0).toFixed(3));
}

/** In the child: builds the index once, between two full garbage collections. */
async function measure(url: string): Promise<Measurement> {
  const gc = globalThis.gc as () => void;
  const database = await createDatabase({ databaseUrl: url, migrate: false });
  await database.prisma.category.count();
  gc();
  const before = process.memoryUsage();
  const started = performance.now();
  const search = await createIndexedProductSearch({ db: database.prisma, sql: database.sql });
  const buildMs = Math.round(performance.now() - started);
  gc();
  const after = process.memoryUsage();

  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const source = await loadMixSource(pool);
  await pool.end();
  const hints = hintMix(source, 1);
  const listings = listingMix(source, 2);
  const hintTimes: number[] = [];
  const listingTimes: number[] = [];
  for (let i = 0; i < 3_000; i++) {
    const text = decodeURIComponent(hints());
    const t0 = performance.now();
    await search.hints(text, 8);
    hintTimes.push(performance.now() - t0);
    const query = toQuery(listings());
    const t1 = performance.now();
    await search.products(query);
    listingTimes.push(performance.now() - t1);
  }
  const result = {
    products: search.stats().products,
    buildMs,
    heapMb: mb(after.heapUsed - before.heapUsed),
    externalMb: mb(after.external + after.arrayBuffers - before.external - before.arrayBuffers),
    rssMb: mb(after.rss - before.rss),
    hintP50: percentile(hintTimes, 0.5),
    hintP99: percentile(hintTimes, 0.99),
    listingP50: percentile(listingTimes, 0.5),
    listingP99: percentile(listingTimes, 0.99),
  };
  await search.close();
  await database.close();
  return result;
}

/** A listing path of the mix as the catalogue service turns it into a query. */
function toQuery(path: string): ProductQuery {
  const url = new URL(path, 'http://bench');
  const get = (name: string) => url.searchParams.get(name) ?? undefined;
  const page = Number(get('page') ?? 1);
  const price = (name: string) => (get(name) === undefined ? undefined : Number(get(name)) * 100);
  return {
    category: url.pathname.split('/')[2],
    sort: get('sort') as ProductQuery['sort'],
    minPriceMinor: price('minPrice'),
    maxPriceMinor: price('maxPrice'),
    currencies: get('currency')?.split(','),
    countries: get('country')?.split(','),
    offset: (page - 1) * 24,
    limit: 24,
  };
}

async function prepare(size: number) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const name = `store_bench_${size}`;
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!rowCount) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const database = await createDatabase({ databaseUrl: databaseUrl(size) });
  const started = performance.now();
  const count = await generateCatalogue(database.prisma, { products: size });
  await database.prisma.$executeRawUnsafe('ANALYZE');
  await database.close();
  console.log(`${name}: ${count} products (${Math.round((performance.now() - started) / 1000)} s to prepare)`);
}

function inChild(url: string): Promise<Measurement> {
  const child = fork(fileURLToPath(import.meta.url), {
    env: { ...process.env, INDEX_COST_URL: url },
    execArgv: ['--import', 'tsx', '--expose-gc', '--max-old-space-size=8192'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as Measurement));
    child.once('exit', (code) => reject(new Error(`measurement exited with ${code}`)));
  });
}

if (process.env.INDEX_COST_URL) {
  process.send?.(await measure(process.env.INDEX_COST_URL));
  process.exit(0);
} else {
  if (!adminUrl) {
    console.error('index-cost needs DATABASE_URL (a PostgreSQL server); it creates its own databases there.');
    process.exit(2);
  }
  const rows: Measurement[] = [];
  for (const size of SIZES) {
    await prepare(size);
    rows.push(await inChild(databaseUrl(size)));
  }
  console.log(
    '\n| products | build ms | heap MB | typed arrays MB | resident MB | hint p50 / p99 ms | listing p50 / p99 ms |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.products} | ${r.buildMs} | ${r.heapMb} | ${r.externalMb} | ${r.rssMb} | ${r.hintP50} / ${r.hintP99} | ${r.listingP50} / ${r.listingP99} |`,
    );
  }
}
