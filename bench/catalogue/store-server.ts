import { randomBytes } from 'node:crypto';
import { createInProcessQueue, createJobHandlers, createNoMailer, silentLogger } from '@store/core';
import { createDatabase } from '@store/db';
import { buildApp } from '../../apps/api/src/app.ts';
import { loadEnv } from '../../apps/api/src/env.ts';

/** The store's API as it runs in production, over the benchmark database, on the given port. */
const databaseUrl = process.env.BENCH_DATABASE_URL;
const port = Number(process.env.BENCH_PORT);
if (!databaseUrl || !port) throw new Error('BENCH_DATABASE_URL and BENCH_PORT are required');

const env = loadEnv({
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  DATABASE_URL: databaseUrl,
  // Production refuses guessable secrets; the benchmark's are thrown away with its run.
  JWT_SECRET: randomBytes(32).toString('hex'),
  CODE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  SANDBOX_API_KEY: randomBytes(32).toString('hex'),
  PAYMENTS_WEBHOOK_SECRETS: `whsec_${randomBytes(32).toString('base64')}`,
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  // One client hammers from one address; the presets would otherwise stop it within a second.
  RATE_LIMIT_SCALE: '100000',
  WEB_DIST: '/nonexistent',
  CATALOGUE_CACHE_MS: process.env.CATALOGUE_CACHE_MS ?? '',
});
const database = await createDatabase({ databaseUrl, migrate: false });
const queue = createInProcessQueue(
  createJobHandlers({ sql: database.sql, logger: silentLogger, mailer: createNoMailer() }),
  silentLogger,
);
const app = await buildApp({ env, database, queue });
await app.listen({ host: '127.0.0.1', port });
// From the start of the process to answering: migrations checked, the search index built.
process.send?.({ startMs: Math.round(performance.now()), index: app.services.search.stats() });
process.on('SIGTERM', async () => {
  await app.close();
  await queue.close();
  await database.close();
  process.exit(0);
});
