import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin as VitePlugin } from 'vite';
import { contractWithoutSideEffects, precompress, reactRouterProductionAliases } from '../web/vite.config.ts';

const api = { target: 'http://localhost:3000', changeOrigin: false };

/**
 * The operator console: its own build under /admin/, apart from the storefront's, so nothing of it
 * reaches a shopper's first download. The production router and the pre-compressed copies come from
 * the storefront's configuration.
 */
export default defineConfig(({ command }) => ({
  plugins: [react() as VitePlugin[], contractWithoutSideEffects, precompress],
  base: '/admin/',
  resolve: { alias: command === 'build' ? reactRouterProductionAliases() : [] },
  css: { modules: { localsConvention: 'camelCaseOnly' } },
  server: { port: 5174, proxy: { '/api': api } },
  preview: { proxy: { '/api': api } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    assetsInlineLimit: 2048,
    modulePreload: { polyfill: false },
  },
}));
