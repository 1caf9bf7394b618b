import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { rawRequest } from '../../test/raw-http.ts';
import { rateLimit } from './rate-limit-presets.ts';

/**
 * A limit belongs to what the router matched, not to how the request target was spelled: every
 * spelling that reaches the login handler counts in the login limit, and every spelling the router
 * does not match is a 404 that counts too. Requests go over a real socket, byte for byte, because
 * `app.inject` would tidy the request target first.
 */
describe('rate limits follow the routed path', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let port: number;
  const wrongLogin = JSON.stringify({ email: 'someone@example.com', password: 'Wrong12345' });
  const json = { 'Content-Type': 'application/json' };

  beforeAll(async () => {
    ctx = await buildTestApp({}, { queue: createRecordingQueue() });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const login = (target: string) => rawRequest(port, 'POST', target, { body: wrongLogin, headers: json });

  it('counts every spelling that reaches the login handler in the login limit', async () => {
    const spellings = [
      'http://store.test/api/login',
      'HTTPS://other.example:8443/api/login',
      '/%61pi/login',
      '/api/%6cogin',
      '/api/login/',
      '/api/login?next=1',
    ];
    const { max } = rateLimit('login');
    for (let attempt = 0; attempt < max; attempt += 1) {
      const target = spellings[attempt % spellings.length]!;
      const response = await login(target);
      expect(response.status, target).toBe(422);
    }
    for (const target of [...spellings, '/api/login']) {
      const response = await login(target);
      expect(response.status, target).toBe(429);
      expect(JSON.parse(response.body).message).toMatch(/^Too many requests/);
    }
  });

  it('answers spellings the router does not match with a 404, never the login handler', async () => {
    for (const target of [
      '//api/login',
      '/api/../api/login',
      '/API/login',
      '/Api/Login',
      '/api//login',
      '/api%2flogin',
    ]) {
      const response = await login(target);
      expect(response.status, target).toBe(404);
    }
  });

  it('counts unknown paths against a limit, so 404s cannot be flooded', async () => {
    // The 404s of the test above already count: at most `max` more reach the not-found handler.
    const { max } = rateLimit('notFound');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < max; attempt += 1) {
      statuses.push(
        attempt % 2 === 0
          ? (await ctx.app.inject({ method: 'GET', url: `/api/no-such-route-${attempt}` })).statusCode
          : (await rawRequest(port, 'GET', `http://store.test/api/missing/${attempt}`)).status,
      );
    }
    expect(statuses[0]).toBe(404);
    expect(new Set(statuses)).toEqual(new Set([404, 429]));
    for (const target of ['/api/no-such-route', '//api/login', '/api/../api/login', '/no-such-page']) {
      const response = await rawRequest(port, 'GET', target);
      expect(response.status, target).toBe(429);
      expect(JSON.parse(response.body).message).toMatch(/^Too many requests/);
    }
  });
});
