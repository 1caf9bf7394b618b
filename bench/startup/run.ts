import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * bench/startup: the embedded store (no DATABASE_URL, no REDIS_URL) as `pnpm start` runs it, the
 * compiled build (`node ... dist/server.js`, apps/api's start script), against the TypeScript run it
 * replaced (`tsx src/server.ts`, on the same sources), in one run. For each: one start to warm the
 * caches (the files in the page cache, tsx's transform cache), then a start on a new data folder
 * (the database made, migrated and seeded) timed from spawn to the first 200 of /health, the same
 * browsing of the demo catalogue (the home page, all nine categories, sixty product pages, each with
 * the API calls and files its page asks for), and the resident memory of the node process that
 * serves (VmRSS and its peak VmHWM, from /proc: not of a wrapper such as tsx's own CLI process); then
 * the same again after a restart on that folder, as every start after the first.
 *
 *   pnpm --filter @store/bench startup
 *
 * It builds the API first; the web app is built when apps/web/dist is missing. Env: BENCH_PRODUCTS
 * (60 product pages), BENCH_ONLY (`tsx` or `compiled`: that run alone). It exits non-zero when the
 * build misses a target, either start: at most 250 MB resident after the browsing, a start in under
 * 5 s.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const apiDir = path.join(repoRoot, 'apps/api');
const PRODUCT_PAGES = Number(process.env.BENCH_PRODUCTS ?? 60);
const TARGET_RSS_MB = 250;
const TARGET_START_MS = 5_000;
const START_TIMEOUT_MS = 120_000;

interface Variant {
  name: string;
  command: string[];
}

/** apps/api's start script, run without pnpm around it: `node <flags> dist/server.js`. */
function compiledCommand(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(apiDir, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [program, ...args] = (manifest.scripts.start ?? '').split(/\s+/).filter(Boolean);
  if (program !== 'node') throw new Error(`apps/api's start script does not run node: ${manifest.scripts.start}`);
  return [process.execPath, ...args];
}

/** What `pnpm start` ran before the build: tsx's CLI, which runs the server in a node process of its own. */
function tsxCommand(): string[] {
  const tsxCli = createRequire(path.join(apiDir, 'package.json')).resolve('tsx/cli');
  return [process.execPath, tsxCli, 'src/server.ts'];
}

interface Started {
  child: ChildProcess;
  startMs: number;
  output: string[];
}

async function get(port: number, urlPath: string, headers: Record<string, string> = {}) {
  const response = await fetch(`http://127.0.0.1:${port}${urlPath}`, { headers });
  const body = await response.arrayBuffer();
  if (!response.ok) throw new Error(`GET ${urlPath}: ${response.status}`);
  return { response, body: Buffer.from(body) };
}

async function start(variant: Variant, port: number, dataDir: string): Promise<Started> {
  const [program, ...args] = variant.command as [string, ...string[]];
  const began = performance.now();
  const child = spawn(program, args, {
    cwd: apiDir,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: '',
      REDIS_URL: '',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      // One client browses everything: the per-address limits are sized for one shopper.
      RATE_LIMIT_SCALE: '20',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  while (performance.now() - began < START_TIMEOUT_MS) {
    if (exited !== undefined) throw new Error(`${variant.name} exited with ${exited}:\n${output.join('')}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      if (response.status === 200) return { child, startMs: performance.now() - began, output };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  child.kill('SIGKILL');
  throw new Error(`${variant.name} did not answer /health within ${START_TIMEOUT_MS} ms:\n${output.join('')}`);
}

function stop({ child }: Started): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The process that serves: the spawned one, or the only child it started (tsx's CLI runs the server in one). */
function servingPid(pid: number): number {
  let current = pid;
  for (;;) {
    let children: number[] = [];
    try {
      children = readFileSync(`/proc/${current}/task/${current}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return current;
    }
    if (children.length !== 1) return current;
    current = children[0] as number;
  }
}

function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

interface Listing {
  products: { id: number; cover_path?: string | null; country_icon?: string | null }[];
}

/**
 * What a shopper's browser asks for: the home page (its HTML, scripts and styles, the categories, the
 * currencies and the popular products), each category's page and listing, then product pages taken
 * from the listings in turn, each with its similar products and reviews, and the images shown.
 */
async function browse(port: number): Promise<number> {
  let requests = 0;
  const page = async (urlPath: string) => {
    requests++;
    return (await get(port, urlPath, { accept: 'text/html', 'accept-encoding': 'br, gzip' })).body.toString();
  };
  const api = async <T>(urlPath: string): Promise<T> => {
    requests++;
    return JSON.parse((await get(port, `/api${urlPath}`, { 'accept-encoding': 'br, gzip' })).body.toString()) as T;
  };
  const file = async (urlPath: string) => {
    requests++;
    await get(port, urlPath, { 'accept-encoding': 'br, gzip' });
  };

  const html = await page('/');
  for (const match of html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)) await file(match[1] as string);
  const categories = await api<{ id: string }[]>('/categories');
  await api('/currencies');
  await api('/popular-products?page=1&lang=en');

  const listings: Listing[] = [];
  for (const category of categories) {
    await page(`/category/${category.id}`);
    listings.push((await api<{ result: Listing }>(`/categories/${category.id}?lang=en`)).result);
    await api(`/countries?category=${category.id}`);
  }

  const products: number[] = [];
  for (let i = 0; products.length < PRODUCT_PAGES; i++) {
    const round = listings.map((listing) => listing.products[i]).filter((product) => product !== undefined);
    if (round.length === 0) break;
    for (const product of round) if (products.length < PRODUCT_PAGES) products.push(product.id);
  }
  if (products.length < PRODUCT_PAGES) throw new Error(`only ${products.length} products in the listings`);
  for (const id of products) {
    await page(`/product/${id}`);
    await api(`/products/${id}?lang=en`);
    await api(`/products/${id}/similar-products`);
    await api(`/products/feedbacks/${id}?offset=0`);
  }

  const images = new Set<string>();
  for (const listing of listings) {
    for (const product of listing.products) {
      if (product.cover_path) images.add(product.cover_path);
      if (product.country_icon) images.add(product.country_icon);
    }
  }
  for (const image of images) await file(image);
  return requests;
}

interface Measured {
  name: string;
  warmUpMs: number;
  /** On a new data folder: the database made, migrated and seeded. */
  startMs: number;
  rssMb: number;
  peakMb: number;
  /** On the folder the first start made, as every start after the first. */
  restartMs: number;
  restartRssMb: number;
  requests: number;
  load: string;
}

/** Read a second after the browsing, once its sockets have closed. */
async function settledMemory(server: Started) {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return memoryMb(servingPid(server.child.pid as number));
}

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

async function measure(variant: Variant, port: number): Promise<Measured> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'store-startup-'));
  try {
    // Warm-up: the first start of this kind in the run fills the caches the next one starts from.
    const warm = await start(variant, port, path.join(scratch, 'warm'));
    await stop(warm);

    const dataDir = path.join(scratch, 'data');
    const load = loadavg();
    const server = await start(variant, port, dataDir);
    const requests = await browse(port);
    const memory = await settledMemory(server);
    await stop(server);

    const again = await start(variant, port, dataDir);
    await browse(port);
    const againMemory = await settledMemory(again);
    await stop(again);
    return {
      name: variant.name,
      warmUpMs: warm.startMs,
      startMs: server.startMs,
      rssMb: memory.rss,
      peakMb: memory.peak,
      restartMs: again.startMs,
      restartRssMb: againMemory.rss,
      requests,
      load,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function main() {
  console.log('building the API (and the web app when apps/web/dist is missing)');
  if (!existsSync(path.join(repoRoot, 'apps/web/dist/index.html'))) {
    execFileSync('pnpm', ['--filter', '@store/web', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  }
  execFileSync('pnpm', ['--filter', '@store/api', 'build'], { cwd: repoRoot, stdio: 'inherit' });

  const only = process.env.BENCH_ONLY;
  const variants: Variant[] = [
    { name: 'tsx src/server.ts (before)', command: tsxCommand() },
    { name: 'compiled: node dist/server.js', command: compiledCommand() },
  ].filter((variant) => !only || variant.name.includes(only));
  console.log(`node ${process.version}, ${os.cpus().length} cores; load average before: ${loadavg()}`);
  const results: Measured[] = [];
  for (const [index, variant] of variants.entries()) {
    console.log(`${variant.name}: ${variant.command.slice(1).join(' ')}`);
    results.push(await measure(variant, 3960 + index));
  }

  const s = (ms: number) => (ms / 1000).toFixed(1);
  console.log(
    `\n| embedded store, ${PRODUCT_PAGES} product pages | warm-up start s | start s, new folder | ` +
      'resident MB after browsing | peak MB | restart s | resident MB after browsing, restarted | load at start |' +
      '\n|---|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const r of results) {
    console.log(
      `| ${r.name} | ${s(r.warmUpMs)} | ${s(r.startMs)} | ${r.rssMb} | ${r.peakMb} | ${s(r.restartMs)} | ` +
        `${r.restartRssMb} | ${r.load} |`,
    );
  }
  console.log(`\n${results[0]?.requests} requests of browsing each; load average after: ${loadavg()}`);

  const resultsDir = path.join(repoRoot, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    path.join(resultsDir, 'startup.json'),
    `${JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2)}\n`,
  );

  const compiled = results.find((result) => result.name.startsWith('compiled'));
  const missed: string[] = [];
  for (const [what, mb] of [
    ['new folder', compiled?.rssMb],
    ['restarted', compiled?.restartRssMb],
  ] as const) {
    if (mb !== undefined && mb > TARGET_RSS_MB) missed.push(`${mb} MB resident, ${what} (target ${TARGET_RSS_MB})`);
  }
  for (const [what, ms] of [
    ['new folder', compiled?.startMs],
    ['restart', compiled?.restartMs],
  ] as const) {
    if (ms !== undefined && ms >= TARGET_START_MS) missed.push(`${what}: start ${s(ms)} s (target under 5 s)`);
  }
  if (missed.length > 0) {
    console.log(`compiled build missed: ${missed.join(', ')}`);
    process.exitCode = 1;
  }
}

await main();
