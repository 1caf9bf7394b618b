import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // In CI, PostgreSQL and Redis must be there: no test of them passes by being skipped.
    globalSetup: ['../../packages/db/src/ci-services-setup.ts'],
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
