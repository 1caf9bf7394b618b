import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';

// The shop's and the console's builds side by side, as `pnpm start` and the image leave them.
const root = mkdtempSync(path.join(os.tmpdir(), 'store-admin-dist-'));
const webDist = path.join(root, 'web');
const adminDist = path.join(root, 'admin');
const shopPage = '<!doctype html><title>shop</title>';
const consolePage =
  '<!doctype html><title>console</title><script type="module" src="/admin/assets/index-abc.js"></script>';
const consoleScript = 'export const console = true;\n';

function write(file: string, text: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  write(path.join(webDist, 'index.html'), shopPage);
  write(path.join(adminDist, 'index.html'), consolePage);
  write(path.join(adminDist, 'assets/index-abc.js'), consoleScript);
  ctx = await buildTestApp({ WEB_DIST: webDist, ADMIN_DIST: adminDist });
});
afterAll(async () => {
  await ctx?.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (url: string) => ctx.app.inject({ method: 'GET', url });

describe('the operator console under /admin', () => {
  it('sends its own page for every console route, with a policy that allows only this origin', async () => {
    for (const url of [
      '/admin',
      '/admin/',
      '/admin/sign-in',
      '/admin/orders/6f1c0b6e-4c39-4a5e-9b1e-0d6c3f1b2a90?tab=1',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/text\/html/);
      expect(response.body, url).toBe(consolePage);
      const policy = String(response.headers['content-security-policy']);
      expect(policy, url).toContain("connect-src 'self'");
      expect(policy, url).toContain("frame-src 'none'");
      expect(policy, url).toContain("frame-ancestors 'none'");
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.headers['x-robots-tag'], url).toBe('noindex, nofollow');
    }
  });

  it('sends its fingerprinted files for a year, and a JSON 404 for one that is not there', async () => {
    const script = await get('/admin/assets/index-abc.js');
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe(consoleScript);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const missing = await get('/admin/assets/index-gone.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Route GET /admin/assets/index-gone.js not found' });
  });

  it('leaves the shop its own page and policy', async () => {
    const shop = await get('/orders');
    expect(shop.statusCode).toBe(200);
    expect(shop.body).toBe(shopPage);
    expect(String(shop.headers['content-security-policy'])).not.toContain("frame-src 'none'");
  });
});
