import { ErrorKeys, OkResponseSchema, UserResponseSchema } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, emailedToken, expectFieldError, PASSWORD, registerUser, uniqueCustomer } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';

const PUBLIC_URL = 'https://store.example';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp({ PUBLIC_URL, RATE_LIMIT_SCALE: '1000' }, { queue: createRecordingQueue() });
});
afterAll(async () => {
  await ctx?.close();
});

const post = (url: string, body?: unknown, token?: string) => call(ctx.app, 'POST', url, { body, token });
const patch = (url: string, body?: unknown, token?: string) => call(ctx.app, 'PATCH', url, { body, token });
const getUser = (token?: string) => call(ctx.app, 'GET', '/api/user', { token });
/** The outbox rows written to an address, oldest first. */
const outbox = (to: string) =>
  ctx.database.prisma.outboundEmail.findMany({ where: { toAddress: to }, orderBy: { createdAt: 'asc' } });

describe('every profile call needs a live session', () => {
  it.each([
    ['POST', '/api/profile/email-verify-request'],
    ['POST', '/api/profile/email-verify'],
    ['PATCH', '/api/profile/email-update'],
    ['PATCH', `/api/profile/email-update-confirmation/${'a'.repeat(43)}`],
    ['PATCH', '/api/profile/password-update'],
    ['POST', '/api/profile/password-update-confirmation'],
    ['PATCH', '/api/profile/name-update'],
    ['PATCH', '/api/profile/locale'],
    ['POST', '/api/products/feedbacks'],
  ] as const)('%s %s', async (method, url) => {
    const response = await call(ctx.app, method, url, { body: {} });
    expect(response.status).toBe(401);
    expect(typeof response.body.message).toBe('string');
  });
});

