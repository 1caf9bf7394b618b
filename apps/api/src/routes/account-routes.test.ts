import { AuthResponseSchema, ErrorKeys, OkResponseSchema, UserResponseSchema } from '@store/contract';
import { eventually } from '@store/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  emailedToken,
  expectFieldError,
  handMadeJwt,
  PASSWORD,
  registerUser,
  uniqueCustomer,
} from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';

const PUBLIC_URL = 'https://store.example';
const JWT_SECRET = 'account-routes-test-secret-0123456789abcdef';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;
const queue = createRecordingQueue();

beforeAll(async () => {
  // Rate limits have their own test; here they would only get in the way of many logins.
  ctx = await buildTestApp({ PUBLIC_URL, JWT_SECRET, RATE_LIMIT_SCALE: '1000' }, { queue });
});
afterAll(async () => {
  await ctx?.close();
});

const post = (url: string, body?: unknown, token?: string) => call(ctx.app, 'POST', url, { body, token });
const patch = (url: string, body?: unknown, token?: string) => call(ctx.app, 'PATCH', url, { body, token });
const getUser = (token?: string) => call(ctx.app, 'GET', '/api/user', { token });

function registration(overrides: Record<string, unknown> = {}) {
  return { ...uniqueCustomer(), password: PASSWORD, password_confirmation: PASSWORD, ...overrides };
}

