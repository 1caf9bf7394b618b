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
  it('mails the new address and switches to it on confirmation', async () => {
    const { token, email, user } = await registerUser(ctx.app);
    const { email: newEmail } = uniqueCustomer();
    const request = await patch('/api/profile/email-update', { email: newEmail.toUpperCase() }, token);
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

  it('refuses a taken address (any case) and the current one', async () => {
    const me = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    expectFieldError(
      await patch('/api/profile/email-update', { email: other.email.toUpperCase() }, me.token),
      'email',
      ErrorKeys.emailTaken,
    );
    expectFieldError(
      await patch('/api/profile/email-update', { email: me.email.toUpperCase() }, me.token),
      'email',
      ErrorKeys.sameEmail,
    );
    expectFieldError(
      await patch('/api/profile/email-update', { email: 'nope' }, me.token),
      'email',
      ErrorKeys.invalidEmailFormat,
    );
  });

  it('checks again on confirmation that nobody took the address meanwhile', async () => {
    const me = await registerUser(ctx.app);
    const { email: wanted } = uniqueCustomer();
    await patch('/api/profile/email-update', { email: wanted }, me.token);
    const { token } = await emailedToken(ctx.database.prisma, wanted, 'email-change');
    await registerUser(ctx.app, { email: wanted });
    expectFieldError(
      await patch(`/api/profile/email-update-confirmation/${token}`, undefined, me.token),
      'email',
      ErrorKeys.emailTaken,
    );
    expect((await getUser(me.token)).body.user.email).toBe(me.email);
  });

  it("refuses another customer's confirmation token", async () => {
    const owner = await registerUser(ctx.app);
    const intruder = await registerUser(ctx.app);
    const { email: wanted } = uniqueCustomer();
    await patch('/api/profile/email-update', { email: wanted }, owner.token);
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
