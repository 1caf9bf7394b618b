import {
  type AccountService,
  type CatalogueService,
  createAccountService,
  createCatalogueService,
  createReviewService,
  type JobQueue,
  type ReviewService,
} from '@store/core';
import type { Database } from '@store/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Env } from '../env.ts';
import { type RateLimitName, type RateLimitPreset, rateLimit } from './rate-limit-presets.ts';

export interface Services {
  catalogue: CatalogueService;
  accounts: AccountService;
  reviews: ReviewService;
}

declare module 'fastify' {
  interface FastifyInstance {
    env: Env;
    database: Database;
    queue: JobQueue;
    redis: Redis | undefined;
    services: Services;
    /** The named rate-limit preset, scaled for this environment. */
    rateLimitPreset(name: RateLimitName): RateLimitPreset;
  }
}

export interface ServicesPluginOptions {
  env: Env;
  database: Database;
  queue: JobQueue;
  redis?: Redis;
}

/** The app's dependencies and the core services built over them. */
export default fp(async function services(
  app: FastifyInstance,
  { env, database, queue, redis }: ServicesPluginOptions,
) {
  app.decorate('env', env);
  app.decorate('database', database);
  app.decorate('queue', queue);
  app.decorate('redis', redis);
  app.decorate('services', {
    catalogue: createCatalogueService({ db: database.prisma, pageTtlMs: env.CATALOGUE_CACHE_MS }),
    accounts: createAccountService({
      db: database.prisma,
      queue,
      publicUrl: env.PUBLIC_URL,
      sessionTtlHours: env.SESSION_TTL_HOURS,
      logger: app.log,
    }),
    reviews: createReviewService({ db: database.prisma }),
  });
  app.decorate('rateLimitPreset', (name: RateLimitName) => rateLimit(name, env.RATE_LIMIT_SCALE));
});
