import { ErrorKeys, OkResponseSchema, UserResponseSchema } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, emailedToken, registerUser } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { rateLimit } from '../plugins/rate-limit-presets.ts';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;
const queue = createRecordingQueue();

beforeAll(async () => {
  ctx = await buildTestApp({}, { queue });
});
afterAll(async () => {
  await ctx?.close();
});

const NEW_PASSWORD = 'Newpass456';

async function resetLink(remoteAddress: string) {
  const customer = await registerUser(ctx.app);
  await call(ctx.app, 'POST', '/api/password-reset', { body: { email: customer.email }, remoteAddress });
  const { token } = await emailedToken(ctx.database.prisma, customer.email, 'password-reset');
  return { customer, token };
}

describe('GET /api/password-reset/{token}', () => {
  it('says a live link can set a password, without using it up', async () => {
    const { token } = await resetLink('10.7.0.1');
    for (let look = 0; look < 2; look += 1) {
      const checked = await call(ctx.app, 'GET', `/api/password-reset/${token}`, { remoteAddress: '10.7.0.1' });
      expect(checked.status).toBe(200);
      expect(OkResponseSchema.parse(checked.body).ok).toBe(true);
    }
    const reset = await call(ctx.app, 'PATCH', `/api/password-reset/${token}`, {
      body: { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      remoteAddress: '10.7.0.1',
    });
    expect(reset.status).toBe(200);
  });

  it('refuses a used link, an unknown one and a malformed one with a 422 on token', async () => {
    const { token } = await resetLink('10.7.0.2');
    await call(ctx.app, 'PATCH', `/api/password-reset/${token}`, {
      body: { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      remoteAddress: '10.7.0.2',
    });
    const unknown = 'A'.repeat(43);
    for (const dead of [token, unknown, 'not-a-token']) {
      const { status, body } = await call(ctx.app, 'GET', `/api/password-reset/${dead}`, { remoteAddress: '10.7.0.3' });
      expect(status, dead).toBe(422);
      expect(Object.keys(body.errors)).toEqual(['token']);
    }
    const used = await call(ctx.app, 'GET', `/api/password-reset/${token}`, { remoteAddress: '10.7.0.4' });
    expect(used.body.errors.token).toEqual([ErrorKeys.tokenInvalid]);
  });

  it('is rate limited like the other password-reset calls', async () => {
    const { max } = rateLimit('passwordReset');
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= max; attempt += 1) {
      statuses.push(
        (await call(ctx.app, 'GET', `/api/password-reset/${'B'.repeat(43)}`, { remoteAddress: '10.7.1.1' })).status,
      );
    }
    expect(statuses.slice(0, max).every((status) => status === 422)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('POST /api/profile/activation-request', () => {
  it('mails a new activation link through the outbox; the link activates the account', async () => {
    const customer = await registerUser(ctx.app);
    const first = await emailedToken(ctx.database.prisma, customer.email, 'account-activation');
    const requested = await call(ctx.app, 'POST', '/api/profile/activation-request', {
      token: customer.token,
      remoteAddress: '10.7.2.1',
    });
    expect(requested.status).toBe(200);
    const second = await emailedToken(ctx.database.prisma, customer.email, 'account-activation');
    expect(second.row.id).not.toBe(first.row.id);
    expect(second.token).not.toBe(first.token);
    expect(queue.jobs.some(({ job }) => JSON.stringify(job).includes(second.row.id))).toBe(true);

    const activated = await call(ctx.app, 'POST', '/api/account/activate', { body: { token: second.token } });
    expect(UserResponseSchema.parse(activated.body).user.activated).toBe(true);

    const again = await call(ctx.app, 'POST', '/api/profile/activation-request', {
      token: customer.token,
      remoteAddress: '10.7.2.1',
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already activated/);
  });

  it('needs a signed-in customer', async () => {
    expect((await call(ctx.app, 'POST', '/api/profile/activation-request', { remoteAddress: '10.7.2.2' })).status).toBe(
      401,
    );
  });

  it('is rate limited like the other mailing calls', async () => {
    const { max } = rateLimit('emailVerify');
    const customer = await registerUser(ctx.app);
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= max; attempt += 1) {
      const answer = await call(ctx.app, 'POST', '/api/profile/activation-request', {
        token: customer.token,
        remoteAddress: '10.7.3.1',
      });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, max).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
