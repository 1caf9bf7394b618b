import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, emailedToken, registerUser } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { loggerOptions, REDACT_PATHS, redactUrl } from '../app.ts';
import { loadEnv } from '../env.ts';

const lines: string[] = [];
let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  const production = loggerOptions(loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'info' })) as object;
  ctx = await buildTestApp(
    { RATE_LIMIT_SCALE: '1000' },
    { queue: createRecordingQueue(), logger: { ...production, stream: { write: (line: string) => lines.push(line) } } },
  );
});
afterAll(async () => {
  await ctx?.close();
});

describe('the request log', () => {
  it('names every secret field of the account payloads among the redacted paths', () => {
    for (const field of ['password', 'newPassword', 'password_confirmation', 'new_password_confirmation', 'token']) {
      expect(REDACT_PATHS).toContain(`*.${field}`);
    }
    expect(REDACT_PATHS).toContain('req.headers.authorization');
  });

  it('masks emailed tokens in paths', () => {
    const token = 'A'.repeat(43);
    expect(redactUrl(`/api/password-reset/${token}`)).toBe('/api/password-reset/[redacted]');
    expect(redactUrl(`/api/profile/email-update-confirmation/${token}?x=1`)).toBe(
      '/api/profile/email-update-confirmation/[redacted]?x=1',
    );
    expect(redactUrl('/api/products/12')).toBe('/api/products/12');
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
