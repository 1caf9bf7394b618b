import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  css: { modules: { localsConvention: 'camelCaseOnly' } },
  test: {
    // The test files of a worker share its modules: each file imported the whole store (Fastify,
    // Prisma, core) or the whole app (React, jsdom's globals) anew, which was about half the CPU of
    // the suites. The files never share a database (each clones its own from the template) or a DOM
    // (the setup file cleans up after every test), and they pass in any order.
    isolate: false,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // A form test types and clicks through a whole dialog in jsdom: seconds of CPU when the turbo
    // run has the API and core suites beside it on two cores. A real hang still fails.
    testTimeout: 20_000,
  },
});
