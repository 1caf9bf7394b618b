#!/usr/bin/env node
// Builds one app of the store to JavaScript: `node ../../scripts/build-app.mjs src/server.ts [...]`,
// run in the app's folder (its `build` script does). Each entry becomes dist/<name>.js, an ES module
// for Node with its source map.
//
// - The workspace packages (@store/*) export TypeScript sources, so they are bundled in.
// - Every other package stays external and is loaded from node_modules at run time, as it is in
//   development: the bundle holds the store's own code only. So every package it imports must be in
//   the app's own `dependencies` (a production install has nothing else); the build fails otherwise.
// - Code that finds files beside its source (`new URL('../assets/', import.meta.url)`) keeps finding
//   them there: `import.meta.url` in a workspace file is the URL of that source file, reached from the
//   bundle's folder. The repository's layout (prisma/migrations, packages/db/assets, ...) is kept
//   wherever the bundle runs, the image included.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const appDir = process.cwd();
const outdir = path.join(appDir, 'dist');
const entries = process.argv.slice(2);
if (entries.length === 0) {
  console.error('usage: build-app.mjs <entry.ts> [...]  (in the app folder)');
  process.exit(2);
}

const manifest = JSON.parse(readFileSync(path.join(appDir, 'package.json'), 'utf8'));
const dependencies = new Set(Object.keys(manifest.dependencies ?? {}));
const builtins = new Set(builtinModules);

/** `@scope/name/sub/path` -> `@scope/name`, `name/sub` -> `name`. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const isWorkspace = (specifier) => specifier.startsWith('@store/');

/** Packages from node_modules stay imports; the workspace's own are bundled. */
const externals = {
  name: 'externals',
  setup(builder) {
    // Bare specifiers only: not `./x`, `../x` or absolute paths.
    builder.onResolve({ filter: /^[^./]|^\.[^./]|^\.\.[^/]/ }, (args) => {
      if (args.path.startsWith('node:') || builtins.has(args.path)) return { path: args.path, external: true };
      if (isWorkspace(args.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** `import.meta.url` of a workspace source file, as seen from the bundle in dist/. */
const sourceUrls = {
  name: 'source-urls',
  setup(builder) {
    builder.onLoad({ filter: /\.[cm]?tsx?$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const relative = path.relative(outdir, args.path).split(path.sep).join('/');
      const here = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
      return {
        contents: source.replaceAll('import.meta.url', here),
        loader: 'ts',
        resolveDir: path.dirname(args.path),
      };
    });
  },
};

const result = await build({
  absWorkingDir: appDir,
  entryPoints: entries,
  // What an app imports with `await import()` (the BullMQ queue, say) is a chunk of its own, loaded
  // only when that line runs; without splitting it would be inlined and its packages imported at start.
  splitting: true,
  // Every entry and chunk at the top of dist/, so the paths written by sourceUrls hold for all of them.
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  // Stack traces name the TypeScript sources (node --enable-source-maps).
  sourcesContent: false,
  metafile: true,
  logLevel: 'warning',
  plugins: [externals, sourceUrls],
});

// Every external must come from the app's own dependencies.
const missing = new Map();
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (!file.endsWith('.js')) continue;
  for (const { path: specifier, external } of output.imports) {
    if (!external || specifier.startsWith('node:') || builtins.has(specifier)) continue;
    const name = packageName(specifier);
    if (!dependencies.has(name)) missing.set(name, file);
  }
}
if (missing.size > 0) {
  for (const [name, file] of missing) {
    console.error(`${file} imports ${name}, which is not in ${manifest.name}'s dependencies`);
  }
  process.exit(1);
}

for (const entry of entries) {
  const out = path.join(outdir, `${path.basename(entry).replace(/\.[cm]?tsx?$/, '')}.js`);
  if (!existsSync(out)) throw new Error(`${out} was not written`);
  const bytes = result.metafile.outputs[path.relative(appDir, out).split(path.sep).join('/')]?.bytes ?? 0;
  console.log(`${manifest.name}: ${path.relative(appDir, out)} (${Math.round(bytes / 1024)} KB)`);
}
