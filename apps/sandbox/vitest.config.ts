import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The test files of a worker share its modules: each file imported the whole store (Fastify,
    // Prisma, core) or the whole app (React, jsdom's globals) anew, which was about half the CPU of
    // the suites. The files never share a database (each clones its own from the template) or a DOM
    // (the setup file cleans up after every test), and they pass in any order.
    isolate: false,
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
