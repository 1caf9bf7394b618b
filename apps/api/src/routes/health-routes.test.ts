import { randomUUID } from 'node:crypto';
import { createJobHandlers, createNoMailer, type JobHandlers, type JobQueue, silentLogger } from '@store/core';
import { createBullQueue, createBullWorker } from '@store/core/bullmq';
import {
  dropTestQueue,
  eventuallyPasses,
  hasRedisServer,
  type PrivateRedis,
  startPrivateRedis,
} from '@store/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { rateLimit } from '../plugins/rate-limit-presets.ts';
import { READY_CACHE_MS } from './health-routes.ts';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  process.stderr.write('\n*** REDIS_URL is not set: the /ready tests through BullMQ are SKIPPED. ***\n\n');
}

/**
 * /ready through the real thing: BullMQ on Redis, a worker running core's job handlers over the
 * test's database. However many ask at once, one probe goes through the queue.
 */
describe.skipIf(!redisUrl)('GET /ready with Redis and a worker', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let queue: JobQueue;
  let worker: ReturnType<typeof createBullWorker>;
  let healthJobs = 0;

  beforeAll(async () => {
    const prefix = `test-ready-${randomUUID()}`;
    queue = createBullQueue({ redisUrl: redisUrl!, prefix });
    ctx = await buildTestApp({}, { queue, redisUrl, rateLimitNamespace: `test-ready:${randomUUID()}:` });
    const handlers = createJobHandlers({
      sql: ctx.database.sql,
      logger: silentLogger,
      mailer: createNoMailer(),
    });
    const counted: JobHandlers = {
      ...handlers,
      health: (job, context) => {
        healthJobs += 1;
        return handlers.health(job, context);
      },
    };
    worker = createBullWorker({ redisUrl: redisUrl!, prefix, handlers: counted, logger: silentLogger });
    await worker.waitUntilReady();
  });
  afterAll(async () => {
    await worker?.close();
    await ctx?.close();
    await queue?.close();
  });

  it('answers 100 concurrent callers from one probe', async () => {
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        ctx.app.inject({ method: 'GET', url: '/ready', remoteAddress: `10.40.${index}.1` }),
      ),
    );
    for (const response of responses) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        status: 'ready',
        checks: { database: 'ok', queue: 'ok', worker: 'ok', redis: 'ok' },
      });
      expect(response.headers['cache-control']).toBe('no-store');
    }
    expect(healthJobs).toBe(1);
  });

  it('probes again once the answer is older than the cache', async () => {
    await new Promise((resolve) => setTimeout(resolve, READY_CACHE_MS + 50));
    const before = healthJobs;
    const response = await ctx.app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(200);
    expect(healthJobs).toBe(before + 1);
  });
});

describe('GET /ready when a dependency fails', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  const lines: string[] = [];
  const internal = 'connect ECONNREFUSED 10.9.8.7:6379 (redis-primary.internal)';

  beforeAll(async () => {
    const queue: JobQueue = {
      ...createRecordingQueue(),
      async ping() {
        throw new Error(internal);
      },
    };
    ctx = await buildTestApp(
      {},
      { queue, logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } } },
    );
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('stays ready, says which component is degraded, and logs the reason', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/ready', remoteAddress: '10.41.0.1' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'degraded', checks: { database: 'ok', queue: 'degraded' } });
    expect(response.body).not.toContain('ECONNREFUSED');
    expect(response.body).not.toContain('internal');
    expect(lines.join('\n')).toContain(internal);
  });

  it('keeps /health a liveness check that needs no dependency', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('is rate-limited per client', async () => {
    const { max } = rateLimit('ready');
    const statuses = new Set<number>();
    for (let attempt = 0; attempt < max; attempt += 1) {
      statuses.add((await ctx.app.inject({ method: 'GET', url: '/ready', remoteAddress: '10.41.0.2' })).statusCode);
    }
    expect([...statuses]).toEqual([200]);
    const limited = await ctx.app.inject({ method: 'GET', url: '/ready', remoteAddress: '10.41.0.2' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many requests/);
    // Another client still gets an answer.
    expect((await ctx.app.inject({ method: 'GET', url: '/ready', remoteAddress: '10.41.0.3' })).statusCode).toBe(200);
  });
});

const canStopRedis = hasRedisServer();
if (!canStopRedis) {
  process.stderr.write('\n*** redis-server is not installed: /ready without Redis or a worker is NOT tested. ***\n\n');
}

/**
 * Without a worker, then without Redis, shoppers are still served (jobs wait for the sweeps, limits
 * count in the instance): the instance stays in rotation and says what is degraded. The database
 * alone takes it out (database-outage.test.ts).
 */
describe.runIf(canStopRedis)('GET /ready while the worker or Redis is down', () => {
  const prefix = `test-ready-degraded-${randomUUID()}`;
  let redis: PrivateRedis;
  let queue: JobQueue;
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let worker: ReturnType<typeof createBullWorker> | undefined;
  let redisDown = false;

  beforeAll(async () => {
    // A Redis of this test's own: the shared one must never go down.
    redis = await startPrivateRedis();
    queue = createBullQueue({ redisUrl: redis.url, prefix, logger: silentLogger });
    ctx = await buildTestApp(
      {},
      { queue, redisUrl: redis.url, rateLimitNamespace: `test-ready-degraded:${randomUUID()}:` },
    );
  });
  afterAll(async () => {
    // The clients' quit and close wait for a server to hear them.
    if (redisDown) await redis.start();
    await worker?.close();
    await ctx?.close();
    await queue?.close();
    if (redis) await dropTestQueue(redis.url, prefix).catch(() => undefined);
    await redis?.stop();
  });

  const ready = (remoteAddress: string) => ctx.app.inject({ method: 'GET', url: '/ready', remoteAddress });

  it('answers 200 with the worker degraded while no worker takes the job', async () => {
    const response = await ready('10.42.0.1');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'degraded',
      checks: { database: 'ok', queue: 'ok', worker: 'degraded', redis: 'ok' },
    });
  });

  it('answers 200 with the queue, the worker and Redis degraded while Redis is down; ready once all are back', async () => {
    await redis.stop();
    redisDown = true;
    await new Promise((resolve) => setTimeout(resolve, READY_CACHE_MS));
    const response = await ready('10.42.0.2');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'degraded',
      checks: { database: 'ok', queue: 'degraded', worker: 'degraded', redis: 'degraded' },
    });

    await redis.start();
    redisDown = false;
    worker = createBullWorker({
      redisUrl: redis.url,
      prefix,
      handlers: createJobHandlers({
        sql: ctx.database.sql,
        logger: silentLogger,
        mailer: createNoMailer(),
      }),
      logger: silentLogger,
    });
    await worker.waitUntilReady();
    await eventuallyPasses(async () => {
      expect((await ready('10.42.0.3')).json()).toMatchObject({ status: 'ready' });
    }, 20_000);
  });
});
