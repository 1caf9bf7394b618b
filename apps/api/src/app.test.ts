import { Writable } from 'node:stream';
import { createInProcessQueue, createJobHandlers, createNoMailer, silentLogger } from '@store/core';
import { DatabaseBusyError, Prisma } from '@store/db';
import { createTestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/helper.ts';
import { buildApp, REDACT_PATHS } from './app.ts';
import { loadEnv } from './env.ts';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

describe('health', () => {
  it('GET /health answers while the process runs', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('GET /ready checks the database and runs a job through the queue', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', checks: { database: 'ok', queue: 'ok' } });
  });
});

describe('errors', () => {
  it('answers an unknown API route with a JSON 404', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/no-such-thing?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Route GET /api/no-such-thing not found' });
  });

  it('answers malformed JSON with a 4xx, not a 500', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/categories',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });

  it('sets strict security headers on API responses and helmet headers elsewhere', async () => {
    const api = await ctx.app.inject({ method: 'GET', url: '/api/categories' });
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    const page = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('OpenAPI', () => {
  it('documents every catalogue and search call from the contract', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    for (const path of [
      '/api/categories',
      '/api/categories/{id}',
      '/api/products/{id}',
      '/api/products/for-basket/{id}',
      '/api/products/{id}/similar-products',
      '/api/products/feedbacks/{id}',
      '/api/popular-products',
      '/api/novelties',
      '/api/discounts',
      '/api/countries',
      '/api/currencies',
      '/api/search/hints/{query}',
      '/api/search/products/{query}/filter',
    ]) {
      expect(paths).toContain(path);
    }
  });
});

describe('a standalone app', () => {
  async function standalone(env: Record<string, string>, stream?: Writable) {
    const database = await createTestDatabase();
    const queue = createInProcessQueue(
      createJobHandlers({ sql: database.sql, logger: silentLogger, mailer: createNoMailer() }),
      silentLogger,
    );
    const app = await buildApp({
      env: loadEnv({ NODE_ENV: 'test', WEB_DIST: '/nonexistent', ...env }),
      database,
      queue,
      ...(stream ? { logger: { level: 'info', stream, redact: { paths: REDACT_PATHS, censor: '[redacted]' } } } : {}),
    });
    return {
      app,
      async close() {
        await app.close();
        await queue.close();
        await database.cleanup();
      },
    };
  }

  it('answers 429 with the server message once a preset is exhausted', async () => {
    // The read preset allows 600 a minute; at this scale it allows 3.
    const { app, close } = await standalone({ LOG_LEVEL: 'silent', RATE_LIMIT_SCALE: '0.005' });
    try {
      const statuses: number[] = [];
      let last: { message?: string } = {};
      for (let i = 0; i < 4; i++) {
        const response = await app.inject({ method: 'GET', url: '/api/currencies' });
        statuses.push(response.statusCode);
        last = response.json();
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(last.message).toMatch(/too many requests/i);
    } finally {
      await close();
    }
  });

  it('limits the API only, not the images and pages a page view loads', async () => {
    const { app, close } = await standalone({ LOG_LEVEL: 'silent', RATE_LIMIT_SCALE: '0.005' });
    try {
      const assets: number[] = [];
      for (let i = 0; i < 6; i++) {
        assets.push((await app.inject({ method: 'GET', url: '/static/covers/steam.svg' })).statusCode);
      }
      expect(assets).toEqual([200, 200, 200, 200, 200, 200]);
      const api: number[] = [];
      for (let i = 0; i < 4; i++) api.push((await app.inject({ method: 'GET', url: '/api/currencies' })).statusCode);
      expect(api).toEqual([200, 200, 200, 429]);
    } finally {
      await close();
    }
  });

  it('answers 503 with Retry-After when the database has no connection or transaction to spare', async () => {
    const { app, close } = await standalone({});
    try {
      for (const code of ['P2024', 'P2028']) {
        app.get(`/api/busy-${code}`, async () => {
          throw new Prisma.PrismaClientKnownRequestError('Unable to start a transaction in the given time.', {
            code,
            clientVersion: Prisma.prismaVersion.client,
          });
        });
      }
      // The SQL client's own: no connection of the pool came free in time.
      app.get('/api/busy-pool', async () => {
        throw new DatabaseBusyError(new Error('timeout exceeded when trying to connect'));
      });
      for (const code of ['P2024', 'P2028', 'pool']) {
        const response = await app.inject({ method: 'GET', url: `/api/busy-${code}` });
        expect(response.statusCode).toBe(503);
        expect(response.headers['retry-after']).toBe('2');
        expect(response.json()).toEqual({ message: 'The store is very busy right now. Please try again in a moment.' });
      }
    } finally {
      await close();
    }
  });

  it('hides an unexpected failure behind a 500 with the request id, and logs no secrets', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const { app, close } = await standalone({}, stream);
    try {
      app.get('/api/boom', async () => {
        throw new Error('database password is hunter2');
      });
      const response = await app.inject({
        method: 'GET',
        url: '/api/boom',
        headers: { authorization: 'Bearer secret-token-value' },
      });
      expect(response.statusCode).toBe(500);
      const body = response.json();
      expect(body.message).toBe('Something went wrong on our side.');
      expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.body).not.toContain('hunter2');
      expect(response.body).not.toContain('at ');
      const log = lines.join('');
      expect(log).toContain('hunter2');
      expect(log).not.toContain('secret-token-value');
    } finally {
      await close();
    }
  });
});
