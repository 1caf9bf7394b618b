import { randomBytes } from 'node:crypto';
import {
  EMAIL_TOKEN_TTL_MINUTES,
  ErrorKeys,
  STOCK_NOTIFICATION_LINK_EXPIRED,
  STOCK_NOTIFICATION_LINK_USED,
} from '@store/contract';
import { createCodeCipher } from '@store/db';
import { createProductRefs, createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashEmailToken } from '../accounts/email-tokens.ts';
import { cliActor } from '../admin/audit-log.ts';
import { createCodeStock } from '../admin/code-stock.ts';
import { ConflictError, ValidationError } from '../shared/errors.ts';
import { createStockNotificationService, UNCONFIRMED_KEPT_MS } from './stock-notifications.ts';

const cipher = createCodeCipher('5a'.repeat(32));
let database: TestDatabase;
let refs: Awaited<ReturnType<typeof createProductRefs>>;
/** The service's clock: a test moves it to make a link expire. */
let now = new Date('2026-12-01T12:00:00Z');

beforeAll(async () => {
  database = await createTestDatabase();
  refs = await createProductRefs(database.prisma);
});
afterAll(async () => {
  await database?.cleanup();
});

const service = () =>
  createStockNotificationService({ db: database.prisma, publicUrl: 'https://store.example/', clock: () => now });

const soldOut = () =>
  database.prisma.product.create({
    data: { ...refs, name: `Watched ${randomBytes(3).toString('hex')}`, nominalMinor: 1_000, priceMinor: 2_000 },
  });

const restock = (productId: number) =>
  createCodeStock({ sql: database.sql, cipher }).importCodes(
    { productId, text: `BACK-${randomBytes(5).toString('hex')}` },
    cliActor('test'),
  );

const address = () => `watcher.${randomBytes(4).toString('hex')}@example.com`;

/** The emails written to `to`, oldest first. */
const mailTo = (to: string) =>
  database.prisma.outboundEmail.findMany({ where: { toAddress: to }, orderBy: { createdAt: 'asc' } });

/** The token of the newest confirmation email to `to`, and its link. */
async function confirmationLink(to: string) {
  const sent = (await mailTo(to)).filter((row) => row.template === 'back-in-stock-confirm');
  const link = (sent.at(-1)?.data as { link: string } | undefined)?.link ?? '';
  const token = /backInStockToken=([A-Za-z0-9_-]{43})$/.exec(link)?.[1];
  if (!token) throw new Error(`no confirmation link to ${to}`);
  return { token, link, count: sent.length };
}

