import type { Job } from '@store/contract';
import {
  createInProcessQueue,
  createJobHandlers,
  createOutboxMailer,
  type EnqueueOptions,
  type JobQueue,
  silentLogger,
} from '@store/core';
import { createCodeCipher, devCodeKey } from '@store/db';
import { seedDemo } from '@store/db/seed';
import { createTestDatabase } from '@store/db/testing';
import type { FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../src/app.ts';
import { loadEnv } from '../src/env.ts';

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
  logger?: FastifyServerOptions['logger'];
}

/**
 * An app over a fresh database seeded with the demo catalogue: PostgreSQL when DATABASE_URL is set
 * (CI), embedded PGlite otherwise. Each test file builds its own and closes it in afterAll.
 */
export async function buildTestApp(envOverrides: Record<string, string> = {}, options: TestAppOptions = {}) {
  const database = options.database ?? (await createTestDatabase());
  if (!options.database) await seedDemo(database.prisma, { cipher: createCodeCipher(devCodeKey()) });
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', ...envOverrides });
  const queue =
    options.queue ??
    createInProcessQueue(
      createJobHandlers({ db: database.prisma, logger: silentLogger, mailer: createOutboxMailer(silentLogger) }),
      silentLogger,
    );
  const redis = options.redisUrl ? new Redis(options.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  const app = await buildApp({
    env,
    database,
    queue,
    redis,
    rateLimitNamespace: options.rateLimitNamespace,
    logger: options.logger,
  });
  return {
    app,
    database,
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
    },
    async ping() {
      return { nonce: 'recording', handledAt: new Date().toISOString(), database: 'ok' };
    },
    async close() {},
  };
}
