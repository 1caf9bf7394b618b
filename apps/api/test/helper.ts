import { once } from 'node:events';
import type { Job } from '@store/contract';
import {
  createDevMailbox,
  createOutboxMailer,
  type DevMailbox,
  type EnqueueOptions,
  type JobQueue,
  type Logger,
  silentLogger,
} from '@store/core';
import { createCodeCipher, devCodeKey } from '@store/db';
import { seedDemo } from '@store/db/seed';
import { createTestDatabase } from '@store/db/testing';
import type { FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../src/app.ts';
import { loadEnv } from '../src/env.ts';
import { storeFor } from '../src/store-for.ts';

export type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

export interface TestAppOptions {
  /** Another app's database, for several instances over one store; its owner cleans it up. */
  database?: TestDatabase;
  /** Rate-limit counters in this Redis, as in the full mode. */
  redisUrl?: string;
  /** Prefix of those counters: give each run its own so runs do not share counts. */
  rateLimitNamespace?: string;
  /** A queue of the test's own, e.g. one that records what was enqueued. */
  queue?: JobQueue;
  /** The mailbox that queue's mailer delivers into, for the dev mailbox routes to show. */
  devMailbox?: DevMailbox;
  /** Where the jobs of the app's own queue log (silent unless given). */
  jobLogger?: Logger;
  logger?: FastifyServerOptions['logger'];
  /** Requests traced (the test has started tracing with an exporter of its own). */
  tracing?: boolean;
}

/**
 * An app over a fresh database seeded with the demo catalogue: PostgreSQL when DATABASE_URL is set
 * (CI), embedded PGlite otherwise. Each test file builds its own and closes it in afterAll.
 */
export async function buildTestApp(envOverrides: Record<string, string> = {}, options: TestAppOptions = {}) {
  const database = options.database ?? (await createTestDatabase());
  if (!options.database) await seedDemo(database.prisma, { cipher: createCodeCipher(devCodeKey()) });
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', ...envOverrides });
  // As `pnpm start` runs it: the outbox mailer delivers into the dev mailbox the app shows.
  const devMailbox = options.devMailbox ?? createDevMailbox();
  const jobLogger = options.jobLogger ?? silentLogger;
  // The store as `pnpm start` makes it: its jobs run in this process with its own handlers, unless
  // the test brings a queue of its own.
  const store = storeFor(env, {
    database,
    logger: jobLogger,
    queue: options.queue,
    mailer: createOutboxMailer(devMailbox, jobLogger),
  });
  const { queue } = store;
  const redis = options.redisUrl ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  // Outage tests stop Redis on purpose; what the app makes of that is in its own log.
  redis?.on('error', () => {});
  // Until it is ready the limits count in memory: a test that counts through Redis starts after that.
  if (redis && redis.status !== 'ready') await once(redis, 'ready');
  const app = await buildApp({
    env,
    database,
    queue,
    store,
    redis,
    rateLimitNamespace: options.rateLimitNamespace,
    logger: options.logger,
    devMailbox,
    tracing: options.tracing ?? false,
  });
  return {
    app,
    database,
    /** Where the mailer delivers: a sent email's outbox row keeps no link, the message does. */
    devMailbox,
    async close() {
      await app.close();
      if (!options.queue) await queue.close();
      await redis?.quit();
      if (!options.database) await database.cleanup();
    },
  };
}

/** A queue that only records: tests read what would have been sent from the outbox rows. */
export function createRecordingQueue(): JobQueue & { jobs: Array<{ job: Job; options?: EnqueueOptions }> } {
  const jobs: Array<{ job: Job; options?: EnqueueOptions }> = [];
  return {
    kind: 'in-process',
    jobs,
    async enqueue(job, options) {
      jobs.push({ job, options });
      return 'queued';
    },
    async ping() {
      return { nonce: 'recording', handledAt: new Date().toISOString(), database: 'ok' };
    },
    async close() {},
  };
}
