import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, emailedToken, registerUser } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { loggerOptions, REDACT_PATHS, redactUrl } from '../app.ts';
import { loadEnv } from '../env.ts';

const lines: string[] = [];
let ctx: Awaited<ReturnType<typeof buildTestApp>>;
/** A built web app of two files, so page and file requests are served as in production. */
const webDist = mkdtempSync(path.join(tmpdir(), 'store-web-'));

beforeAll(async () => {
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>store</title>');
  writeFileSync(path.join(webDist, 'assets', 'app.js'), 'export {};');
  const production = loggerOptions(loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'info' })) as object;
  ctx = await buildTestApp(
    { RATE_LIMIT_SCALE: '1000', WEB_DIST: webDist },
    { queue: createRecordingQueue(), logger: { ...production, stream: { write: (line: string) => lines.push(line) } } },
  );
});
afterAll(async () => {
  await ctx?.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('the request log', () => {
  it('names every secret field of the account payloads among the redacted paths', () => {
    for (const field of ['password', 'newPassword', 'password_confirmation', 'new_password_confirmation', 'token']) {
      expect(REDACT_PATHS).toContain(`*.${field}`);
    }
    expect(REDACT_PATHS).toContain('req.headers.authorization');
  });

  const token = 'Tk_-0123456789abcdefghijklmnopqrstuvwxyzABC';

  it.each([
    [`/api/password-reset/${token}`, '/api/password-reset/[redacted]'],
    [`/api/profile/email-update-confirmation/${token}?x=1`, '/api/profile/email-update-confirmation/[redacted]?x=1'],
    [`/password-reset/${token}`, '/password-reset/[redacted]'],
    [`/verify-email/${token}`, '/verify-email/[redacted]'],
    [`/api/profile/email-update/undo/${token}`, '/api/profile/email-update/undo/[redacted]'],
    [`/email-change-undo/${token.slice(0, 40)}`, '/email-change-undo/[redacted]'],
    [`/?accountToken=${token}`, '/?accountToken=[redacted]'],
    [`/?emailToken=${token}&utm_source=mail`, '/?emailToken=[redacted]&utm_source=mail'],
    [`/profile?passwordToken=${token}`, '/profile?passwordToken=[redacted]'],
    [`/?ACCOUNTTOKEN=${token}`, '/?ACCOUNTTOKEN=[redacted]'],
    [`/?account%54oken=${token}`, '/?account%54oken=[redacted]'],
    ['/?accountToken=short', '/?accountToken=[redacted]'],
    [`/?next=${token}`, '/?next=[redacted]'],
    [`/?${token}`, '/?[redacted]'],
    [`/api/password-reset/%${token.charCodeAt(0).toString(16)}${token.slice(1)}`, '/api/password-reset/[redacted]'],
    [`/api/Password-Reset/${token}`, '/api/Password-Reset/[redacted]'],
    [`/api/password%2Dreset/${token.slice(0, 40)}`, '/api/password%2Dreset/[redacted]'],
    [`/anything/${token}/more`, '/anything/[redacted]/more'],
    [`http://store.example/api/password-reset/${token}`, 'http://store.example/api/password-reset/[redacted]'],
    [`//api/verify-email/${token}`, '//api/verify-email/[redacted]'],
  ])('masks the token in %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it.each([
    '/api/products/12',
    '/api/categories/steam?page=2&sort=popular&currency=BRL,USD',
    '/api/search/hints/steam%20gift',
    '/assets/index-Dx4k2.js',
    '/?paymentConfirmOrder=42&showModal=success',
    '/%zz?x=%zz',
  ])('leaves %s as it is', (url) => {
    expect(redactUrl(url)).toBe(url);
  });

  it('holds no password, bearer token or emailed token after a round of account calls', async () => {
    const { token: bearer, email, password } = await registerUser(ctx.app);
    await call(ctx.app, 'POST', '/api/login', { body: { email, password } });
    await call(ctx.app, 'POST', '/api/password-reset', { body: { email } });
    const { token } = await emailedToken(ctx.database.prisma, email, 'password-reset');
    const reset = await call(ctx.app, 'PATCH', `/api/password-reset/${token}`, {
      body: { password: 'Logged1234', password_confirmation: 'Logged1234' },
      token: bearer,
    });
    expect(reset.status).toBe(200);
    const log = lines.join('');
    expect(log).toContain('/api/password-reset/[redacted]');
    for (const secret of [password, 'Logged1234', bearer, token]) expect(log).not.toContain(secret);
  });
});

describe('the request log of pages, files and unknown paths', () => {
  it('holds no emailed token, however the link reached the server', async () => {
    const sent = 'Zq9-_RANDOMxTOKENxFORxTHExLOGxTEST012345678';
    expect(sent).toHaveLength(43);
    const before = lines.length;
    const requests: Array<[string, number]> = [
      [`/?accountToken=${sent}`, 200],
      [`/?emailToken=${sent}`, 200],
      [`/profile?passwordToken=${sent}`, 200],
      [`/password-reset/${sent}`, 200],
      [`/verify-email/${sent}`, 200],
      [`/assets/app.js?emailToken=${sent}`, 200],
      [`/static/covers/none.png?accountToken=${sent}`, 404],
      [`/api/nothing-here/${sent}`, 404],
      [`/api/nothing-here?passwordToken=${sent}`, 404],
      // The link check (GET /api/password-reset/{token}) knows no such token.
      [`/api/password-reset/%${sent.charCodeAt(0).toString(16)}${sent.slice(1)}`, 422],
    ];
    for (const [url, status] of requests) {
      expect((await ctx.app.inject({ method: 'GET', url })).statusCode, url).toBe(status);
    }
    const logged = lines.slice(before).join('');
    expect(logged.match(/"msg":"incoming request"/g)).toHaveLength(requests.length);
    expect(logged.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(requests.length);
    // Not the token, nor a long piece of it.
    expect(logged).not.toContain(sent.slice(1, 20));
    expect(logged).not.toContain(sent.slice(20));
  });
});
