import { AuthResponseSchema, OkResponseSchema, UserResponseSchema } from '@store/contract';
import { createInProcessQueue, createJobHandlers, createSmtpMailer, silentLogger } from '@store/core';
import { eventually, startTestSmtpServer, type TestSmtpServer } from '@store/core/testing';
import { createCodeCipher, devCodeKey } from '@store/db';
import { seedDemo } from '@store/db/seed';
import { createTestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, uniqueCustomer } from '../../test/accounts.ts';
import { databaseText } from '../../test/database-text.ts';
import { buildTestApp, type TestDatabase } from '../../test/helper.ts';

const PUBLIC_URL = 'https://store.example';

let smtp: TestSmtpServer;
let database: TestDatabase;
let ctx: Awaited<ReturnType<typeof buildTestApp>>;
let queue: ReturnType<typeof createInProcessQueue>;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  database = await createTestDatabase();
  await seedDemo(database.prisma, { cipher: createCodeCipher(devCodeKey()) });
  // The real pipeline: outbox row, email.send job, templates, nodemailer, an SMTP conversation.
  const mailer = createSmtpMailer({ smtpUrl: smtp.url, from: 'Giftstore <no-reply@store.example>' });
  queue = createInProcessQueue(createJobHandlers({ sql: database.sql, logger: silentLogger, mailer }), silentLogger);
  ctx = await buildTestApp({ PUBLIC_URL, RATE_LIMIT_SCALE: '1000' }, { database, queue });
});
afterAll(async () => {
  await ctx?.close();
  await queue?.close();
  await database?.cleanup();
  await smtp?.close();
});

/** The button's link in the newest received message, checked to point at the store. */
function linkIn(text: string | undefined): URL {
  const match = /https?:\/\/\S+/.exec(text ?? '');
  expect(match, 'a link in the message').not.toBeNull();
  const link = new URL(match?.[0] ?? '');
  expect(link.origin).toBe(PUBLIC_URL);
  return link;
}

describe('emailed links, over a real SMTP conversation', () => {
  it('registration mails an activation link in the customer language; following it activates', async () => {
    const customer = uniqueCustomer();
    const password = 'Segredo123';
    const registered = await call(ctx.app, 'POST', '/api/register', {
      body: { ...customer, password, password_confirmation: password, locale: 'pt-BR' },
    });
    expect(registered.status).toBe(201);
    const { token } = AuthResponseSchema.parse(registered.body);

    const [mail] = (await smtp.waitFor(1)).slice(-1);
    expect(mail?.recipients).toEqual([customer.email]);
    expect(mail?.parsed.subject).toBeTruthy();
    expect(mail?.parsed.html).toContain('lang="pt-BR"');
    expect(mail?.parsed.text).toContain(customer.name);
    const link = linkIn(mail?.parsed.text);
    expect(link.pathname).toBe('/');
    const accountToken = link.searchParams.get('accountToken') ?? '';

    const activated = await call(ctx.app, 'POST', '/api/account/activate', { body: { token: accountToken } });
    expect(activated.status).toBe(200);
    expect(UserResponseSchema.parse(activated.body).user).toMatchObject({ activated: true, verified: true });
    const user = UserResponseSchema.parse((await call(ctx.app, 'GET', '/api/user', { token })).body).user;
    expect(user.activated).toBe(true);

    // The link is single-use.
    const again = await call(ctx.app, 'POST', '/api/account/activate', { body: { token: accountToken } });
    expect(again.status).toBe(422);
  });

  it('a password reset mails a link; following it sets the password the customer then logs in with', async () => {
    const customer = uniqueCustomer();
    const oldPassword = 'Oldpass123';
    const newPassword = 'Newpass456';
    const registered = await call(ctx.app, 'POST', '/api/register', {
      body: { ...customer, password: oldPassword, password_confirmation: oldPassword },
    });
    expect(registered.status).toBe(201);
    const before = smtp.received.length + 1;
    await smtp.waitFor(before);

    const requested = await call(ctx.app, 'POST', '/api/password-reset', { body: { email: customer.email } });
    expect(OkResponseSchema.parse(requested.body).ok).toBe(true);
    const mail = (await smtp.waitFor(before + 1)).at(-1);
    expect(mail?.recipients).toEqual([customer.email]);
    const link = linkIn(mail?.parsed.text);
    const resetToken = /^\/password-reset\/([A-Za-z0-9_-]{43})$/.exec(link.pathname)?.[1];
    expect(resetToken).toBeDefined();

    const reset = await call(ctx.app, 'PATCH', `/api/password-reset/${resetToken}`, {
      body: { password: newPassword, password_confirmation: newPassword },
    });
    expect(reset.status).toBe(200);

    const withOld = await call(ctx.app, 'POST', '/api/login', {
      body: { email: customer.email, password: oldPassword },
    });
    expect(withOld.status).toBe(422);
    const withNew = await call(ctx.app, 'POST', '/api/login', {
      body: { email: customer.email, password: newPassword },
    });
    expect(withNew.status).toBe(200);
    expect(AuthResponseSchema.parse(withNew.body).user.email).toBe(customer.email);
  });

  it('keeps no working token in the database once the messages carrying them are sent', async () => {
    const customer = uniqueCustomer();
    const password = 'Secret123';
    const before = smtp.received.length;
    const registered = await call(ctx.app, 'POST', '/api/register', {
      body: { ...customer, password, password_confirmation: password },
    });
    expect(registered.status).toBe(201);
    const { token: bearer } = AuthResponseSchema.parse(registered.body);
    await call(ctx.app, 'POST', '/api/password-reset', { body: { email: customer.email } });
    const verify = await call(ctx.app, 'POST', '/api/profile/email-verify-request', { token: bearer, body: {} });
    expect(verify.status).toBe(200);
    const received = (await smtp.waitFor(before + 3)).slice(before);
    const links = received.map((mail) => linkIn(mail.parsed.text).href);
    const tokens = links.map((link) => /[A-Za-z0-9_-]{43}$/.exec(link)?.[0] ?? '');
    expect(tokens).toHaveLength(3);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const resetToken = /\/password-reset\/([A-Za-z0-9_-]{43})$/.exec(
      links.find((l) => l.includes('/password-reset/')) ?? '',
    )?.[1];
    await eventually(async () => {
      const rows = await database.prisma.outboundEmail.findMany({ where: { toAddress: customer.email } });
      return rows.length === 3 && rows.every((row) => row.status === 'SENT');
    });

    const dump = await databaseText(database.sql);
    for (const token of tokens) expect(dump).not.toContain(token);
    // The links still work: the customer's copy is the one that counts.
    const reset = await call(ctx.app, 'PATCH', `/api/password-reset/${resetToken}`, {
      body: { password: 'Another123', password_confirmation: 'Another123' },
    });
    expect(reset.status).toBe(200);
  });
});
