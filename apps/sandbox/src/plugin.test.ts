import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, buildSandbox, type TestSandbox } from './test-support.ts';

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await buildSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

describe('the plugin', () => {
  it('answers JSON where the caller is a program, with no-store and nosniff', async () => {
    const unknown = await sandbox.app.inject({ method: 'GET', url: '/sandbox/api/v1/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Not found.' });
    const malformed = await sandbox.app.inject({
      method: 'POST',
      url: '/sandbox/api/v1/payments',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      payload: '{"method":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers['content-type']).toContain('application/json');
    expect(malformed.headers['cache-control']).toBe('no-store');
    expect(malformed.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers pages where the caller is a browser, refusing to be framed', async () => {
    const response = await sandbox.app.inject({ method: 'GET', url: '/sandbox/no-such-page' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('answers a missing page in the browser’s language, or the one lang asks for', async () => {
    const ru = await sandbox.app.inject({
      method: 'GET',
      url: '/sandbox/no-such-page',
      headers: { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.8' },
    });
    expect(ru.statusCode).toBe(404);
    expect(ru.body).toContain('<html lang="ru">');
    expect(ru.body).toContain('Такой страницы в песочнице нет.');
    const hi = await sandbox.app.inject({
      method: 'GET',
      url: '/sandbox/no-such-page?lang=hi',
      headers: { 'accept-language': 'ru' },
    });
    expect(hi.body).toContain('<html lang="hi">');
    expect(hi.headers['content-language']).toBe('hi');
  });

  it('escapes what it shows', async () => {
    const response = await sandbox.app.inject({
      method: 'POST',
      url: '/sandbox/api/v1/payments',
      headers: { authorization: `Bearer ${API_KEY}` },
      payload: {
        method: 'qr',
        scheme: 'sbp',
        order_id: 'order-xss',
        amount_minor: 100,
        currency: 'RUB',
        description: '<script>alert(1)</script>',
        callback_url: 'http://127.0.0.1:9/cb',
      },
    });
    const page = await sandbox.app.inject({
      method: 'GET',
      url: new URL(response.json().next_action.pay_link).pathname,
    });
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toContain('<script>alert(1)');
  });

  it('refuses an oversized form', async () => {
    const response = await sandbox.app.inject({
      method: 'POST',
      url: '/sandbox/hosted',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `Request=${'A'.repeat(70 * 1024)}`,
    });
    expect(response.statusCode).toBe(413);
  });
});

describe('the merchant’s calls', () => {
  const merchantCall = (app: TestSandbox['app'], remoteAddress: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'GET',
      url: '/sandbox/admin/chaos',
      headers: { authorization: `Bearer ${API_KEY}`, ...headers },
      remoteAddress,
    });

  it('are answered on the loopback address only, the socket’s and not a header’s', async () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect((await merchantCall(sandbox.app, address)).statusCode).toBe(200);
    }
    for (const address of ['203.0.113.7', '10.0.0.5', 'fe80::1', '::ffff:192.168.1.2']) {
      const refused = await merchantCall(sandbox.app, address, { 'x-forwarded-for': '127.0.0.1' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: 'The merchant API answers calls from this machine only.' });
    }
    // A proxy on this machine makes every client look local: what it forwards is from the network.
    for (const header of ['forwarded', 'x-forwarded-for', 'x-real-ip']) {
      expect((await merchantCall(sandbox.app, '127.0.0.1', { [header]: '203.0.113.7' })).statusCode).toBe(403);
    }
  });

  it('still need the key from this machine', async () => {
    expect((await merchantCall(sandbox.app, '127.0.0.1', { authorization: 'Bearer wrong' })).statusCode).toBe(401);
  });

  it('come from the network when the sandbox is told so (the full stack)', async () => {
    const networked = await buildSandbox({ merchantFromNetwork: true });
    try {
      expect((await merchantCall(networked.app, '172.18.0.5')).statusCode).toBe(200);
      expect((await merchantCall(networked.app, '172.18.0.5', { authorization: 'Bearer wrong' })).statusCode).toBe(401);
    } finally {
      await networked.close();
    }
  });
});
