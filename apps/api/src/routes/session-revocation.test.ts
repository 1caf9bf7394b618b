import { eventually } from '@store/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../test/accounts.ts';
import { buildTestApp } from '../../test/helper.ts';

// Each instance takes a session it checked a moment ago on trust (packages/core accounts/sessions.ts).
// Two instances over one database: a session ended on one is refused by the other too.

let first: Awaited<ReturnType<typeof buildTestApp>>;
let second: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  first = await buildTestApp();
  second = await buildTestApp({}, { database: first.database });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

const user = (app: typeof first, token: string) => call(app.app, 'GET', '/api/user', { token });

describe('a session that ends', () => {
  it('on one instance is refused there at once and on the other within moments, though both had just checked it', async () => {
    const customer = await registerUser(first.app);
    expect((await user(first, customer.token)).status).toBe(200);
    expect((await user(second, customer.token)).status).toBe(200);

    expect((await call(first.app, 'POST', '/api/logout', { token: customer.token })).status).toBe(204);
    expect((await user(first, customer.token)).status).toBe(401);
    await eventually(async () => (await user(second, customer.token)).status === 401, 2_000);
  });

  it('and one revoked by any other path (here straight in the database) is refused by both', async () => {
    const customer = await registerUser(first.app);
    const other = await call(second.app, 'POST', '/api/login', {
      body: { email: customer.email, password: customer.password },
    });
    expect(other.status).toBe(200);
    const otherToken = other.body.token as string;
    expect((await user(first, otherToken)).status).toBe(200);
    expect((await user(second, otherToken)).status).toBe(200);

    await first.database.prisma.session.updateMany({
      where: { userId: customer.user.id, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    await eventually(async () => (await user(first, otherToken)).status === 401, 2_000);
    await eventually(async () => (await user(second, otherToken)).status === 401, 2_000);
  });
});
