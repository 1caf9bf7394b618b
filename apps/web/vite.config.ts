import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { BREAKPOINTS } from '@store/contract';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin as VitePlugin } from 'vite';

const require = createRequire(import.meta.url);

/**
 * CSS cannot import the contract, so media queries name a breakpoint (`@media (--navbar)`) and this
 * PostCSS step writes in the number from BREAKPOINTS. One source for CSS and TypeScript.
 */
export const MEDIA = {
  '--mobile': `(max-width: ${BREAKPOINTS.mobile}px)`,
  '--navbar': `(max-width: ${BREAKPOINTS.navbar}px)`,
  '--wide': `(min-width: ${BREAKPOINTS.outsideClick}px)`,
  '--footer': `(max-width: ${BREAKPOINTS.footer}px)`,
} as const;

const breakpoints = {
  postcssPlugin: 'store-breakpoints',
  AtRule: {
    media(rule: { params: string }) {
      rule.params = rule.params.replace(/\((--[a-z]+)\)/g, (match, name: string) =>
        name in MEDIA ? MEDIA[name as keyof typeof MEDIA] : match,
      );
    },
  },
};

/**
 * react-router's package points every bundler at its development build, warnings included. A
 * production bundle takes the production build it ships beside it.
 */
export function reactRouterProductionAliases() {
  const routerDom = path.dirname(require.resolve('react-router-dom'));
  const developmentIndex = require.resolve('react-router', { paths: [routerDom] });
  const production = path.join(path.dirname(path.dirname(developmentIndex)), 'production');
  return [
    { find: /^react-router$/, replacement: path.join(production, 'index.mjs') },
    { find: /^react-router\/dom$/, replacement: path.join(production, 'dom-export.mjs') },
  ];
}

/**
 * The contract package has no top-level effects, but says nothing: told so, the bundler keeps only the
 * schemas and constants a chunk uses, so a chunk that needs a limit does not pull every schema.
 */
export const contractWithoutSideEffects: VitePlugin = {
  name: 'store-contract-side-effect-free',
  transform(code, id) {
    if (id.includes(`${path.sep}packages${path.sep}contract${path.sep}src${path.sep}`)) {
      return { code, map: null, moduleSideEffects: false };
    }
    return undefined;
  },
};

/**
 * Writes a .br (quality 11) and a .gz (level 9) beside every script, style, page, catalogue and
 * icon of the build, for the server to send as the browser accepts (@fastify/static's
 * preCompressed). Compressing once here costs a second of build; per request it would cost CPU on
 * every visit, at lower levels.
 */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|webmanifest)$/;
const COMPRESS_FROM_BYTES = 1024;

export const precompress: VitePlugin = {
  name: 'store-precompress',
  apply: 'build',
  // From the files as written: until then, chunks still hold placeholders later plugins fill in.
  writeBundle(options, bundle) {
    const outDir = options.dir ?? 'dist';
    for (const fileName of Object.keys(bundle)) {
      if (!COMPRESSIBLE.test(fileName)) continue;
      const file = path.join(outDir, fileName);
      const bytes = readFileSync(file);
      if (bytes.length < COMPRESS_FROM_BYTES) continue;
      const brotli = brotliCompressSync(bytes, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      });
      writeFileSync(`${file}.br`, brotli);
      writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
    }
  },
};

const api = { target: 'http://localhost:3000', changeOrigin: false };

export default defineConfig(({ command }) => ({
  plugins: [react() as VitePlugin[], contractWithoutSideEffects, precompress],
  base: '/',
  resolve: { alias: command === 'build' ? reactRouterProductionAliases() : [] },
  css: {
    postcss: { plugins: [breakpoints] },
    modules: { localsConvention: 'camelCaseOnly' },
  },
  server: {
    proxy: { '/api': api, '/static': api },
  },
  preview: {
    proxy: { '/api': api, '/static': api },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    assetsInlineLimit: 2048,
    modulePreload: {
      // Every browser the es2022 target runs in preloads modules itself.
      polyfill: false,
      // A lazy screen's list of files to fetch beside it leaves out those the first page already
      // loaded (the libraries, the shared code, the runtime): preloading them again does nothing,
      // and the list is part of the first download.
      resolveDependencies: (_file, dependencies) =>
        dependencies.filter(
          (dependency) => !/(^|\/)(vendor|shell|rolldown-runtime)-[\w-]+\.(js|css)$/.test(dependency),
        ),
    },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What the entry imports statically loads on every visit anyway: one chunk for the libraries and
          // one for the app's shared code, instead of a small chunk for each set of lazy screens that also
          // uses a piece of it. src/app (router, layout) stays out: a group that takes it too swallows the
          // entry chunk, and the manifest then has no entry.
          groups: [
            { name: 'vendor', tags: ['$initial'], test: /node_modules[\\/]/ },
            { name: 'shell', tags: ['$initial'], test: /[\\/]src[\\/](lib|components|features)[\\/]/ },
          ],
        },
      },
    },
  },
}));