describe('POST /api/register', () => {
  it('creates the account, signs it in and mails the activation link', async () => {
    const customer = uniqueCustomer();
    const response = await post('/api/register', registration({ ...customer, email: customer.email.toUpperCase() }));
    expect(response.status).toBe(201);
    const { token, user } = AuthResponseSchema.parse(response.body);
    expect(user).toMatchObject({
      email: customer.email,
      name: customer.name,
      verified: false,
      activated: false,
      balance: 0,
      balance_minor: 0,
      locale: 'en',
    });
    expect(UserResponseSchema.parse((await getUser(token)).body).user.id).toBe(user.id);

    const { link, row } = await emailedToken(ctx.database.prisma, customer.email, 'account-activation');
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/\\?accountToken=[A-Za-z0-9_-]{43}$`));
    expect(row.locale).toBe('en');
    expect(row.data).toMatchObject({ name: customer.name, expiresInMinutes: 72 * 60 });
    expect(queue.jobs).toContainEqual({
      job: { kind: 'email.send', emailId: row.id },
      options: { jobId: row.id, newId: true },
    });

    const stored = await ctx.database.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const tokens = await ctx.database.prisma.emailToken.findMany({ where: { userId: user.id } });
    expect(tokens).toHaveLength(1);
    expect(tokens[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(link).not.toContain(tokens[0]?.tokenHash);
  });

  it('writes the emails in the language the customer registered with', async () => {
    const customer = uniqueCustomer();
    expect((await post('/api/register', registration({ ...customer, locale: 'ru' }))).status).toBe(201);
    const { row } = await emailedToken(ctx.database.prisma, customer.email, 'account-activation');
    expect(row.locale).toBe('ru');
  });

  it('refuses an address that is taken, whatever its case', async () => {
    const { email } = await registerUser(ctx.app);
    const response = await post('/api/register', registration({ email: email.toUpperCase() }));
    expectFieldError(response, 'email', ErrorKeys.emailTaken);
    expect(response.body.errors).toEqual({ email: [ErrorKeys.emailTaken] });
  });

  it.each([
    ['name', 'abc', ErrorKeys.nameTooShort],
    ['name', '   abc   ', ErrorKeys.nameTooShort],
    ['name', 'a'.repeat(17), ErrorKeys.nameTooLong],
    ['name', 'Имяимя', ErrorKeys.onlyLatinAndNumbers],
    ['name', 'john_doe', ErrorKeys.onlyLatinAndNumbers],
    ['name', '', ErrorKeys.requiredField],
    ['email', 'not-an-email', ErrorKeys.invalidEmailFormat],
    ['email', 'a@b', ErrorKeys.invalidEmailFormat],
    ['email', 'two@at@example.com', ErrorKeys.invalidEmailFormat],
    ['email', 'a@example.com(x)', ErrorKeys.invalidEmailFormat],
    ['email', '"a b"@example.com', ErrorKeys.invalidEmailFormat],
    ['email', 'ana\u202E@example.com', ErrorKeys.invalidEmailFormat],
    ['email', 'ana\u200B@example.com', ErrorKeys.invalidEmailFormat],
    ['email', `${'a'.repeat(117)}@example.com`, ErrorKeys.tooLong],
    ['email', '   ', ErrorKeys.requiredField],
    ['password', 'a'.repeat(33), ErrorKeys.tooLong],
    ['password', 'secret 123', ErrorKeys.passwordInvalid],
    ['password', 'Secret!123', ErrorKeys.passwordInvalid],
    ['password', 'short1', ErrorKeys.passwordTooShort],
  ])('refuses %s %j with %s', async (field, value, key) => {
    const body = registration({ [field]: value });
    if (field === 'password') body.password_confirmation = value;
    expectFieldError(await post('/api/register', body), field, key);
  });

  it('refuses a confirmation that differs from the password', async () => {
    const response = await post('/api/register', registration({ password_confirmation: 'Secret1234' }));
    expectFieldError(response, 'password_confirmation', ErrorKeys.passwordsDoNotMatch);
  });

  it('refuses missing fields one by one', async () => {
    const response = await post('/api/register', {});
    for (const field of ['name', 'email', 'password', 'password_confirmation']) {
      expectFieldError(response, field, ErrorKeys.requiredField);
    }
  });

  it.each([
    ['Cyrillic', 'ПарольСекрет1'],
    ['Devanagari', 'पासवर्डसुरक्षित1'],
    ['Latin', 'Abcdefgh12345678Abcdefgh12345678'],
  ])('accepts a %s password and logs in with it', async (_script, password) => {
    const { email, name } = uniqueCustomer();
    const { status } = await post(
      '/api/register',
      registration({ email, name, password, password_confirmation: password }),
    );
    expect(status).toBe(201);
    const login = await post('/api/login', { email, password });
    expect(login.status).toBe(200);
  });

  it('accepts names of exactly 4 and 16 Latin letters and digits', async () => {
    for (const name of ['Ab12', 'Abcdefgh12345678']) {
      expect((await post('/api/register', registration({ name }))).status).toBe(201);
    }
  });
});

describe('POST /api/login', () => {
  const INVALID = {
    message: 'Incorrect username or password.',
    errors: { password: [ErrorKeys.invalidCredentials] },
  };

  it('signs in with the right password, the address in any case', async () => {
    const { email, user } = await registerUser(ctx.app);
    const response = await post('/api/login', { email: email.toUpperCase(), password: PASSWORD });
    expect(response.status).toBe(200);
    const body = AuthResponseSchema.parse(response.body);
    expect(body.user.id).toBe(user.id);
    expect((await getUser(body.token)).status).toBe(200);
  });

  it('gives the same answer to a wrong password and to an unknown address', async () => {
    const { email } = await registerUser(ctx.app);
    const wrong = await post('/api/login', { email, password: 'Wrong12345' });
    const unknown = await post('/api/login', { email: `nobody.${Date.now()}@example.com`, password: PASSWORD });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual(INVALID);
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual(INVALID);
  });

  it('validates the form: an address and a non-blank password of at most 32 characters', async () => {
    expectFieldError(
      await post('/api/login', { email: 'x', password: PASSWORD }),
      'email',
      ErrorKeys.invalidEmailFormat,
    );
    expectFieldError(
      await post('/api/login', { email: 'a@example.com(x)', password: PASSWORD }),
      'email',
      ErrorKeys.invalidEmailFormat,
    );
    expectFieldError(
      await post('/api/login', { email: 'a@example.com', password: '   ' }),
      'password',
      ErrorKeys.requiredField,
    );
    expectFieldError(
      await post('/api/login', { email: 'a@example.com', password: 'a'.repeat(33) }),
      'password',
      ErrorKeys.tooLong,
    );
  });
});

describe('bearer tokens', () => {
  it('401s a missing, malformed, forged, foreign or expired token', async () => {
    const { token, user } = await registerUser(ctx.app);
    const session = await ctx.database.prisma.session.findFirstOrThrow({ where: { userId: user.id } });
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: user.id, sid: session.id, iss: 'giftstore', aud: 'giftstore', iat: now, exp: now + 3600 };
    const refused = [
      undefined,
      'not-a-jwt',
      `${token}x`,
      handMadeJwt('some-other-secret-0123456789abcdef0123', claims),
      handMadeJwt(JWT_SECRET, { ...claims, iss: 'someone-else' }),
      handMadeJwt(JWT_SECRET, { ...claims, aud: 'someone-else' }),
      handMadeJwt(JWT_SECRET, { ...claims, exp: now - 10 }),
      handMadeJwt(JWT_SECRET, { ...claims, sid: undefined }),
      handMadeJwt(JWT_SECRET, { ...claims, sid: 'not-a-uuid' }),
      handMadeJwt(JWT_SECRET, { ...claims, sid: '00000000-0000-4000-8000-000000000000' }),
      handMadeJwt(JWT_SECRET, claims, { alg: 'none', typ: 'JWT' }),
      handMadeJwt(JWT_SECRET, claims, { alg: 'HS512', typ: 'JWT' }),
    ];
    // The hand-made token is accepted when nothing is wrong with it: the refusals above are real.
    expect((await getUser(handMadeJwt(JWT_SECRET, claims))).status).toBe(200);
    for (const candidate of refused) {
      const response = await getUser(candidate);
      expect(response.status, String(candidate)).toBe(401);
      expect(typeof response.body.message).toBe('string');
    }
    const other = await registerUser(ctx.app);
    expect((await getUser(handMadeJwt(JWT_SECRET, { ...claims, sub: other.user.id }))).status).toBe(401);
    expect((await call(ctx.app, 'GET', '/api/user', { headers: { authorization: token } })).status).toBe(401);
  });

  it('401s once the session row has expired or was revoked', async () => {
    const { token, user } = await registerUser(ctx.app);
    expect((await getUser(token)).status).toBe(200);
    // Written straight to the database, as a command would: the instance, which took the session
    // on trust a moment ago, hears of it from the database's notice (the store's own paths, such as
    // logout, forget it at once; see POST /api/logout below).
    await ctx.database.prisma.session.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date() } });
    await eventually(async () => (await getUser(token)).status === 401, 2_000);

    const second = await post('/api/login', { email: user.email, password: PASSWORD });
    expect((await getUser(second.body.token)).status).toBe(200);
    await ctx.database.prisma.session.updateMany({ where: { userId: user.id }, data: { revokedAt: new Date() } });
    await eventually(async () => (await getUser(second.body.token)).status === 401, 2_000);
  });

  it('signs HS256 tokens for giftstore that name the session', async () => {
    const { token, user } = await registerUser(ctx.app);
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: user.id, iss: 'giftstore', aud: 'giftstore' });
    const session = await ctx.database.prisma.session.findUniqueOrThrow({ where: { id: payload.sid } });
    expect(session.userId).toBe(user.id);
    // SESSION_TTL_HOURS defaults to 30 days.
    expect(payload.exp - payload.iat).toBe(30 * 24 * 3600);
  });
});

describe('POST /api/logout', () => {
  it('revokes the session on the server: the same bearer token no longer works', async () => {
    const { token, email } = await registerUser(ctx.app);
    const other = await post('/api/login', { email, password: PASSWORD });
    const response = await post('/api/logout', undefined, token);
    expect(response.status).toBe(204);
    expect((await getUser(token)).status).toBe(401);
    expect((await post('/api/logout', undefined, token)).status).toBe(401);
    // Only this session ends; the customer's other device stays signed in.
    expect((await getUser(other.body.token)).status).toBe(200);
  });
});

describe('GET /api/user and /api/user/balance', () => {
  it('returns the user and the balance in units and minor units', async () => {
    const { token, user } = await registerUser(ctx.app);
    expect((await getUser(token)).body).toEqual({ user });
    await ctx.database.prisma.user.update({ where: { id: user.id }, data: { balanceMinor: 12_345 } });
    const balance = await call(ctx.app, 'GET', '/api/user/balance', { token });
    expect(balance).toMatchObject({ status: 200, body: { balance: 123.45, balance_minor: 12_345 } });
    expect((await call(ctx.app, 'GET', '/api/user/balance')).status).toBe(401);
  });
});

describe('password reset', () => {
  it('mails a link to an address with an account, and says "Email not found" under the field otherwise', async () => {
    const { email } = await registerUser(ctx.app);
    const known = await post('/api/password-reset', { email: email.toUpperCase() });
    expect(known.status).toBe(200);
    OkResponseSchema.parse(known.body);
    const { link } = await emailedToken(ctx.database.prisma, email, 'password-reset');
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/password-reset/[A-Za-z0-9_-]{43}$`));

    const unknownEmail = `nobody.${Date.now()}@example.com`;
    const unknown = await post('/api/password-reset', { email: unknownEmail });
    expectFieldError(unknown, 'email', ErrorKeys.emailNotFound);
    expect(unknown.body).toEqual({ message: 'Email not found.', errors: { email: [ErrorKeys.emailNotFound] } });
    expect(await ctx.database.prisma.outboundEmail.count({ where: { toAddress: unknownEmail } })).toBe(0);

    expectFieldError(await post('/api/password-reset', { email: 'nope' }), 'email', ErrorKeys.invalidEmailFormat);
    expectFieldError(
      await post('/api/password-reset', { email: `${email}(x)` }),
      'email',
      ErrorKeys.invalidEmailFormat,
    );
  });

  it('sets the password once, signs out every session, and refuses the token afterwards', async () => {
    const { email, token } = await registerUser(ctx.app);
    const second = await post('/api/login', { email, password: PASSWORD });
    await post('/api/password-reset', { email });
    const { token: resetToken } = await emailedToken(ctx.database.prisma, email, 'password-reset');

    const mismatch = await patch(`/api/password-reset/${resetToken}`, {
      password: 'NewSecret1',
      password_confirmation: 'NewSecret2',
    });
    expectFieldError(mismatch, 'password_confirmation', ErrorKeys.passwordsDoNotMatch);

    const body = { password: 'NewSecret1', password_confirmation: 'NewSecret1' };
    const response = await patch(`/api/password-reset/${resetToken}`, body);
    expect(response.status).toBe(200);
    expect(OkResponseSchema.parse(response.body).ok).toBe(true);
    expect((await getUser(token)).status).toBe(401);
    expect((await getUser(second.body.token)).status).toBe(401);
    expect((await post('/api/login', { email, password: PASSWORD })).status).toBe(422);
    expect((await post('/api/login', { email, password: 'NewSecret1' })).status).toBe(200);

    expectFieldError(await patch(`/api/password-reset/${resetToken}`, body), 'token', ErrorKeys.tokenInvalid);
  });

  it('sets the password from the password alone, without its repeat', async () => {
    const { email } = await registerUser(ctx.app);
    await post('/api/password-reset', { email });
    const { token } = await emailedToken(ctx.database.prisma, email, 'password-reset');
    expectFieldError(
      await patch(`/api/password-reset/${token}`, { password: 'short' }),
      'password',
      ErrorKeys.passwordTooShort,
    );
    const response = await patch(`/api/password-reset/${token}`, { password: 'NewSecret1' });
    expect(response.status).toBe(200);
    OkResponseSchema.parse(response.body);
    expect((await post('/api/login', { email, password: 'NewSecret1' })).status).toBe(200);
  });

  it('lets only one of two simultaneous uses of a token win', async () => {
    const { email } = await registerUser(ctx.app);
    await post('/api/password-reset', { email });
    const { token } = await emailedToken(ctx.database.prisma, email, 'password-reset');
    const attempts = await Promise.all(
      ['RaceSecret1', 'RaceSecret2'].map((password) =>
        patch(`/api/password-reset/${token}`, { password, password_confirmation: password }),
      ),
    );
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual([200, 422]);
  });

  it('refuses malformed, unknown, expired and superseded tokens, and tokens of another purpose', async () => {
    const { email } = await registerUser(ctx.app);
    const body = { password: 'NewSecret1', password_confirmation: 'NewSecret1' };
    for (const bad of ['abc', 'a'.repeat(44), `${'a'.repeat(42)}%2B`, 'A'.repeat(43)]) {
      expectFieldError(await patch(`/api/password-reset/${bad}`, body), 'token', ErrorKeys.tokenInvalid);
    }
    const activation = await emailedToken(ctx.database.prisma, email, 'account-activation');
    expectFieldError(await patch(`/api/password-reset/${activation.token}`, body), 'token', ErrorKeys.tokenInvalid);

    await post('/api/password-reset', { email });
    const first = await emailedToken(ctx.database.prisma, email, 'password-reset');
    await post('/api/password-reset', { email });
    const rows = await ctx.database.prisma.outboundEmail.findMany({
      where: { toAddress: email, template: 'password-reset' },
    });
    const tokens = rows.map((row) => (row.data as { link: string }).link.slice(-43));
    expect(tokens).toHaveLength(2);
    const latest = { token: tokens.find((token) => token !== first.token) };
    expectFieldError(await patch(`/api/password-reset/${first.token}`, body), 'token', ErrorKeys.tokenInvalid);

    await ctx.database.prisma.emailToken.updateMany({
      where: { user: { email }, purpose: 'PASSWORD_RESET', usedAt: null },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expectFieldError(await patch(`/api/password-reset/${latest.token}`, body), 'token', ErrorKeys.tokenInvalid);
  });
});

