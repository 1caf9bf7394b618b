import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, PASSWORD, registerUser, uniqueCustomer } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { rateLimit } from '../plugins/rate-limit-presets.ts';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  process.stderr.write('\n*** REDIS_URL is not set: the shared rate-limit tests are SKIPPED. ***\n\n');
}

/**
 * Two API instances over one Redis and one database, as behind a load balancer: a client that
 * spreads its attempts over both still meets the limit. Each run counts under its own prefix.
 */
describe.skipIf(!redisUrl)('rate limits shared through Redis', () => {
  let first: Awaited<ReturnType<typeof buildTestApp>>;
  let second: Awaited<ReturnType<typeof buildTestApp>>;

  beforeAll(async () => {
    const options = { redisUrl, rateLimitNamespace: `test-rate-limit:${randomUUID()}:`, queue: createRecordingQueue() };
    first = await buildTestApp({}, options);
    second = await buildTestApp({}, { ...options, database: first.database });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  /** Alternates the instances until the limit answers; returns the statuses seen. */
  async function exhaust(
    method: 'POST' | 'PATCH',
    url: string,
    body: () => unknown,
    remoteAddress: string,
    max: number,
  ) {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let attempt = 0; attempt <= max; attempt += 1) {
      const app = attempt % 2 === 0 ? first.app : second.app;
      last = await call(app, method, url, { body: body(), remoteAddress });
      statuses.push(last.status);
    }
    return { statuses, last: last! };
  }

  it('limits logins across both instances, with the server message', async () => {
    const { max } = rateLimit('login');
    const { email } = await registerUser(first.app);
    const { statuses, last } = await exhaust(
      'POST',
      '/api/login',
      () => ({ email, password: 'Wrong12345' }),
      '10.0.0.1',
      max,
    );
    expect(statuses.slice(0, max).every((status) => status === 422)).toBe(true);
    expect(last.status).toBe(429);
    expect(last.body.message).toMatch(/^Too many requests\. Please try again in .+\.$/);
    expect(last.headers['retry-after']).toBeDefined();
    // Even the right password waits now, on either instance.
    expect(
      (await call(second.app, 'POST', '/api/login', { body: { email, password: PASSWORD }, remoteAddress: '10.0.0.1' }))
        .status,
    ).toBe(429);
    // Another client is not affected.
    expect(
      (await call(second.app, 'POST', '/api/login', { body: { email, password: PASSWORD }, remoteAddress: '10.0.0.2' }))
        .status,
    ).toBe(200);
  });

  it('limits registrations', async () => {
    const { max } = rateLimit('register');
    const { statuses, last } = await exhaust(
      'POST',
      '/api/register',
      () => ({ ...uniqueCustomer(), password: PASSWORD, password_confirmation: PASSWORD }),
      '10.0.1.1',
      max,
    );
    expect(statuses.slice(0, max).every((status) => status === 201)).toBe(true);
    expect(last.status).toBe(429);
    expect(typeof last.body.message).toBe('string');
  });

  it('limits password-reset requests', async () => {
    const { max } = rateLimit('passwordReset');
    const { statuses, last } = await exhaust(
      'POST',
      '/api/password-reset',
      () => ({ email: 'someone@example.com' }),
      '10.0.2.1',
      max,
    );
    // An address without an account is refused, and the refusals count: trying addresses one after
    // another stops at the limit.
    expect(statuses.slice(0, max).every((status) => status === 422)).toBe(true);
    expect(last.status).toBe(429);
  });

  it('limits email-verification requests', async () => {
    const { max } = rateLimit('emailVerify');
    const { token } = await registerUser(first.app, {});
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= max; attempt += 1) {
      const app = attempt % 2 === 0 ? first.app : second.app;
      statuses.push(
        (await call(app, 'POST', '/api/profile/email-verify-request', { token, remoteAddress: '10.0.3.1' })).status,
      );
    }
    expect(statuses.slice(0, max).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('rate limits of the embedded mode (in memory)', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;

  beforeAll(async () => {
    ctx = await buildTestApp({}, { queue: createRecordingQueue() });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('limits logins per client with a 429 and the server message', async () => {
    const { max } = rateLimit('login');
    const body = { email: 'someone@example.com', password: 'Wrong12345' };
    for (let attempt = 0; attempt < max; attempt += 1) {
      expect((await call(ctx.app, 'POST', '/api/login', { body, remoteAddress: '10.1.0.1' })).status).toBe(422);
    }
    const limited = await call(ctx.app, 'POST', '/api/login', { body, remoteAddress: '10.1.0.1' });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Too many requests/);
  });
});
