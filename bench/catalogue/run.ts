import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createDatabase } from '@store/db';
import { generateCatalogue } from '@store/db/seed';
import autocannon from 'autocannon';
import pg from 'pg';

/**
 * bench/catalogue: the store's category listing and search hints against a bare Fastify + pg
 * baseline running the same SQL, on a 100,000-product catalogue in PostgreSQL, in one run.
 *
 *   DATABASE_URL=postgresql://... pnpm bench
 *
 * Env: BENCH_PRODUCTS (100000), BENCH_CONNECTIONS (50), BENCH_SECONDS (15).
 */
const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  console.error('bench/catalogue needs DATABASE_URL (a PostgreSQL server); it creates its own database there.');
  process.exit(2);
}
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 25;

const benchUrl = new URL(adminUrl);
benchUrl.pathname = '/store_bench';

async function prepareDatabase() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', ['store_bench']);
  if (!rowCount) await admin.query('CREATE DATABASE store_bench');
  await admin.end();
  const database = await createDatabase({ databaseUrl: benchUrl.toString() });
  await generateCatalogue(database.prisma, { products: PRODUCTS });
  const count = await database.prisma.product.count();
  await database.prisma.$executeRawUnsafe('ANALYZE');
  await database.close();
  return count;
}

function start(script: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), {
    env: { ...process.env, ...env, BENCH_DATABASE_URL: benchUrl.toString(), BENCH_PORT: String(port) },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

interface Result {
  name: string;
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(name: string, port: number, paths: string[]): Promise<Result> {
  const requests = paths.map((path) => ({ method: 'GET' as const, path }));
  // A short warm-up so JIT and connection pools are hot for both sides alike.
  await autocannon({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, duration: 3, requests });
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests,
  });
  return {
    name,
    rps: Math.round(result.requests.average),
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

const LISTINGS = [
  '/categories/steam?sort=popular&page=1',
  '/categories/playstation?sort=popular&minPrice=50&maxPrice=900&page=2',
  '/categories/xbox?sort=popular&currency=USD,EUR&page=1',
  '/categories/valorant?sort=popular&minPrice=20&maxPrice=2000&page=3',
];
const HINTS = ['/hints/stea', '/hints/netflix', '/hints/stem', '/hints/play'];

async function main() {
  const products = await prepareDatabase();
  console.log(`catalogue: ${products} products; ${CONNECTIONS} connections, ${SECONDS} s a run`);

  const results: Result[] = [];
  const store = await start('store-server.ts', 3901);
  results.push(
    await load(
      'store  GET /api/categories/{slug}',
      3901,
      LISTINGS.map((path) => `/api${path}`),
    ),
  );
  results.push(
    await load(
      'store  GET /api/search/hints/{query}',
      3901,
      HINTS.map((path) => `/api/search${path}`),
    ),
  );
  await stop(store);
  // The same store with its listing page cache off: what the framework and the ORM cost per query.
  const uncached = await start('store-server.ts', 3903, { CATALOGUE_CACHE_MS: '0' });
  results.push(
    await load(
      'store, page cache off, GET /api/categories/{slug}',
      3903,
      LISTINGS.map((path) => `/api${path}`),
    ),
  );
  await stop(uncached);
  const baseline = await start('baseline-server.ts', 3902);
  results.push(await load('baseline category listing SQL', 3902, LISTINGS));
  results.push(await load('baseline hints SQL', 3902, HINTS));
  results.push(await load('floor: fixed listing-sized body, no database', 3902, ['/floor']));
  await stop(baseline);

  const [storeListing, storeHints, uncachedListing, baseListing, baseHints, floor] = results as [
    Result,
    Result,
    Result,
    Result,
    Result,
    Result,
  ];
  console.log('\n| run | req/s | p99 ms | errors | non-2xx |\n|---|---:|---:|---:|---:|');
  for (const r of results) console.log(`| ${r.name} | ${r.rps} | ${r.p99} | ${r.errors} | ${r.non2xx} |`);
  const listingRatio = storeListing.rps / baseListing.rps;
  const hintsRatio = storeHints.rps / baseHints.rps;
  console.log(`\nlisting: ${(listingRatio * 100).toFixed(1)}% of baseline throughput, p99 ${storeListing.p99} ms`);
  console.log(`hints:   ${(hintsRatio * 100).toFixed(1)}% of baseline throughput, p99 ${storeHints.p99} ms`);
  console.log(
    `listing without the page cache: ${((uncachedListing.rps / baseListing.rps) * 100).toFixed(1)}% of baseline, p99 ${uncachedListing.p99} ms`,
  );

  console.log(`floor of this machine: ${floor.rps} req/s, p99 ${floor.p99} ms`);
  const pass =
    listingRatio >= TARGET_RATIO &&
    storeListing.p99 <= TARGET_P99_MS &&
    results.every((r) => r.errors === 0 && r.non2xx === 0);
  console.log(
    pass
      ? `PASS: listing at >= ${TARGET_RATIO * 100}% of baseline with p99 <= ${TARGET_P99_MS} ms`
      : `FAIL: targets are >= ${TARGET_RATIO * 100}% of baseline and p99 <= ${TARGET_P99_MS} ms, no errors`,
  );
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    `${dir}catalogue-${new Date().toISOString().replaceAll(':', '-')}.json`,
    JSON.stringify(
      { products, connections: CONNECTIONS, seconds: SECONDS, results, listingRatio, hintsRatio, pass },
      null,
      2,
    ),
  );
  process.exit(pass ? 0 : 1);
}

await main();
