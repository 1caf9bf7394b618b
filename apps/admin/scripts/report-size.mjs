// Prints the gzip size of the JavaScript the console's first visit downloads (the entry, its static
// imports and the default language's catalogue) and of each page's own chunk. Over budget it warns;
// SIZE_BUDGET_STRICT=1 makes it fail. The console is built apart from the storefront, so none of this
// reaches a shopper's first download.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const budget = JSON.parse(readFileSync(new URL('../size-budget.json', import.meta.url), 'utf8'));
const ADMIN_BUDGET_KB = budget.firstDownloadKb;
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const gzipKb = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length / 1024;

function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(imported, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const initial = new Set([...closure(entryKey), ...closure('src/locales/pt-BR.json')]);
const sum = (files) => [...files].reduce((total, file) => total + gzipKb(file), 0);
const initialKb = sum(initial);
const fmt = (kb) => `${kb.toFixed(1).padStart(6)} KB`;

console.log('\nConsole JavaScript, gzip level 9');
console.log(`${fmt(initialKb)}  first download (entry, shared chunks, Portuguese texts)`);
for (const file of [...initial].sort()) console.log(`          ${fmt(gzipKb(file))}  ${file}`);
console.log('\nEach page beyond the first download:');
for (const key of Object.keys(manifest).filter((name) => name.startsWith('src/pages/'))) {
  const own = [...closure(key)].filter((file) => !initial.has(file));
  console.log(`${fmt(sum(own))}  ${key.replace('src/pages/', '')}`);
}
if (initialKb > ADMIN_BUDGET_KB) {
  console.warn(
    `\nOver budget: the console loads ${initialKb.toFixed(1)} KB first; the budget is ${ADMIN_BUDGET_KB} KB.`,
  );
  if (process.env.SIZE_BUDGET_STRICT === '1') process.exit(1);
} else {
  console.log(`Console budget: ${initialKb.toFixed(1)} of ${ADMIN_BUDGET_KB} KB.`);
}
