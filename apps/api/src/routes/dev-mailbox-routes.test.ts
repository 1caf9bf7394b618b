import { randomBytes, randomUUID } from 'node:crypto';
import { type DevMailboxMessage, DevMailboxResponseSchema, type EmailTemplate, type Locale } from '@store/contract';
import { recordEmail } from '@store/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseText } from '../../test/database-text.ts';
import { buildTestApp } from '../../test/helper.ts';

describe('dev mailbox', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  const ids: Record<string, string> = {};

  async function record(key: string, to: string, template: EmailTemplate, locale: Locale, name: string, ageMs: number) {
    const link =
      template === 'password-reset'
        ? `http://localhost:3000/password-reset/${key}-token`
        : `http://localhost:3000/?accountToken=${key}-token`;
    const id = await recordEmail(ctx.database.sql, {
      to,
      template,
      locale,
      data: { name, link, expiresInMinutes: 60 },
    });
    await ctx.database.prisma.outboundEmail.update({
      where: { id },
      data: { createdAt: new Date(Date.now() - ageMs) },
    });
    ids[key] = id;
  }

  beforeAll(async () => {
    ctx = await buildTestApp();
    await record('activation', 'Ana@Example.com', 'account-activation', 'pt-BR', 'Ana', 3_000);
    await record('reset', 'ana@example.com', 'password-reset', 'en', '<b>Ana</b>', 2_000);
    await record('other', 'bob@example.com', 'account-activation', 'ru', 'Bob', 1_000);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('lists the newest messages as JSON with their rendered parts and links', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/dev/mailbox.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    const body = DevMailboxResponseSchema.parse(response.json());
    expect(body.messages.map((message) => message.id)).toEqual([ids.other, ids.reset, ids.activation]);
    const reset = body.messages[1]!;
    expect(reset).toMatchObject({
      to: 'ana@example.com',
      template: 'password-reset',
      locale: 'en',
      subject: 'Reset your Giftstore password',
      links: ['http://localhost:3000/password-reset/reset-token'],
      status: 'PENDING',
      attempts: 0,
      sentAt: null,
    });
    expect(reset.text).toContain('http://localhost:3000/password-reset/reset-token');
    expect(reset.html).toContain('&lt;b&gt;Ana&lt;/b&gt;');
    expect(Date.parse(reset.createdAt)).not.toBeNaN();
  });

  it('filters by recipient address, ignoring case', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/dev/mailbox.json?to=ANA%40example.com' });
    const body = DevMailboxResponseSchema.parse(response.json());
    expect(body.messages.map((message) => message.id)).toEqual([ids.reset, ids.activation]);
    expect(body.messages[1]?.links).toEqual(['http://localhost:3000/?accountToken=activation-token']);

    const none = await ctx.app.inject({ method: 'GET', url: '/dev/mailbox.json?to=nobody%40example.com' });
    expect(none.json()).toEqual({ messages: [] });
  });

  it('limits how many messages it returns', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/dev/mailbox.json?limit=1' });
    expect(DevMailboxResponseSchema.parse(response.json()).messages.map((message) => message.id)).toEqual([ids.other]);
  });

  it('shows the messages as an HTML page', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('Reset your Giftstore password');
    expect(response.body).toContain(`href="/dev/mailbox/${ids.reset}"`);
    expect(response.body).toContain('bob@example.com');
    // The page is not under the API's JSON headers (default-src 'none' would blank its styles).
    expect(String(response.headers['content-security-policy'])).not.toContain("default-src 'none'");
  });

  it('shows one message with its HTML and text parts', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `/dev/mailbox/${ids.reset}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('&lt;b&gt;Ana&lt;/b&gt;');
    expect(response.body).not.toContain('<b>Ana</b>');
    expect(response.body).toContain('href="http://localhost:3000/password-reset/reset-token"');

    const text = await ctx.app.inject({ method: 'GET', url: `/dev/mailbox/${ids.reset}?format=text` });
    expect(text.headers['content-type']).toMatch(/text\/plain/);
    expect(text.body).toContain('Hello, <b>Ana</b>!');

    const html = await ctx.app.inject({ method: 'GET', url: `/dev/mailbox/${ids.activation}?format=html` });
    expect(html.headers['content-type']).toMatch(/text\/html/);
    expect(html.body).toContain('<html lang="pt-BR"');
  });

  it('lists a row that cannot be rendered instead of failing the whole page', async () => {
    const { id } = await ctx.database.prisma.outboundEmail.create({
      data: { toAddress: 'broken@example.com', template: 'no-such-template', locale: 'en', data: {} },
    });
    const json = await ctx.app.inject({ method: 'GET', url: '/dev/mailbox.json?to=broken%40example.com' });
    expect(json.statusCode).toBe(200);
    expect(json.json().messages).toMatchObject([{ id, subject: '(cannot be rendered)', links: [] }]);
    expect((await ctx.app.inject({ method: 'GET', url: '/dev/mailbox' })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: `/dev/mailbox/${id}` })).statusCode).toBe(200);
    await ctx.database.prisma.outboundEmail.delete({ where: { id } });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const response = await ctx.app.inject({ method: 'GET', url: `/dev/mailbox/${id}` });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toHaveProperty('message');
    }
  });

  it('shows a message as SENT once the queue has delivered it, with the link only the mailbox keeps', async () => {
    await ctx.app.queue.enqueue({ kind: 'email.send', emailId: ids.other! }, { jobId: ids.other });
    let message: DevMailboxMessage | undefined;
    for (let tries = 0; tries < 100 && message?.status !== 'SENT'; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const body = DevMailboxResponseSchema.parse(
        (await ctx.app.inject({ method: 'GET', url: '/dev/mailbox.json?to=bob%40example.com' })).json(),
      );
      message = body.messages[0];
    }
    expect(message).toMatchObject({ status: 'SENT', attempts: 1, subject: 'Активируйте аккаунт в Giftstore' });
    expect(message?.links).toEqual(['http://localhost:3000/?accountToken=other-token']);
    expect(await databaseText(ctx.database.sql)).not.toContain('other-token');
  });

  it('shows a sent message another process delivered without a body, and a failed one with its reason', async () => {
    const sent = await recordEmail(ctx.database.sql, {
      to: 'carol@example.com',
      template: 'email-verify',
      locale: 'en',
      data: { name: 'Carol', link: 'http://localhost:3000/verify-email/carol-token', expiresInMinutes: 60 },
    });
    const failed = await recordEmail(ctx.database.sql, {
      to: 'carol@example.com',
      template: 'password-reset',
      locale: 'en',
      data: { name: 'Carol', link: 'http://localhost:3000/password-reset/carol-token', expiresInMinutes: 60 },
    });
    // What a worker leaves: the status, and the data without the link.
    await ctx.database.prisma.outboundEmail.update({
      where: { id: sent },
      data: { status: 'SENT', attempts: 1, sentAt: new Date(), data: { name: 'Carol', expiresInMinutes: 60 } },
    });
    await ctx.database.prisma.outboundEmail.update({
      where: { id: failed },
      data: { status: 'FAILED', lastError: 'recipient refused', data: { name: 'Carol', expiresInMinutes: 60 } },
    });
    const body = DevMailboxResponseSchema.parse(
      (await ctx.app.inject({ method: 'GET', url: '/dev/mailbox.json?to=carol%40example.com' })).json(),
    );
    const byId = new Map(body.messages.map((message) => [message.id, message]));
    expect(byId.get(sent)).toMatchObject({ status: 'SENT', subject: 'Confirm your email address', links: [] });
    expect(byId.get(sent)?.text).toMatch(/keeps no link/);
    expect(byId.get(failed)).toMatchObject({ status: 'FAILED', subject: 'Reset your Giftstore password', links: [] });
    expect(byId.get(failed)?.text).toContain('recipient refused');
    const page = await ctx.app.inject({ method: 'GET', url: `/dev/mailbox/${sent}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('carol-token');
  });

  it('reads the activation link of a registration, which the database no longer holds once it is sent', async () => {
    const email = 'dana@example.com';
    const registered = await ctx.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      payload: { name: 'Dana', email, password: 'Secret123', password_confirmation: 'Secret123' },
    });
    expect(registered.statusCode).toBe(201);
    let message: DevMailboxMessage | undefined;
    for (let tries = 0; tries < 100 && message?.status !== 'SENT'; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const body = DevMailboxResponseSchema.parse(
        (await ctx.app.inject({ method: 'GET', url: `/dev/mailbox.json?to=${encodeURIComponent(email)}` })).json(),
      );
      message = body.messages[0];
    }
    expect(message?.status).toBe('SENT');
    const token = new URL(message?.links[0] ?? 'http://x/').searchParams.get('accountToken') ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await databaseText(ctx.database.sql)).not.toContain(token);
    const activated = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/activate',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      payload: { token },
    });
    expect(activated.statusCode).toBe(200);
  });

  it('answers only clients on this machine, by the socket address', async () => {
    for (const remoteAddress of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) {
      const response = await ctx.app.inject({ method: 'GET', url: '/dev/mailbox.json?limit=1', remoteAddress });
      expect(response.statusCode, remoteAddress).toBe(200);
    }
    for (const remoteAddress of ['192.168.1.20', '10.0.0.1', '203.0.113.7', '::ffff:192.168.1.20', 'fe80::1', '::']) {
      for (const url of ['/dev/mailbox.json?to=ana%40example.com', '/dev/mailbox', `/dev/mailbox/${ids.reset}`]) {
        const response = await ctx.app.inject({ method: 'GET', url, remoteAddress });
        expect(response.statusCode, `${remoteAddress} ${url}`).toBe(404);
        expect(response.body).not.toContain('reset-token');
        expect(response.body).not.toContain('Dev mailbox');
      }
    }
  });

  it('refuses a request that came through a proxy, even a local one', async () => {
    for (const headers of [
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=127.0.0.1' },
      { 'x-real-ip': '127.0.0.1' },
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url: '/dev/mailbox.json', headers });
      expect(response.statusCode, JSON.stringify(headers)).toBe(404);
    }
  });

  it('is not rate-limited like the API (browser tests poll it)', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 650; i++) {
      statuses.add((await ctx.app.inject({ method: 'GET', url: '/dev/mailbox.json?limit=1' })).statusCode);
    }
    expect([...statuses]).toEqual([200]);
  });
});

