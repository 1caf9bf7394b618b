import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dropTestQueue, signCallback } from '@store/core/testing';
import { createDatabase } from '@store/db';
import { generateCatalogue } from '@store/db/seed';
import pg from 'pg';
import { Agent, type Dispatcher, interceptors, request } from 'undici';
import { eventBody } from './event.ts';

/**
 * bench/callback-flood: what a flood of forged payment callbacks from many addresses does to the
 * shoppers of one API instance. Shoppers, each from an address of their own, browse at a person's
 * pace (a catalogue page, a product page, a pause); the provider sends correctly signed callbacks a
 * few times a second. One phase runs them alone, the next adds forged callbacks from 64 other
 * addresses, each just under the per-address limit of the callback route (6,000 a minute), so only
 * a bound on the instance as a whole can stop them. Measured in the same run: the shoppers' p50 and
 * p95 with and without the flood, how the forged callbacks were answered, and whether the real ones
 * still were.
 *
 *   DATABASE_URL=postgresql://... REDIS_URL=redis://... pnpm --filter @store/bench callback-flood
 *
 * The store runs as the full stack's API process does (bench/checkout/store-server.ts): production
 * settings, PostgreSQL, rate limits and the queue on Redis, the presets unscaled. No worker runs:
 * the real callbacks are only acknowledged here, and their queue is dropped at the end.
 *
 * Env: BENCH_PRODUCTS (20000), BENCH_SECONDS (20 a phase), BENCH_SHOPPERS (32), BENCH_FLOOD_ADDRESSES
 * (64), BENCH_FLOOD_RATE (95 forged callbacks a second from each address), BENCH_FORGED_BYTES (the
 * forged body's size: 600, a little over a real event's; up to the route's 16 KB), BENCH_DATABASE (store_bench_flood);
 * BENCH_CPU_PROF=<dir> writes a CPU profile of the store's process there.
 */
const adminUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!adminUrl || !redisUrl) {
  console.error('bench/callback-flood needs DATABASE_URL and REDIS_URL; it creates its own database and queue prefix.');
  process.exit(2);
}
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const SHOPPERS = Number(process.env.BENCH_SHOPPERS ?? 32);
const FLOOD_ADDRESSES = Number(process.env.BENCH_FLOOD_ADDRESSES ?? 64);
const FLOOD_RATE = Number(process.env.BENCH_FLOOD_RATE ?? 95);
const FORGED_BYTES = Number(process.env.BENCH_FORGED_BYTES ?? 600);
/** Before each phase's measurement: the JIT, the pools and, in the flood's phase, the flood itself settle. */
const WARMUP_MS = 5_000;
/** A person reads a page before the next: 100 to 300 ms here, so 32 shoppers ask ~160 times a second. */
const PAUSE_MS = [100, 300] as const;
/** The provider's real callbacks, from one address of its own. */
const REAL_PER_SECOND = 5;
/** Forged callbacks one address keeps open at most (1,024 in all): an attacker does not wait for answers. */
const FLOOD_IN_FLIGHT = 16;
const STORE_PORT = 3921;
const PROFILE_DIR = process.env.BENCH_CPU_PROF;

const BENCH_DATABASE = process.env.BENCH_DATABASE ?? 'store_bench_flood';
if (!/^[a-z_][a-z0-9_]{0,62}$/.test(BENCH_DATABASE))
  throw new Error('BENCH_DATABASE: lower-case letters, digits and _');
const benchUrl = new URL(adminUrl);
benchUrl.pathname = `/${BENCH_DATABASE}`;
const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
const queuePrefix = `bench-flood-${randomBytes(4).toString('hex')}`;
const base = `http://127.0.0.1:${STORE_PORT}`;

/** Every loopback address is this machine's: each client binds its sockets to one of its own. */
const shopperAddress = (index: number) => `127.0.1.${1 + index}`;
const floodAddress = (index: number) => `127.0.2.${1 + index}`;
const PROVIDER_ADDRESS = '127.0.3.1';

async function prepareDatabase() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [BENCH_DATABASE]);
  if (!rowCount) await admin.query(`CREATE DATABASE ${BENCH_DATABASE}`);
  await admin.end();
  const database = await createDatabase({ databaseUrl: benchUrl.toString() });
  await generateCatalogue(database.prisma, { products: PRODUCTS });
  await database.prisma.$executeRawUnsafe('ANALYZE');
  const categories = await database.prisma.category.findMany({ select: { slug: true } });
  const products = await database.prisma.product.findMany({
    where: { isActive: true },
    select: { id: true },
    take: 5_000,
    orderBy: { id: 'asc' },
  });
  await database.close();
  return { slugs: categories.map(({ slug }) => slug), productIds: products.map(({ id }) => id) };
}