describe('email verification', () => {
  it('mails a link and verifies the address with its token, once', async () => {
    const { token, email } = await registerUser(ctx.app);
    const request = await post('/api/profile/email-verify-request', undefined, token);
    expect(request.status).toBe(200);
    OkResponseSchema.parse(request.body);
    const { token: verifyToken, link } = await emailedToken(ctx.database.prisma, email, 'email-verify');
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/verify-email/[A-Za-z0-9_-]{43}$`));

    const response = await post('/api/profile/email-verify', { token: verifyToken }, token);
    expect(response.status).toBe(200);
    expect(UserResponseSchema.parse(response.body).user.verified).toBe(true);
    expectFieldError(
      await post('/api/profile/email-verify', { token: verifyToken }, token),
      'token',
      ErrorKeys.tokenInvalid,
    );
  });

  it("refuses another customer's token, and keeps it usable by its owner", async () => {
    const owner = await registerUser(ctx.app);
    const intruder = await registerUser(ctx.app);
    await post('/api/profile/email-verify-request', undefined, owner.token);
    const { token } = await emailedToken(ctx.database.prisma, owner.email, 'email-verify');
    expectFieldError(
      await post('/api/profile/email-verify', { token }, intruder.token),
      'token',
      ErrorKeys.tokenInvalid,
    );
    expect((await getUser(intruder.token)).body.user.verified).toBe(false);
    expect((await post('/api/profile/email-verify', { token }, owner.token)).status).toBe(200);
  });

  it('refuses a malformed or expired token, and one of another purpose', async () => {
    const { token, email, user } = await registerUser(ctx.app);
    expectFieldError(await post('/api/profile/email-verify', { token: 'x' }, token), 'token', ErrorKeys.tokenInvalid);
    expectFieldError(await post('/api/profile/email-verify', { token: 42 }, token), 'token', ErrorKeys.tokenInvalid);
    const activation = await emailedToken(ctx.database.prisma, email, 'account-activation');
    expectFieldError(
      await post('/api/profile/email-verify', { token: activation.token }, token),
      'token',
      ErrorKeys.tokenInvalid,
    );
    await post('/api/profile/email-verify-request', undefined, token);
    const { token: verifyToken } = await emailedToken(ctx.database.prisma, email, 'email-verify');
    await ctx.database.prisma.emailToken.updateMany({
      where: { userId: user.id, purpose: 'EMAIL_VERIFY' },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    expectFieldError(
      await post('/api/profile/email-verify', { token: verifyToken }, token),
      'token',
      ErrorKeys.tokenInvalid,
    );
  });
});

describe('email change', () => {
  /** The sessions of a user still live, by id. */
  const liveSessions = async (userId: string) =>
    (await ctx.database.prisma.session.findMany({ where: { userId, revokedAt: null }, select: { id: true } })).map(
      (session) => session.id,
    );

  it('mails the new address and switches to it on confirmation', async () => {
    const { token, email, user } = await registerUser(ctx.app);
    const { email: newEmail } = uniqueCustomer();
    const request = await patch(
      '/api/profile/email-update',
      { email: newEmail.toUpperCase(), password: PASSWORD },
      token,
    );
    expect(request.status).toBe(200);
    OkResponseSchema.parse(request.body);
    const { token: changeToken, link, row } = await emailedToken(ctx.database.prisma, newEmail, 'email-change');
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/\\?emailToken=[A-Za-z0-9_-]{43}$`));
    expect(row.toAddress).toBe(newEmail);
    const stored = await ctx.database.prisma.emailToken.findFirstOrThrow({
      where: { userId: user.id, purpose: 'EMAIL_CHANGE' },
    });
    expect(stored.payload).toEqual({ email: newEmail });
    expect((await getUser(token)).body.user.email).toBe(email);

    const confirm = await patch(`/api/profile/email-update-confirmation/${changeToken}`, undefined, token);
    expect(confirm.status).toBe(200);
    expect(UserResponseSchema.parse(confirm.body).user).toMatchObject({ email: newEmail, verified: true });
    expect((await post('/api/login', { email: newEmail, password: PASSWORD })).status).toBe(200);
    expect((await post('/api/login', { email, password: PASSWORD })).status).toBe(422);
    expectFieldError(
      await patch(`/api/profile/email-update-confirmation/${changeToken}`, undefined, token),
      'token',
      ErrorKeys.tokenInvalid,
    );
  });

  it('checks the current password when one is sent, and mails nothing after a wrong one', async () => {
    const { token } = await registerUser(ctx.app);
    const { email: wanted } = uniqueCustomer();
    const wrong = await patch('/api/profile/email-update', { email: wanted, password: 'Wrong12345' }, token);
    expectFieldError(wrong, 'password', ErrorKeys.wrongPassword);
    expect(wrong.body.errors).toEqual({ password: [ErrorKeys.wrongPassword] });
    expectFieldError(
      await patch('/api/profile/email-update', { email: wanted, password: '' }, token),
      'password',
      ErrorKeys.requiredField,
    );
    expect(await outbox(wanted)).toEqual([]);
  });

  it('takes the new address alone: the link goes to it, and confirming it works as with the password', async () => {
    const { token, email } = await registerUser(ctx.app);
    const { email: wanted } = uniqueCustomer();
    const request = await patch('/api/profile/email-update', { email: wanted }, token);
    expect(request.status).toBe(200);
    OkResponseSchema.parse(request.body);
    const { token: changeToken } = await emailedToken(ctx.database.prisma, wanted, 'email-change');
    expect((await getUser(token)).body.user.email).toBe(email);
    const confirm = await patch(`/api/profile/email-update-confirmation/${changeToken}`, undefined, token);
    expect(UserResponseSchema.parse(confirm.body).user.email).toBe(wanted);
    expect((await emailedToken(ctx.database.prisma, email, 'email-changed')).row.toAddress).toBe(email);
  });

  it('answers a taken address (any case) exactly as a free one, and tells its holder instead', async () => {
    const me = await registerUser(ctx.app);
    const holder = await registerUser(ctx.app);
    await patch('/api/profile/locale', { locale: 'ru' }, holder.token);
    const tokensBefore = await ctx.database.prisma.emailToken.count({ where: { userId: me.user.id } });

    const taken = await patch(
      '/api/profile/email-update',
      { email: holder.email.toUpperCase(), password: PASSWORD },
      me.token,
    );
    const { email: other } = uniqueCustomer();
    const untaken = await patch('/api/profile/email-update', { email: other, password: PASSWORD }, me.token);
    expect(taken.status).toBe(200);
    expect(untaken.status).toBe(200);
    expect(taken.body).toEqual(untaken.body);

    const [notice, ...more] = (await outbox(holder.email)).filter((row) => row.template !== 'account-activation');
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ template: 'email-in-use', locale: 'ru' });
    expect(notice?.data).toMatchObject({ name: holder.user.name, link: `${PUBLIC_URL}/` });
    // No token names the taken address, and the holder's account is as it was.
    const tokens = await ctx.database.prisma.emailToken.findMany({ where: { userId: me.user.id } });
    expect(tokens).toHaveLength(tokensBefore + 1);
    expect(tokens.map((row) => row.payload)).not.toContainEqual({ email: holder.email });
    expect((await getUser(holder.token)).body.user.email).toBe(holder.email);
  });

  it('ends the earlier link after a request for a taken address just as after one for a free address', async () => {
    for (const takenNext of [false, true]) {
      const me = await registerUser(ctx.app);
      const { email: first } = uniqueCustomer();
      await patch('/api/profile/email-update', { email: first, password: PASSWORD }, me.token);
      const { token } = await emailedToken(ctx.database.prisma, first, 'email-change');
      const next = takenNext ? (await registerUser(ctx.app)).email : uniqueCustomer().email;
      expect((await patch('/api/profile/email-update', { email: next, password: PASSWORD }, me.token)).status).toBe(
        200,
      );
      expectFieldError(
        await patch(`/api/profile/email-update-confirmation/${token}`, undefined, me.token),
        'token',
        ErrorKeys.tokenInvalid,
      );
    }
  });

  it('refuses the current address and a malformed one', async () => {
    const me = await registerUser(ctx.app);
    expectFieldError(
      await patch('/api/profile/email-update', { email: me.email.toUpperCase(), password: PASSWORD }, me.token),
      'email',
      ErrorKeys.sameEmail,
    );
    expectFieldError(
      await patch('/api/profile/email-update', { email: 'nope', password: PASSWORD }, me.token),
      'email',
      ErrorKeys.invalidEmailFormat,
    );
    expectFieldError(
      await patch('/api/profile/email-update', { email: 'new@example.com(x)', password: PASSWORD }, me.token),
      'email',
      ErrorKeys.invalidEmailFormat,
    );
  });

  it('on confirmation signs out every other session, tells the old address and ends earlier links', async () => {
    const me = await registerUser(ctx.app);
    await patch('/api/profile/locale', { locale: 'pt-BR' }, me.token);
    const otherDevice = (await post('/api/login', { email: me.email, password: PASSWORD })).body.token as string;
    const confirming = (await post('/api/login', { email: me.email, password: PASSWORD })).body.token as string;
    // A reset link mailed to the old address before the change.
    await post('/api/password-reset', { email: me.email });
    const reset = await emailedToken(ctx.database.prisma, me.email, 'password-reset');
    await post('/api/profile/email-verify-request', undefined, me.token);
    const verify = await emailedToken(ctx.database.prisma, me.email, 'email-verify');

    const { email: newEmail } = uniqueCustomer();
    await patch('/api/profile/email-update', { email: newEmail, password: PASSWORD }, me.token);
    const { token: changeToken } = await emailedToken(ctx.database.prisma, newEmail, 'email-change');
    expect((await outbox(me.email)).map((row) => row.template)).not.toContain('email-changed');
    const confirm = await patch(`/api/profile/email-update-confirmation/${changeToken}`, undefined, confirming);
    expect(confirm.status).toBe(200);

    expect((await getUser(confirming)).status).toBe(200);
    expect((await getUser(me.token)).status).toBe(401);
    expect((await getUser(otherDevice)).status).toBe(401);
    expect(await liveSessions(me.user.id)).toHaveLength(1);

    const notices = (await outbox(me.email)).filter((row) => row.template === 'email-changed');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ locale: 'pt-BR', status: 'PENDING' });
    expect(notices[0]?.data).toMatchObject({
      name: me.user.name,
      link: expect.stringMatching(new RegExp(`^${PUBLIC_URL}/email-change-undo/[A-Za-z0-9_-]{43}$`)),
      expiresInMinutes: 7 * 24 * 60,
    });
    expect(await outbox(newEmail)).toHaveLength(1);

    const body = { password: 'Takeover1', password_confirmation: 'Takeover1' };
    expectFieldError(await patch(`/api/password-reset/${reset.token}`, body), 'token', ErrorKeys.tokenInvalid);
    expectFieldError(
      await post('/api/profile/email-verify', { token: verify.token }, confirming),
      'token',
      ErrorKeys.tokenInvalid,
    );
    expect((await post('/api/login', { email: newEmail, password: PASSWORD })).status).toBe(200);
  });

  it('checks again on confirmation that nobody took the address meanwhile', async () => {
    const me = await registerUser(ctx.app);
    const { email: wanted } = uniqueCustomer();
    await patch('/api/profile/email-update', { email: wanted, password: PASSWORD }, me.token);
    const { token } = await emailedToken(ctx.database.prisma, wanted, 'email-change');
    await registerUser(ctx.app, { email: wanted });
    expectFieldError(
      await patch(`/api/profile/email-update-confirmation/${token}`, undefined, me.token),
      'email',
      ErrorKeys.emailTaken,
    );
    expect((await getUser(me.token)).body.user.email).toBe(me.email);
    expect((await outbox(me.email)).map((row) => row.template)).not.toContain('email-changed');
  });

  it("refuses another customer's confirmation token", async () => {
    const owner = await registerUser(ctx.app);
    const intruder = await registerUser(ctx.app);
    const { email: wanted } = uniqueCustomer();
    await patch('/api/profile/email-update', { email: wanted, password: PASSWORD }, owner.token);
    const { token } = await emailedToken(ctx.database.prisma, wanted, 'email-change');
    expectFieldError(
      await patch(`/api/profile/email-update-confirmation/${token}`, undefined, intruder.token),
      'token',
      ErrorKeys.tokenInvalid,
    );
    expect((await getUser(intruder.token)).body.user.email).toBe(intruder.email);
    expectFieldError(
      await patch('/api/profile/email-update-confirmation/not-a-token', undefined, owner.token),
      'token',
      ErrorKeys.tokenInvalid,
    );
  });
});

