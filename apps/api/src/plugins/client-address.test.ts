import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue, type TestDatabase } from '../../test/helper.ts';
import { rateLimit } from './rate-limit-presets.ts';

const forged = () => `203.0.113.${randomBytes(1)[0]}, 198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

/**
 * Which address a limit counts: a client that writes its own X-Forwarded-For must meet the limit
 * like any other, whatever TRUST_PROXY says; only what a trusted proxy appended names the client.
 */
describe('the client address behind TRUST_PROXY', () => {
  const apps: Array<Awaited<ReturnType<typeof buildTestApp>>> = [];
  let database: TestDatabase;
  const { max } = rateLimit('login');

  async function appWith(trustProxy?: string) {
    const ctx = await buildTestApp(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }, {
      queue: createRecordingQueue(),
      database,
    });
    apps.push(ctx);
    return ctx.app;
  }

  beforeAll(async () => {
    const first = await buildTestApp({}, { queue: createRecordingQueue() });
    apps.push(first);
    database = first.database;
  });
  afterAll(async () => {
    for (const ctx of apps.reverse()) await ctx.close();
  });

  /** Wrong-password logins from one socket address, each with the X-Forwarded-For given. */
  async function statuses(
    app: Awaited<ReturnType<typeof appWith>>,
    remoteAddress: string,
    forwardedFor: () => string,
    count = max + 1,
  ) {
    const email = `proxy.${randomBytes(4).toString('hex')}@example.com`;
    const seen: number[] = [];
    for (let attempt = 0; attempt < count; attempt += 1) {
      const response = await call(app, 'POST', '/api/login', {
        body: { email, password: 'Wrong12345' },
        remoteAddress,
        headers: { 'x-forwarded-for': forwardedFor() },
      });
      seen.push(response.status);
    }
    return seen;
  }

  const limited = [...Array.from({ length: max }, () => 422), 429];

  it('ignores X-Forwarded-For by default', async () => {
    const app = apps[0]!.app;
    expect(await statuses(app, '198.51.100.1', forged)).toEqual(limited);
  });

  it('with one hop, counts the right-most forwarded address, whatever the client wrote before it', async () => {
    const app = await appWith('1');
    // The proxy appends the address it saw; the client's own entries come first.
    expect(await statuses(app, '10.0.0.2', () => `${forged()}, 198.51.100.2`)).toEqual(limited);
    // Another client behind the same proxy has its own count.
    expect(await statuses(app, '10.0.0.2', () => `${forged()}, 198.51.100.3`, 1)).toEqual([422]);
  });

  it('with a list of proxies, believes X-Forwarded-For only from them', async () => {
    const app = await appWith('10.0.0.0/8');
    expect(await statuses(app, '10.1.2.3', () => `${forged()}, 198.51.100.4`)).toEqual(limited);
    expect(await statuses(app, '10.1.2.3', () => `${forged()}, 198.51.100.5`, 1)).toEqual([422]);
    // Straight from the internet: the header is the client's own and changes nothing.
    expect(await statuses(app, '198.51.100.6', forged)).toEqual(limited);
  });
});
