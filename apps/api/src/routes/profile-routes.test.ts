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
  const outbox = (to: string) =>
    ctx.database.prisma.outboundEmail.findMany({ where: { toAddress: to }, orderBy: { createdAt: 'asc' } });

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

  it('needs the current password, and mails nothing without the right one', async () => {
    const { token } = await registerUser(ctx.app);
    const { email: wanted } = uniqueCustomer();
    const wrong = await patch('/api/profile/email-update', { email: wanted, password: 'Wrong12345' }, token);
    expectFieldError(wrong, 'password', ErrorKeys.wrongPassword);
    expect(wrong.body.errors).toEqual({ password: [ErrorKeys.wrongPassword] });
    expectFieldError(
      await patch('/api/profile/email-update', { email: wanted }, token),
      'password',
      ErrorKeys.requiredField,
    );
    expect(await outbox(wanted)).toEqual([]);
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
    expect(notices[0]?.data).toMatchObject({ name: me.user.name, link: `${PUBLIC_URL}/faq` });
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
