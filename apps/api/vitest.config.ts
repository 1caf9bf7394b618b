import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The test files of a worker share its modules: each file imported the whole store (Fastify,
    // Prisma, core) or the whole app (React, jsdom's globals) anew, which was about half the CPU of
    // the suites. The files never share a database (each clones its own from the template) or a DOM
    // (the setup file cleans up after every test), and they pass in any order.
    isolate: false,
    // Four files at a time on two cores: an API test spends most of its time waiting for PostgreSQL,
    // Redis or a timer, and with the default of one worker per core the cores were mostly idle. The
    // whole suite took 254 s this way on an idle machine against 388 s in the last CI run.
    maxWorkers: 4,
    // In CI, PostgreSQL and Redis must be there: no test of them passes by being skipped.
    globalSetup: ['../../packages/db/src/ci-services-setup.ts'],
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
