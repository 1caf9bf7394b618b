// Prints the gzip size of the JavaScript a first visit to the home route downloads, and of every
// route's own chunk, from the Vite manifest. Over budget it warns; SIZE_BUDGET_STRICT=1 makes it fail.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';

const BUDGET_KB = 120;
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

const gzipKb = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length / 1024;

/** A chunk and everything it imports statically: what the browser must fetch before it runs. */
function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(imported, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const homeKey = 'src/app/routes/home.tsx';
const catalogueKey = 'src/locales/en.json';
const initial = new Set([...closure(entryKey), ...closure(homeKey), ...closure(catalogueKey)]);
const sum = (files) => [...files].reduce((total, file) => total + gzipKb(file), 0);
const initialKb = sum(initial);

const routes = Object.keys(manifest)
  .filter((key) => key.startsWith('src/app/routes/'))
  .map((key) => {
    const own = [...closure(key)].filter((file) => !initial.has(file));
    return { route: key.replace('src/app/routes/', ''), kb: sum(own) };
  })
  .sort((a, b) => b.kb - a.kb);

// The server sends the .br and .gz copies in place of the files: each must be its file, exactly.
for (const entry of readdirSync(dist, { recursive: true })) {
  const name = String(entry);
  const inflate = name.endsWith('.br') ? brotliDecompressSync : name.endsWith('.gz') ? gunzipSync : null;
  if (!inflate) continue;
  const original = readFileSync(path.join(dist, name.slice(0, -3)));
  if (!inflate(readFileSync(path.join(dist, name))).equals(original)) {
    console.error(`${name} is not a compressed copy of ${name.slice(0, -3)} as built.`);
    process.exit(1);
  }
}

const fmt = (kb) => `${kb.toFixed(1).padStart(6)} KB`;
console.log('\nJavaScript, gzip level 9');
console.log(`${fmt(initialKb)}  initial load of the home route (entry, shared chunks, home route, English texts)`);
for (const file of [...initial].sort()) console.log(`          ${fmt(gzipKb(file))}  ${file}`);
console.log('\nEach route beyond what the home route already loaded:');
for (const { route, kb } of routes) console.log(`${fmt(kb)}  ${route}`);
const largest = routes[0];
if (largest) console.log(`\nLargest route chunk: ${largest.route} (${largest.kb.toFixed(1)} KB)`);

if (initialKb > BUDGET_KB) {
  console.warn(
    `\nOver budget: the home route loads ${initialKb.toFixed(1)} KB of JavaScript; the budget is ${BUDGET_KB} KB.`,
  );
  // Starting the store builds the app; a size regression must not stop the store from starting.
  if (process.env.SIZE_BUDGET_STRICT === '1') process.exit(1);
} else {
  console.log(`Budget: ${initialKb.toFixed(1)} of ${BUDGET_KB} KB.`);
}
