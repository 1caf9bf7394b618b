import { createInProcessQueue, createJobHandlers, silentLogger } from '@store/core';
import { createCodeCipher, devCodeKey } from '@store/db';
import { seedDemo } from '@store/db/seed';
import { createTestDatabase } from '@store/db/testing';
import { buildApp } from '../src/app.ts';
import { loadEnv } from '../src/env.ts';

export type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

/**
 * An app over a fresh database seeded with the demo catalogue: PostgreSQL when DATABASE_URL is set
 * (CI), embedded PGlite otherwise. Each test file builds its own and closes it in afterAll.
 */
export async function buildTestApp(envOverrides: Record<string, string> = {}) {
  const database = await createTestDatabase();
  await seedDemo(database.prisma, { cipher: createCodeCipher(devCodeKey()) });
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', ...envOverrides });
  const queue = createInProcessQueue(createJobHandlers({ db: database.prisma, logger: silentLogger }), silentLogger);
  const app = await buildApp({ env, database, queue });
  return {
    app,
    database,
    async close() {
      await app.close();
      await queue.close();
      await database.cleanup();
    },
  };
}