function startStore(): Promise<ChildProcess> {
  const child = fork(fileURLToPath(new URL('../checkout/store-server.ts', import.meta.url)), {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: benchUrl.toString(),
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: queuePrefix,
      // Production refuses guessable secrets; the benchmark's are thrown away with its run.
      JWT_SECRET: randomBytes(32).toString('hex'),
      CODE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SANDBOX_API_KEY: randomBytes(32).toString('hex'),
      PAYMENTS_WEBHOOK_SECRETS: webhookSecret,
      PUBLIC_URL: base,
      RATE_LIMIT_SCALE: '1',
      WEB_DIST: '/nonexistent',
      SEED_DEMO: 'false',
      BENCH_PORT: String(STORE_PORT),
    },
    execArgv: ['--import', 'tsx', ...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [])],
    // The log is a collector's to read, not this terminal's: a refused callback may write a line.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the store exited with ${code}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; 0 elsewhere). */
function cpuMsOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** undici's request on keep-alive sockets bound to `address`; it takes compressed answers as a browser does. */
const agentFrom = (address: string, connections: number): Dispatcher =>
  new Agent({ localAddress: address, connections, keepAliveTimeout: 60_000 }).compose(interceptors.decompress());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const between = ([from, to]: readonly [number, number]) => from + Math.random() * (to - from);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

interface Tally {
  latencies: number[];
  statuses: Map<number, number>;
  errors: number;
}
const tally = (): Tally => ({ latencies: [], statuses: new Map(), errors: 0 });

/** Sends one request and, while `into()` names a tally, records its latency and status there. */
async function timed(
  into: () => Tally | undefined,
  dispatcher: Dispatcher,
  path: string,
  options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
) {
  const started = performance.now();
  const target = into();
  try {
    const response = await request(`${base}${path}`, {
      method: options.method ?? 'GET',
      headers: { 'accept-encoding': 'br, gzip, deflate', ...options.headers },
      body: options.body,
      dispatcher,
    });
    await response.body.dump();
    if (!target) return;
    target.latencies.push(performance.now() - started);
    target.statuses.set(response.statusCode, (target.statuses.get(response.statusCode) ?? 0) + 1);
  } catch {
    if (target) target.errors += 1;
  }
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));
const count = (t: Tally, status: number) => t.statuses.get(status) ?? 0;
const all = (t: Tally) => [...t.statuses.values()].reduce((sum, value) => sum + value, 0);

interface Phase {
  name: string;
  shoppers: Tally;
  real: Tally;
  forged: Tally;
  seconds: number;
  /** CPU used in the phase, % of one core. */
  cpu: { store: number; flood: number; runner: number };
}

