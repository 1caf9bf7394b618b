import { createBullQueue } from '@store/core/bullmq';
import { createDatabase } from '@store/db';
import { buildApp } from '../../apps/api/src/app.ts';
import { loadEnv } from '../../apps/api/src/env.ts';

/**
 * The store's API as it runs in the full stack: PostgreSQL, BullMQ on Redis (the worker, a process of
 * its own, applies payment events), production settings. Signs session tokens for the runner over IPC.
 */
const port = Number(process.env.BENCH_PORT);
if (!port) throw new Error('BENCH_PORT is required');

const env = loadEnv({ ...process.env, PORT: String(port) });
if (!env.DATABASE_URL || !env.REDIS_URL) throw new Error('DATABASE_URL and REDIS_URL are required');
const database = await createDatabase({ databaseUrl: env.DATABASE_URL, migrate: false });
const queue = createBullQueue({ redisUrl: env.REDIS_URL, prefix: env.QUEUE_PREFIX });
const app = await buildApp({ env, database, queue });
await app.listen({ host: '127.0.0.1', port });

process.on('message', (message: { sign?: Array<{ userId: string; sessionId: string }> }) => {
  if (message.sign) process.send?.({ tokens: message.sign.map((session) => app.signSessionToken(session)) });
});
process.send?.({ ready: true });
process.on('SIGTERM', async () => {
  await app.close();
  await queue.close();
  await database.close();
  process.exit(0);
});