describe('undoing a change of address', () => {
  const undo = (token: string) => post(`/api/profile/email-update/undo/${token}`);
  const login = (email: string, password: string) => post('/api/login', { email, password });

  /** A customer whose address was changed from `email` (another session confirmed it), and the undo link's token. */
  async function changedAway(options: { password?: string } = {}) {
    const me = await registerUser(ctx.app);
    const { email: newEmail } = uniqueCustomer();
    await patch('/api/profile/email-update', { email: newEmail, ...options }, me.token);
    const { token: changeToken } = await emailedToken(ctx.database.prisma, newEmail, 'email-change');
    const confirm = await patch(`/api/profile/email-update-confirmation/${changeToken}`, undefined, me.token);
    expect(confirm.status).toBe(200);
    const { token } = await emailedToken(ctx.database.prisma, me.email, 'email-changed');
    return { ...me, newEmail, undoToken: token };
  }

  it('puts the old address back, signs out every session, ends the password and mails a reset link, once', async () => {
    const me = await changedAway();
    const elsewhere = (await login(me.newEmail, PASSWORD)).body.token as string;

    const response = await undo(me.undoToken);
    expect(response.status).toBe(200);
    OkResponseSchema.parse(response.body);
    const user = await ctx.database.prisma.user.findUniqueOrThrow({ where: { id: me.user.id } });
    expect(user.email).toBe(me.email);
    expect(user.emailVerifiedAt).not.toBeNull();
    for (const token of [me.token, elsewhere]) expect((await getUser(token)).status).toBe(401);
    expect(await ctx.database.prisma.session.count({ where: { userId: me.user.id, revokedAt: null } })).toBe(0);
    // Nobody signs in with the password any more, under either address.
    expect((await login(me.email, PASSWORD)).status).toBe(422);
    expect((await login(me.newEmail, PASSWORD)).status).toBe(422);
    expectFieldError(await undo(me.undoToken), 'token', ErrorKeys.tokenInvalid);

    const reset = await emailedToken(ctx.database.prisma, me.email, 'password-reset');
    const body = { password: 'Regained12' };
    expect((await patch(`/api/password-reset/${reset.token}`, body)).status).toBe(200);
    expect((await login(me.email, 'Regained12')).status).toBe(200);
  });

  it('works for a week, without a session, and refuses unknown, expired and malformed links', async () => {
    const me = await changedAway({ password: PASSWORD });
    await ctx.database.prisma.emailToken.updateMany({
      where: { userId: me.user.id, purpose: 'EMAIL_CHANGE_UNDO' },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    expectFieldError(await undo(me.undoToken), 'token', ErrorKeys.tokenInvalid);
    expectFieldError(await undo('A'.repeat(43)), 'token', ErrorKeys.tokenInvalid);
    expectFieldError(await undo('short'), 'token', ErrorKeys.tokenInvalid);
    const other = await registerUser(ctx.app);
    const activation = await emailedToken(ctx.database.prisma, other.email, 'account-activation');
    expectFieldError(await undo(activation.token), 'token', ErrorKeys.tokenInvalid);
    expect((await getUser(me.token)).body.user.email).toBe(me.newEmail);

    const fresh = await changedAway();
    const row = await ctx.database.prisma.emailToken.findFirstOrThrow({
      where: { userId: fresh.user.id, purpose: 'EMAIL_CHANGE_UNDO' },
    });
    // A week from when it was written (the row's creation time is the database's clock).
    expect(Math.abs(row.expiresAt.getTime() - row.createdAt.getTime() - 7 * 24 * 3_600_000)).toBeLessThan(60_000);
    expect(row.payload).toEqual({ email: fresh.email });
  });

  it('holds the old address for the account while the link works', async () => {
    const me = await changedAway();
    const taken = await call(ctx.app, 'POST', '/api/register', {
      body: { name: 'Squatter1', email: me.email, password: PASSWORD, password_confirmation: PASSWORD },
    });
    expectFieldError(taken, 'email', ErrorKeys.emailTaken);

    // Another customer asking for it is answered as for a free address; the old address is told.
    const other = await registerUser(ctx.app);
    const { email: free } = uniqueCustomer();
    const asked = await patch('/api/profile/email-update', { email: me.email.toUpperCase() }, other.token);
    const control = await patch('/api/profile/email-update', { email: free }, other.token);
    expect(asked.body).toEqual(control.body);
    const notices = (await outbox(me.email)).filter((row) => row.template === 'email-in-use');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.data).toMatchObject({ name: me.user.name });
    expect(
      await ctx.database.prisma.emailToken.count({
        where: { userId: other.user.id, purpose: 'EMAIL_CHANGE', payload: { equals: { email: me.email } } },
      }),
    ).toBe(0);

    expect((await undo(me.undoToken)).status).toBe(200);
    expect((await ctx.database.prisma.user.findUniqueOrThrow({ where: { id: me.user.id } })).email).toBe(me.email);
  });

  it('frees the old address once the link has expired', async () => {
    const me = await changedAway();
    await ctx.database.prisma.emailToken.updateMany({
      where: { userId: me.user.id, purpose: 'EMAIL_CHANGE_UNDO' },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    const registered = await call(ctx.app, 'POST', '/api/register', {
      body: { name: 'Newcomer1', email: me.email, password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(registered.status).toBe(201);
  });

  it('survives a password reset and later changes made from the new address; undoing ends their undo links', async () => {
    const me = await changedAway();
    const first = me.undoToken;
    // Whoever reads the new address resets the password from it and moves the account on again.
    await post('/api/password-reset', { email: me.newEmail });
    const reset = await emailedToken(ctx.database.prisma, me.newEmail, 'password-reset');
    expect((await patch(`/api/password-reset/${reset.token}`, { password: 'Intruder12' })).status).toBe(200);
    const intruder = (await login(me.newEmail, 'Intruder12')).body.token as string;
    const { email: third } = uniqueCustomer();
    await patch('/api/profile/email-update', { email: third }, intruder);
    const change = await emailedToken(ctx.database.prisma, third, 'email-change');
    expect((await patch(`/api/profile/email-update-confirmation/${change.token}`, undefined, intruder)).status).toBe(
      200,
    );
    const second = (await emailedToken(ctx.database.prisma, me.newEmail, 'email-changed')).token;

    // The later undo link, used first, does not end the earlier one.
    expect((await undo(second)).status).toBe(200);
    expect((await undo(first)).status).toBe(200);
    const user = await ctx.database.prisma.user.findUniqueOrThrow({ where: { id: me.user.id } });
    expect(user.email).toBe(me.email);
    expect((await login(me.email, 'Intruder12')).status).toBe(422);
    expect((await getUser(intruder)).status).toBe(401);
  });

  it('ends the undo links of the changes made after it, and keeps those of earlier ones', async () => {
    const me = await changedAway();
    const first = me.undoToken;
    const { email: third } = uniqueCustomer();
    const session = (await login(me.newEmail, PASSWORD)).body.token as string;
    await patch('/api/profile/email-update', { email: third }, session);
    const change = await emailedToken(ctx.database.prisma, third, 'email-change');
    await patch(`/api/profile/email-update-confirmation/${change.token}`, undefined, session);
    const second = (await emailedToken(ctx.database.prisma, me.newEmail, 'email-changed')).token;

    expect((await undo(first)).status).toBe(200);
    expectFieldError(await undo(second), 'token', ErrorKeys.tokenInvalid);
    expect((await ctx.database.prisma.user.findUniqueOrThrow({ where: { id: me.user.id } })).email).toBe(me.email);
  });
});

describe('password change', () => {
  const change = { password: PASSWORD, newPassword: 'Changed123', new_password_confirmation: 'Changed123' };

  it('refuses a wrong current password and a mismatched confirmation', async () => {
    const { token } = await registerUser(ctx.app);
    const wrong = await patch('/api/profile/password-update', { ...change, password: 'Wrong12345' }, token);
    expectFieldError(wrong, 'password', ErrorKeys.wrongPassword);
    expect(wrong.body.errors).toEqual({ password: [ErrorKeys.wrongPassword] });
    expectFieldError(
      await patch('/api/profile/password-update', { ...change, new_password_confirmation: 'Other1234' }, token),
      'new_password_confirmation',
      ErrorKeys.passwordsDoNotMatch,
    );
    expectFieldError(
      await patch(
        '/api/profile/password-update',
        { ...change, newPassword: 'bad pass!', new_password_confirmation: 'bad pass!' },
        token,
      ),
      'newPassword',
      ErrorKeys.passwordInvalid,
    );
  });

  it('keeps the new hash in the token and applies it on confirmation, signing out the other sessions', async () => {
    const { token, email, user } = await registerUser(ctx.app);
    const otherDevice = (await post('/api/login', { email, password: PASSWORD })).body.token as string;
    const request = await patch('/api/profile/password-update', change, token);
    expect(request.status).toBe(200);
    const { token: changeToken, link } = await emailedToken(ctx.database.prisma, email, 'password-change');
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/\\?passwordToken=[A-Za-z0-9_-]{43}$`));
    const stored = await ctx.database.prisma.emailToken.findFirstOrThrow({
      where: { userId: user.id, purpose: 'PASSWORD_CHANGE' },
    });
    expect((stored.payload as { passwordHash: string }).passwordHash).toMatch(/^\$argon2id\$/);
    // Nothing changes before the confirmation.
    expect((await post('/api/login', { email, password: PASSWORD })).status).toBe(200);

    const confirm = await post('/api/profile/password-update-confirmation', { token: changeToken }, token);
    expect(confirm.status).toBe(200);
    OkResponseSchema.parse(confirm.body);
    expect((await getUser(token)).status).toBe(200);
    expect((await getUser(otherDevice)).status).toBe(401);
    expect((await post('/api/login', { email, password: PASSWORD })).status).toBe(422);
    expect((await post('/api/login', { email, password: 'Changed123' })).status).toBe(200);
    expectFieldError(
      await post('/api/profile/password-update-confirmation', { token: changeToken }, token),
      'token',
      ErrorKeys.tokenInvalid,
    );
  });

  it('ends a reset link and an email-change link mailed before the change', async () => {
    const { token, email } = await registerUser(ctx.app);
    await post('/api/password-reset', { email });
    const reset = await emailedToken(ctx.database.prisma, email, 'password-reset');
    const { email: wanted } = uniqueCustomer();
    await patch('/api/profile/email-update', { email: wanted, password: PASSWORD }, token);
    const emailChange = await emailedToken(ctx.database.prisma, wanted, 'email-change');

    await patch('/api/profile/password-update', change, token);
    const { token: changeToken } = await emailedToken(ctx.database.prisma, email, 'password-change');
    expect((await post('/api/profile/password-update-confirmation', { token: changeToken }, token)).status).toBe(200);

    const body = { password: 'Takeover1', password_confirmation: 'Takeover1' };
    expectFieldError(await patch(`/api/password-reset/${reset.token}`, body), 'token', ErrorKeys.tokenInvalid);
    expectFieldError(
      await patch(`/api/profile/email-update-confirmation/${emailChange.token}`, undefined, token),
      'token',
      ErrorKeys.tokenInvalid,
    );
    expect((await post('/api/login', { email, password: 'Changed123' })).status).toBe(200);
    expect((await post('/api/login', { email, password: 'Takeover1' })).status).toBe(422);
  });

  it("refuses another customer's token", async () => {
    const owner = await registerUser(ctx.app);
    const intruder = await registerUser(ctx.app);
    await patch('/api/profile/password-update', change, owner.token);
    const { token } = await emailedToken(ctx.database.prisma, owner.email, 'password-change');
    expectFieldError(
      await post('/api/profile/password-update-confirmation', { token }, intruder.token),
      'token',
      ErrorKeys.tokenInvalid,
    );
    expect((await post('/api/login', { email: intruder.email, password: PASSWORD })).status).toBe(200);
    expect((await post('/api/profile/password-update-confirmation', { token }, owner.token)).status).toBe(200);
  });
});

describe('name and language', () => {
  it('renames with the registration rules', async () => {
    const { token } = await registerUser(ctx.app);
    const response = await patch('/api/profile/name-update', { name: 'NewName42' }, token);
    expect(response.status).toBe(200);
    expect(UserResponseSchema.parse(response.body).user.name).toBe('NewName42');
    expectFieldError(await patch('/api/profile/name-update', { name: 'abc' }, token), 'name', ErrorKeys.nameTooShort);
    expectFieldError(
      await patch('/api/profile/name-update', { name: 'a'.repeat(17) }, token),
      'name',
      ErrorKeys.nameTooLong,
    );
    expectFieldError(
      await patch('/api/profile/name-update', { name: 'név név' }, token),
      'name',
      ErrorKeys.onlyLatinAndNumbers,
    );
  });

  it('stores the language, and later emails are written in it', async () => {
    const { token, email } = await registerUser(ctx.app);
    const response = await patch('/api/profile/locale', { locale: 'hi' }, token);
    expect(response.status).toBe(200);
    expect(UserResponseSchema.parse(response.body).user.locale).toBe('hi');
    await post('/api/profile/email-verify-request', undefined, token);
    expect((await emailedToken(ctx.database.prisma, email, 'email-verify')).row.locale).toBe('hi');
    expectFieldError(await patch('/api/profile/locale', { locale: 'xx' }, token), 'locale', ErrorKeys.unknownOption);
  });
});

describe('bad input never reaches a 500', () => {
  const big = 'x'.repeat(10 * 1024);
  const bodies: unknown[] = [
    { email: big, password: big, newPassword: big, new_password_confirmation: big, token: big, name: big, locale: big },
    { email: 1, password: 2, newPassword: 3, new_password_confirmation: 4, token: 5, name: 6, locale: 7 },
    { email: [], password: {}, newPassword: null, new_password_confirmation: true, token: ['x'], name: {}, locale: [] },
    [],
    'null',
    '{"token": ',
    big,
  ];

  it('answers 4xx to every malformed body on every profile call', async () => {
    const { token } = await registerUser(ctx.app);
    const calls = [
      ['POST', '/api/profile/email-verify-request'],
      ['POST', '/api/profile/email-verify'],
      ['PATCH', '/api/profile/email-update'],
      ['PATCH', `/api/profile/email-update-confirmation/${'a'.repeat(43)}`],
      ['PATCH', `/api/profile/email-update-confirmation/${big}`],
      ['PATCH', '/api/profile/password-update'],
      ['POST', '/api/profile/password-update-confirmation'],
      ['PATCH', '/api/profile/name-update'],
      ['PATCH', '/api/profile/locale'],
    ] as const;
    for (const [method, url] of calls) {
      for (const body of bodies) {
        const response = await call(ctx.app, method, url, { body, token });
        const label = `${method} ${url.slice(0, 60)} ${JSON.stringify(body).slice(0, 40)}`;
        expect(response.status, label).toBeLessThan(500);
        if (response.status >= 400) expect(typeof response.body.message, label).toBe('string');
      }
    }
  });
});
