import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, mergeConfig, type UserConfig } from 'vite';
import webConfig from '../../apps/web/vite.config.ts';

/**
 * bench/web-bundle: the JavaScript a first visit to the home route downloads (gzip level 9), against
 * floors built in the same run with the web app's own Vite configuration: the least a home page on
 * the same stack can be (React 19, react-router in the declarative mode the store uses,
 * react-query), alone, with a zod response schema, with the same schema in zod/mini, and with
 * react-router's data router instead.
 *
 *   pnpm --filter @store/bench web-bundle
 *
 * It also measures the operator console's first download (apps/admin, built apart), against a budget
 * of its own. It exits non-zero when the home route or the console is over its budget.
 */
const BUDGET_KB = 120;
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const webDir = path.join(repoRoot, 'apps/web');
const adminDir = path.join(repoRoot, 'apps/admin');
/** The operator console's first download has a budget of its own (apps/admin/size-budget.json). */
const ADMIN_BUDGET_KB = (
  JSON.parse(readFileSync(path.join(adminDir, 'size-budget.json'), 'utf8')) as { firstDownloadKb: number }
).firstDownloadKb;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const gzipKb = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length / 1024;

/** The files the browser fetches before the given chunks run: each chunk and its static imports. */
function initialKb(dist: string, keys: string[]): number {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  for (const key of [entry ?? '', ...keys]) {
    if (key && !manifest[key]) throw new Error(`${key} is not in ${dist}'s manifest`);
    visit(key);
  }
  return [...files]
    .filter((file) => file.endsWith('.js'))
    .reduce((sum, file) => sum + gzipKb(path.join(dist, file)), 0);
}

async function buildFloor(parse: 'none' | 'zod' | 'zod-mini', router: 'declarative' | 'data' = 'declarative') {
  const floorDir = path.join(here, 'floor');
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'web-bundle-floor-'));
  try {
    const base = await webConfig({ command: 'build', mode: 'production' });
    const config: UserConfig = mergeConfig(base, {
      root: floorDir,
      configFile: false,
      logLevel: 'warn',
      resolve: {
        alias: [
          { find: /^floor-parse$/, replacement: path.join(floorDir, `parse-${parse}.ts`) },
          { find: /^floor-router$/, replacement: path.join(floorDir, `router-${router}.tsx`) },
        ],
      },
      build: { outDir, emptyOutDir: true, manifest: true },
    });
    await build(config);
    return initialKb(outDir, ['home.tsx']);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

function buildStore(): number {
  execFileSync('pnpm', ['--filter', '@store/web', 'build'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  return initialKb(path.join(webDir, 'dist'), ['src/app/routes/home.tsx', 'src/locales/en.json']);
}

/** The console, built apart: its entry and the default language's texts, before sign-in shows. */
function buildConsole(): number {
  execFileSync('pnpm', ['--filter', '@store/admin', 'build'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return initialKb(path.join(adminDir, 'dist'), ['src/locales/pt-BR.json']);
}

const store = buildStore();
const consoleKb = buildConsole();
const floor = await buildFloor('none');
const floorZod = await buildFloor('zod');
const floorZodMini = await buildFloor('zod-mini');
const floorDataRouter = await buildFloor('none', 'data');

const rows: [string, number][] = [
  ['store: home route, initial JavaScript', store],
  ['floor: React 19 + react-router + react-query', floor],
  ['floor + one response schema in zod', floorZod],
  ['floor + the same schema in zod/mini', floorZodMini],
  ["floor with react-router's data router", floorDataRouter],
  ['console: sign-in page, initial JavaScript', consoleKb],
];
const width = Math.max(...rows.map(([name]) => name.length));
console.log(`\nJavaScript before the home route runs, gzip level 9 (budget ${BUDGET_KB} KB)\n`);
for (const [name, kb] of rows) console.log(`${name.padEnd(width)}  ${kb.toFixed(1).padStart(6)} KB`);
console.log(`\nThe store's own code and its other libraries: ${(store - floor).toFixed(1)} KB over the floor.`);
console.log(`zod costs ${(floorZod - floor).toFixed(1)} KB; zod/mini ${(floorZodMini - floor).toFixed(1)} KB.`);
console.log(`The data router costs ${(floorDataRouter - floor).toFixed(1)} KB more than the declarative mode.`);

const resultsDir = path.join(repoRoot, 'bench/results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  path.join(resultsDir, 'web-bundle.json'),
  `${JSON.stringify({ budgetKb: BUDGET_KB, consoleBudgetKb: ADMIN_BUDGET_KB, rows: Object.fromEntries(rows) }, null, 2)}\n`,
);

console.log(`The console's first download: ${consoleKb.toFixed(1)} KB (its budget ${ADMIN_BUDGET_KB} KB).`);

if (store > BUDGET_KB) {
  console.error(`\nOver budget: ${store.toFixed(1)} KB > ${BUDGET_KB} KB.`);
  process.exit(1);
}
if (consoleKb > ADMIN_BUDGET_KB) {
  console.error(`\nThe console is over its budget: ${consoleKb.toFixed(1)} KB > ${ADMIN_BUDGET_KB} KB.`);
  process.exit(1);
}