async function refusal(promise: Promise<unknown>) {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('back-in-stock requests', () => {
  it('from a guest: a confirmation email first, and the notice only once its link is followed', async () => {
    const product = await soldOut();
    const to = address();
    expect(await service().subscribe(product.id, to.toUpperCase(), 'ru')).toEqual({ confirmByEmail: true });

    const { token, link } = await confirmationLink(to);
    expect(link).toBe(`https://store.example/product/${product.id}?backInStockToken=${token}`);
    expect(await mailTo(to)).toEqual([
      expect.objectContaining({
        template: 'back-in-stock-confirm',
        locale: 'ru',
        data: expect.objectContaining({ expiresInMinutes: EMAIL_TOKEN_TTL_MINUTES['back-in-stock-confirm'] }),
      }),
    ]);
    // Only the token's digest is kept.
    const row = await database.prisma.stockNotification.findFirstOrThrow({ where: { email: to } });
    expect(row).toMatchObject({ confirmedAt: null, confirmTokenHash: hashEmailToken(token) });
    expect(JSON.stringify(row)).not.toContain(token);

    // Unconfirmed, the stock's return writes nothing.
    await restock(product.id);
    expect(await service().notifyRestocked()).toBe(0);
    expect((await mailTo(to)).map((row) => row.template)).toEqual(['back-in-stock-confirm']);

    // Confirmed while in stock: the notice goes at once.
    const notices = service();
    expect(await notices.confirm(token)).toEqual({ locale: 'ru' });
    await notices.notifyRestocked();
    expect((await mailTo(to)).map((row) => row.template)).toEqual(['back-in-stock-confirm', 'back-in-stock']);
  });

  it('for a signed-in customer’s own verified address stands at once; another address, or an unverified one, is confirmed by email', async () => {
    const verified = await database.prisma.user.create({
      data: { email: address(), name: 'Owner', passwordHash: 'x', emailVerifiedAt: now },
    });
    const unverified = await database.prisma.user.create({
      data: { email: address(), name: 'Newcomer', passwordHash: 'x' },
    });
    const product = await soldOut();
    const notices = service();
    expect(await notices.subscribe(product.id, verified.email, 'en', { userId: verified.id })).toEqual({
      confirmByEmail: false,
    });
    const someoneElse = address();
    expect(await notices.subscribe(product.id, someoneElse, 'en', { userId: verified.id })).toEqual({
      confirmByEmail: true,
    });
    expect(await notices.subscribe(product.id, unverified.email, 'en', { userId: unverified.id })).toEqual({
      confirmByEmail: true,
    });
    expect(await mailTo(verified.email)).toEqual([]);

    await restock(product.id);
    await notices.notifyRestocked();
    expect((await mailTo(verified.email)).map((row) => row.template)).toEqual(['back-in-stock']);
    for (const to of [someoneElse, unverified.email]) {
      expect((await mailTo(to)).map((row) => row.template)).toEqual(['back-in-stock-confirm']);
    }
  });

  it('a link works once: used again, it says so; a newer request’s link replaces the older one', async () => {
    const product = await soldOut();
    const to = address();
    const notices = service();
    await notices.subscribe(product.id, to, 'en');
    const first = await confirmationLink(to);
    await notices.subscribe(product.id, to, 'pt-BR');
    const second = await confirmationLink(to);
    expect(second.count).toBe(2);

    const stale = await refusal(notices.confirm(first.token));
    expect(stale).toBeInstanceOf(ValidationError);
    expect((stale as ValidationError).errors).toEqual({ token: [ErrorKeys.tokenInvalid] });

    expect(await notices.confirm(second.token)).toEqual({ locale: 'pt-BR' });
    const again = await refusal(notices.confirm(second.token));
    expect(again).toBeInstanceOf(ConflictError);
    expect((again as ConflictError).code).toBe(STOCK_NOTIFICATION_LINK_USED);

    // Confirmed and waiting, asking again mails nothing and changes nothing.
    expect(await notices.subscribe(product.id, to, 'en')).toEqual({ confirmByEmail: true });
    expect((await confirmationLink(to)).count).toBe(2);
    expect(await database.prisma.stockNotification.findFirstOrThrow({ where: { email: to } })).toMatchObject({
      locale: 'pt-BR',
      confirmedAt: expect.any(Date),
    });
  });

  it('an expired link says so and confirms nothing; a week later the request is gone', async () => {
    const product = await soldOut();
    const to = address();
    await service().subscribe(product.id, to, 'hi');
    const { token } = await confirmationLink(to);
    const asked = now;
    now = new Date(asked.getTime() + EMAIL_TOKEN_TTL_MINUTES['back-in-stock-confirm'] * 60_000 + 1);
    try {
      const expired = await refusal(service().confirm(token));
      expect(expired).toBeInstanceOf(ConflictError);
      expect((expired as ConflictError).code).toBe(STOCK_NOTIFICATION_LINK_EXPIRED);
      await restock(product.id);
      expect(await service().notifyRestocked()).toBe(0);

      now = new Date(now.getTime() + UNCONFIRMED_KEPT_MS + 1);
      // Any request clears what nobody confirmed in time.
      await service().subscribe((await soldOut()).id, address(), 'en');
      expect(await database.prisma.stockNotification.count({ where: { email: to } })).toBe(0);
      expect(await refusal(service().confirm(token))).toBeInstanceOf(ValidationError);
    } finally {
      now = asked;
    }
  });

  it('cannot be kept unconfirmed without a link to confirm it by: the database refuses it', async () => {
    const product = await soldOut();
    await expect(
      database.prisma.stockNotification.create({ data: { productId: product.id, email: address(), locale: 'en' } }),
    ).rejects.toThrow(/stock_notifications_pending_check/);
  });
});
