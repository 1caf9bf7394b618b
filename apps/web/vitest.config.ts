import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  css: { modules: { localsConvention: 'camelCaseOnly' } },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // A form test types and clicks through a whole dialog in jsdom: seconds of CPU when the turbo
    // run has the API and core suites beside it on two cores. A real hang still fails.
    testTimeout: 20_000,
  },
});
