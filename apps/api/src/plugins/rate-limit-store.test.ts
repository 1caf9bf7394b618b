import { randomUUID } from 'node:crypto';
import { hasRedisServer, type PrivateRedis, startPrivateRedis } from '@store/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { rateLimit } from './rate-limit-presets.ts';
import { REDIS_RETRY_AFTER_MS } from './rate-limit-store.ts';

const canRun = hasRedisServer();

if (!canRun) {
  process.stderr.write('\n*** redis-server is not installed: the Redis outage tests are SKIPPED. ***\n\n');
}

/**
 * Redis's time to answer a count. Generous, so that a loaded test machine does not drop the
 * instances into counting on their own while Redis is up; the outage cases still prove the bound.
 */
const REDIS_TIMEOUT_MS = 750;
/** A request that waited this long for the limiter counts as hanging. */
const BOUNDED_MS = 2 * REDIS_TIMEOUT_MS;

async function eventually(check: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Two API instances over a Redis of the test's own, which the test freezes, kills and brings back:
 * the limits hold the whole time, no request waits on the dead Redis, and the instances share their
 * counts again once it is back.
 */
describe.skipIf(!canRun)('rate limits through a Redis outage', () => {
  let redis: PrivateRedis;
  let first: Awaited<ReturnType<typeof buildTestApp>>;
  let second: Awaited<ReturnType<typeof buildTestApp>>;
  const { max } = rateLimit('login');

  beforeAll(async () => {
    redis = await startPrivateRedis();
    const options = {
      redisUrl: redis.url,
      rateLimitNamespace: `test-outage:${randomUUID()}:`,
      queue: createRecordingQueue(),
    };
    const env = { RATE_LIMIT_REDIS_TIMEOUT_MS: String(REDIS_TIMEOUT_MS) };
    first = await buildTestApp(env, options);
    second = await buildTestApp(env, { ...options, database: first.database });
  });
  afterAll(async () => {
    redis?.resume();
    await second?.close();
    await first?.close();
    await redis?.stop();
  });

  /** Wrong-password logins from one address, on the instances in turn; the statuses and the slowest. */
  async function attempts(count: number, remoteAddress: string, apps = [first, second]) {
    const email = `outage.${randomUUID()}@example.com`;
    const statuses: number[] = [];
    let slowest = 0;
    for (let attempt = 0; attempt < count; attempt += 1) {
      const started = performance.now();
      const { status } = await call(apps[attempt % apps.length]!.app, 'POST', '/api/login', {
        body: { email, password: 'Wrong12345' },
        remoteAddress,
      });
      slowest = Math.max(slowest, performance.now() - started);
      statuses.push(status);
    }
    return { statuses, slowest };
  }

  const limitedAfterMax = (statuses: number[]) => [...statuses.slice(0, max).map(() => 422), 429];

  it('shares one count between the instances while Redis is up', async () => {
    const { statuses } = await attempts(max + 1, '10.20.0.1');
    expect(statuses).toEqual(limitedAfterMax(statuses));
  });

  it('keeps limiting, without waiting, while Redis hangs', async () => {
    redis.pause();
    try {
      const { statuses, slowest } = await attempts(max + 1, '10.20.0.2', [first]);
      expect(statuses).toEqual(limitedAfterMax(statuses));
      expect(slowest).toBeLessThan(BOUNDED_MS);
    } finally {
      redis.resume();
    }
  });

  it('keeps limiting while Redis is down, and shares counts again once it is back', async () => {
    await redis.stop();
    const down = await attempts(max + 1, '10.20.0.3', [first]);
    expect(down.statuses).toEqual(limitedAfterMax(down.statuses));
    expect(down.slowest).toBeLessThan(BOUNDED_MS);

    await redis.start();
    await eventually(
      () => first.app.redis?.status === 'ready' && second.app.redis?.status === 'ready',
      15_000,
      'the instances reconnect to Redis',
    );
    // An instance that saw Redis fail waits this long before it asks again.
    await new Promise((resolve) => setTimeout(resolve, REDIS_RETRY_AFTER_MS + 100));
    const back = await attempts(max + 1, '10.20.0.4');
    // Counted in memory, each instance alone would have let all of them through.
    expect(back.statuses).toEqual(limitedAfterMax(back.statuses));
    expect(await first.app.redis?.keys('test-outage:*')).not.toHaveLength(0);
  });
});

/**
 * The callback's limit guards each instance's own CPU: each instance counts for itself and never
 * asks Redis, so the provider's callbacks wait for no round trip to it; shared limits still share.
 */
describe.skipIf(!canRun)('a per-instance limit: the provider’s callbacks', () => {
  const SCALE = 0.001;
  const namespace = `test-instance:${randomUUID()}:`;
  let redis: PrivateRedis;
  let first: Awaited<ReturnType<typeof buildTestApp>>;
  let second: Awaited<ReturnType<typeof buildTestApp>>;
  const { max } = rateLimit('callback', SCALE);

  beforeAll(async () => {
    redis = await startPrivateRedis();
    const options = { redisUrl: redis.url, rateLimitNamespace: namespace, queue: createRecordingQueue() };
    const env = { RATE_LIMIT_REDIS_TIMEOUT_MS: String(REDIS_TIMEOUT_MS), RATE_LIMIT_SCALE: String(SCALE) };
    first = await buildTestApp(env, options);
    second = await buildTestApp(env, { ...options, database: first.database });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await redis?.stop();
  });

  /** An unsigned callback: refused (401) once the limiter let it through. */
  const callback = (instance: typeof first, remoteAddress: string) =>
    call(instance.app, 'POST', '/api/payments/callback', { body: { type: 'payment.succeeded' }, remoteAddress });

  it('counts in each instance and leaves Redis alone', async () => {
    expect(max).toBeGreaterThan(1);
    const onFirst: number[] = [];
    for (let index = 0; index <= max; index++) onFirst.push((await callback(first, '10.30.0.1')).status);
    expect(onFirst).toEqual([...Array.from({ length: max }, () => 401), 429]);
    // The other instance has counted nothing of this address.
    expect((await callback(second, '10.30.0.1')).status).toBe(401);
    expect(await first.app.redis?.keys(`${namespace}*callback*`)).toEqual([]);

    // A shared limit over the same Redis still counts there.
    await call(first.app, 'POST', '/api/login', {
      body: { email: `instance.${randomUUID()}@example.com`, password: 'Wrong12345' },
      remoteAddress: '10.30.0.2',
    });
    expect(await first.app.redis?.keys(`${namespace}*`)).not.toHaveLength(0);
  });
});