/** The forger's process (flood.ts), sending from its addresses until it is asked for its count. */
function startFlood(): Promise<ChildProcess> {
  const child = fork(fileURLToPath(new URL('flood.ts', import.meta.url)), {
    env: {
      ...process.env,
      FLOOD_BASE: base,
      FLOOD_ADDRESSES: Array.from({ length: FLOOD_ADDRESSES }, (_, index) => floodAddress(index)).join(','),
      FLOOD_RATE: String(FLOOD_RATE),
      FLOOD_BYTES: String(FORGED_BYTES),
      FLOOD_IN_FLIGHT: String(FLOOD_IN_FLIGHT),
    },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the flood exited with ${code}`)));
  });
}

function floodReport(flood: ChildProcess): Promise<Tally> {
  return new Promise((resolve) => {
    flood.once('message', (message: { statuses: Record<string, number>; errors: number }) =>
      resolve({
        latencies: [],
        statuses: new Map(Object.entries(message.statuses).map(([status, n]) => [Number(status), n])),
        errors: message.errors,
      }),
    );
    flood.send('report');
  });
}

async function main() {
  const loadBefore = loadavg();
  const catalogue = await prepareDatabase();
  const store = await startStore();
  console.log(
    `callback-flood: ${PRODUCTS} products; ${SHOPPERS} shoppers; ${FLOOD_ADDRESSES} flood addresses at ${FLOOD_RATE}/s each, ` +
      `forged bodies of ${FORGED_BYTES} bytes; ${SECONDS} s a phase; load average before: ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`,
  );

  let current: Phase | undefined;
  let running = true;
  const provider = agentFrom(PROVIDER_ADDRESS, 8);

  const shopperLoop = async (dispatcher: Dispatcher) => {
    // People arrive at different moments, not all in the same instant.
    await sleep(between(PAUSE_MS) * 3);
    while (running) {
      await timed(() => current?.shoppers, dispatcher, `/api/categories/${pick(catalogue.slugs)}?page=1`);
      await sleep(between(PAUSE_MS));
      await timed(() => current?.shoppers, dispatcher, `/api/products/${pick(catalogue.productIds)}`);
      await sleep(between(PAUSE_MS));
    }
  };
  const providerLoop = async () => {
    const sent: Promise<void>[] = [];
    while (running) {
      const body = eventBody();
      const headers = signCallback(webhookSecret, body, { id: `evt_${randomBytes(12).toString('hex')}` });
      sent.push(timed(() => current?.real, provider, '/api/payments/callback', { method: 'POST', headers, body }));
      await sleep(1_000 / REAL_PER_SECOND);
    }
    await Promise.all(sent);
  };

  const measure = async (name: string, flood?: ChildProcess): Promise<Phase> => {
    await sleep(WARMUP_MS);
    const phase: Phase = {
      name,
      shoppers: tally(),
      real: tally(),
      forged: tally(),
      seconds: 0,
      cpu: { store: 0, flood: 0, runner: 0 },
    };
    const before = { store: cpuMsOf(store.pid), flood: cpuMsOf(flood?.pid), runner: process.cpuUsage() };
    const started = performance.now();
    current = phase;
    flood?.send('measure');
    await sleep(SECONDS * 1_000);
    current = undefined;
    phase.seconds = (performance.now() - started) / 1_000;
    const runner = process.cpuUsage(before.runner);
    const percent = (cpuMs: number) => cpuMs / 10 / phase.seconds;
    phase.cpu = {
      store: percent(cpuMsOf(store.pid) - before.store),
      flood: flood ? percent(cpuMsOf(flood.pid) - before.flood) : 0,
      runner: percent((runner.user + runner.system) / 1_000),
    };
    if (flood) phase.forged = await floodReport(flood);
    return phase;
  };

  const loops = [
    ...Array.from({ length: SHOPPERS }, (_, index) => shopperLoop(agentFrom(shopperAddress(index), 2))),
    providerLoop(),
  ];
  const quiet = await measure('shoppers alone');
  const flood = await startFlood();
  const flooded = await measure(`shoppers and ${FLOOD_ADDRESSES} addresses of forged callbacks`, flood);
  running = false;
  await Promise.all(loops);
  await stop(flood);
  await stop(store);
  await dropTestQueue(redisUrl as string, queuePrefix);

  const phases = [quiet, flooded];
  console.log(
    '\n| phase | shopper requests | shopper p50 ms | shopper p95 ms | shopper non-2xx | forged callbacks/s | forged 401 | forged 429 | real callbacks acknowledged | real ack p50 / p95 ms | CPU % store / flood / runner |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const p of phases) {
    const shopperOk = [...p.shoppers.statuses].filter(([status]) => status < 300).reduce((s, [, n]) => s + n, 0);
    console.log(
      `| ${p.name} | ${all(p.shoppers)} | ${ms(percentile(p.shoppers.latencies, 0.5))} | ${ms(percentile(p.shoppers.latencies, 0.95))} | ${all(p.shoppers) - shopperOk + p.shoppers.errors} | ${(all(p.forged) / p.seconds).toFixed(0)} | ${count(p.forged, 401)} | ${count(p.forged, 429)} | ${count(p.real, 200)} of ${all(p.real) + p.real.errors} | ${ms(percentile(p.real.latencies, 0.5))} / ${ms(percentile(p.real.latencies, 0.95))} | ${p.cpu.store.toFixed(0)} / ${p.cpu.flood.toFixed(0)} / ${p.cpu.runner.toFixed(0)} |`,
    );
  }
  const slowdown = percentile(flooded.shoppers.latencies, 0.5) / percentile(quiet.shoppers.latencies, 0.5);
  // The store's CPU beyond the quiet phase's, per forged callback: a figure the machine's other load
  // moves far less than it moves latencies.
  const forgedCpuUs =
    ((flooded.cpu.store - quiet.cpu.store) * 10_000 * flooded.seconds) / Math.max(1, all(flooded.forged));
  console.log(`\nshopper p50 under the flood: ${slowdown.toFixed(2)}x the quiet phase's`);
  console.log(`the store's CPU per forged callback: ${forgedCpuUs.toFixed(0)} µs`);
  const other = [...flooded.forged.statuses].filter(([status]) => status !== 401 && status !== 429);
  if (other.length > 0 || flooded.forged.errors > 0) {
    console.log(`forged callbacks answered otherwise: ${JSON.stringify(other)}, errors ${flooded.forged.errors}`);
  }
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const summary = (t: Tally) => ({
    statuses: Object.fromEntries(t.statuses),
    errors: t.errors,
    p50: percentile(t.latencies, 0.5),
    p95: percentile(t.latencies, 0.95),
  });
  writeFileSync(
    `${dir}callback-flood-${new Date().toISOString().replaceAll(':', '-')}.json`,
    JSON.stringify(
      {
        products: PRODUCTS,
        seconds: SECONDS,
        shoppers: SHOPPERS,
        floodAddresses: FLOOD_ADDRESSES,
        floodRate: FLOOD_RATE,
        forgedBytes: FORGED_BYTES,
        loadBefore,
        forgedCpuUs,
        phases: phases.map((p) => ({
          name: p.name,
          seconds: p.seconds,
          cpu: p.cpu,
          shoppers: summary(p.shoppers),
          real: summary(p.real),
          forged: summary(p.forged),
        })),
      },
      null,
      2,
    ),
  );
  process.exit(0);
}

await main();