describe('dev mailbox behind a trusted proxy', () => {
  it('believes the socket, not a forwarded address that says loopback', async () => {
    const ctx = await buildTestApp({ TRUST_PROXY: '1' });
    try {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/dev/mailbox.json',
        remoteAddress: '203.0.113.7',
        headers: { 'x-forwarded-for': '127.0.0.1' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('messages');
    } finally {
      await ctx.close();
    }
  });
});

describe('dev mailbox where it must not be', () => {
  it.each([
    [
      'in production',
      {
        NODE_ENV: 'production',
        JWT_SECRET: randomBytes(32).toString('hex'),
        CODE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        SANDBOX_API_KEY: randomBytes(32).toString('hex'),
        PAYMENTS_WEBHOOK_SECRETS: `whsec_${randomBytes(32).toString('base64')}`,
        PUBLIC_URL: 'https://store.example.com',
      },
    ],
    ['where real mail goes out over SMTP', { SMTP_URL: 'smtp://mail.example:25' }],
  ])('is not registered %s', async (_where, env) => {
    const ctx = await buildTestApp(env);
    try {
      for (const url of ['/dev/mailbox', '/dev/mailbox.json', `/dev/mailbox/${randomUUID()}`]) {
        const response = await ctx.app.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(404);
        expect(response.body).not.toContain('Dev mailbox');
      }
    } finally {
      await ctx.close();
    }
  });
});
