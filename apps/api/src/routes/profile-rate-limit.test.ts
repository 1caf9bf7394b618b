import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, PASSWORD, registerUser, uniqueCustomer } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { rateLimit } from '../plugins/rate-limit-presets.ts';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp({}, { queue: createRecordingQueue() });
});
afterAll(async () => {
  await ctx?.close();
});

describe('PATCH /api/profile/email-update is limited', () => {
  it('by the mailing preset: guessing passwords or probing addresses meets a 429', async () => {
    const { max } = rateLimit('emailVerify');
    const { token } = await registerUser(ctx.app);
    const remoteAddress = '10.2.0.1';
    const change = (password: string) =>
      call(ctx.app, 'PATCH', '/api/profile/email-update', {
        body: { email: uniqueCustomer().email, password },
        token,
        remoteAddress,
      });
    for (let attempt = 0; attempt < max; attempt += 1) {
      expect((await change(`Guess${attempt}abc`)).status).toBe(422);
    }
    const limited = await change(PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Too many requests/);
    // Another client is not affected.
    const other = await call(ctx.app, 'PATCH', '/api/profile/email-update', {
      body: { email: uniqueCustomer().email, password: PASSWORD },
      token,
      remoteAddress: '10.2.0.2',
    });
    expect(other.status).toBe(200);
  });
});
