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