describe('POST /api/account/activate', () => {
  it('activates with the emailed token, without a bearer token, once', async () => {
    const { email } = await registerUser(ctx.app);
    const { token } = await emailedToken(ctx.database.prisma, email, 'account-activation');
    const response = await post('/api/account/activate', { token });
    expect(response.status).toBe(200);
    expect(UserResponseSchema.parse(response.body).user).toMatchObject({ email, activated: true, verified: true });
    expectFieldError(await post('/api/account/activate', { token }), 'token', ErrorKeys.tokenInvalid);
    expectFieldError(await post('/api/account/activate', { token: 'short' }), 'token', ErrorKeys.tokenInvalid);
    expectFieldError(await post('/api/account/activate', {}), 'token', ErrorKeys.requiredField);
  });

  it('refuses an expired activation token', async () => {
    const { email } = await registerUser(ctx.app);
    const { token } = await emailedToken(ctx.database.prisma, email, 'account-activation');
    await ctx.database.prisma.emailToken.updateMany({
      where: { user: { email }, purpose: 'ACCOUNT_ACTIVATION' },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    expectFieldError(await post('/api/account/activate', { token }), 'token', ErrorKeys.tokenInvalid);
  });
});

describe('bad input never reaches a 500', () => {
  const big = 'x'.repeat(10 * 1024);
  const bodies: unknown[] = [
    { name: big, email: big, password: big, password_confirmation: big, token: big, locale: big },
    { name: 1, email: 2, password: 3, password_confirmation: 4, token: 5, locale: 6 },
    { name: [], email: {}, password: null, password_confirmation: true, token: ['x'], locale: null },
    [],
    'null',
    '"just a string"',
    '{"email": ',
    big,
  ];

  it.each([
    ['POST', '/api/register'],
    ['POST', '/api/login'],
    ['POST', '/api/password-reset'],
    ['PATCH', `/api/password-reset/${'a'.repeat(43)}`],
    ['POST', '/api/account/activate'],
  ] as const)('%s %s', async (method, url) => {
    for (const body of bodies) {
      const response = await call(ctx.app, method, url, { body });
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(typeof response.body.message).toBe('string');
    }
  });
});
