import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';

// A built web app as apps/web's build leaves it: fingerprinted files with .br and .gz beside them.
const webDist = mkdtempSync(path.join(os.tmpdir(), 'store-web-dist-'));
const script = `export const products = ${JSON.stringify(Array.from({ length: 200 }, (_, id) => ({ id, name: `Gift card ${id}` })))};\n`;
const page = `<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body>${'<div></div>'.repeat(200)}</body></html>`;

function writeBuilt(file: string, text: string) {
  const full = path.join(webDist, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  writeFileSync(`${full}.br`, brotliCompressSync(Buffer.from(text)));
  writeFileSync(`${full}.gz`, gzipSync(Buffer.from(text)));
}

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  writeBuilt('assets/index-abc123.js', script);
  writeBuilt('index.html', page);
  ctx = await buildTestApp({ WEB_DIST: webDist });
});
afterAll(async () => {
  await ctx?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  ctx.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('compression', () => {
  it('sends the build’s brotli or gzip file as the browser accepts, and the plain one otherwise', async () => {
    const brotli = await get('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(script);
    expect(brotli.rawPayload.length).toBeLessThan(script.length / 3);

    const gzip = await get('/assets/index-abc123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('sends the app’s page, readable, for / and for any of its routes', async () => {
    for (const url of ['/', '/category/steam']) {
      const response = await get(url, 'gzip, deflate, br');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/text\/html/);
      const encoding = response.headers['content-encoding'];
      const body =
        encoding === 'br'
          ? brotliDecompressSync(response.rawPayload)
          : encoding === 'gzip'
            ? gunzipSync(response.rawPayload)
            : response.rawPayload;
      expect(body.toString(), url).toBe(page);
    }
  });

  it('answers HEAD for the app’s pages with their headers and no body, and stays a JSON 404 under /api', async () => {
    for (const url of ['/', '/category/steam']) {
      const response = await ctx.app.inject({ method: 'HEAD', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.rawPayload.length, url).toBe(0);
    }
    const api = await ctx.app.inject({ method: 'HEAD', url: '/api/no-such-call' });
    expect(api.statusCode).toBe(404);
  });

  it('compresses API answers above a kilobyte, leaving the JSON the same', async () => {
    const plain = await get('/api/popular-products');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);

    const brotli = await get('/api/popular-products', 'br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(brotli.rawPayload).toString())).toEqual(plain.json());

    const gzip = await get('/api/popular-products', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
  });

  it('refuses a compressed request body with a 415 instead of inflating it', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ email: 'a@b.co', password: 'secret123' })),
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ message: 'Request bodies are accepted uncompressed only.' });
  });
});
