import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts.ts';
import { buildTestApp } from '../../test/helper.ts';

// GET /metrics of an API instance: Prometheus' text format for the loopback address or the token,
// the store's own 404 for anyone else, and every request counted by the route as routed.

const TOKEN = 'metrics-token-for-the-test-0123';
let ctx: Awaited<ReturnType<typeof buildTestApp>>;
// The storefront's pages are served as `pnpm start` serves them: an unknown page gets the shop's shell.
const webDist = mkdtempSync(path.join(tmpdir(), 'store-web-'));

beforeAll(async () => {
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>shop</title>');
  ctx = await buildTestApp({ METRICS_TOKEN: TOKEN, WEB_DIST: webDist });
});
afterAll(async () => {
  await ctx?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const scrape = (remoteAddress: string, authorization?: string) =>
  ctx.app.inject({
    method: 'GET',
    url: '/metrics',
    remoteAddress,
    ...(authorization ? { headers: { authorization } } : {}),
  });

describe('GET /metrics', () => {
  it('answers the loopback address with the store’s metrics, the requests counted by their route', async () => {
    expect((await call(ctx.app, 'GET', '/api/products/1')).status).toBe(200);
    expect((await call(ctx.app, 'GET', `/api/products/2?nonsense=${Math.random()}`)).status).toBe(200);
    const answer = await scrape('127.0.0.1');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = answer.body;
    for (const name of [
      'store_orders',
      'store_payment_events',
      'store_outbox_emails',
      'store_product_stock_low',
      'store_queue_jobs',
      'store_ledger_problems',
      'store_process_resident_memory_bytes',
    ]) {
      expect(text, name).toContain(name);
    }
    // One series for the route whatever its id and query; the raw URL is never a label.
    const counted = text
      .split('\n')
      .find(
        (line) =>
          line.startsWith('store_http_request_duration_seconds_count{') &&
          line.includes('route="/api/products/:id"') &&
          line.includes('status="200"'),
      );
    expect(counted).toMatch(/ 2$/);
    expect(text).not.toContain('nonsense');
    expect(text).not.toContain('/api/products/1"');
  });

  it('answers another address only with the token, and otherwise a 404 as for a route there is not', async () => {
    const refused = await scrape('203.0.113.7');
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: 'Route GET /metrics not found' });
    expect(refused.body).not.toContain('store_');
    expect((await scrape('203.0.113.7', 'Bearer wrong-token-wrong-token-000')).statusCode).toBe(404);
    const allowed = await scrape('203.0.113.7', `Bearer ${TOKEN}`);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('store_orders');
    // A forwarded address is not the socket's: it opens nothing.
    const forged = await ctx.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(forged.statusCode).toBe(404);
  });
});
