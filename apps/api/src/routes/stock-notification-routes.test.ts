import { ErrorKeys, STOCK_NOTIFICATION_LINK_EXPIRED, STOCK_NOTIFICATION_LINK_USED } from '@store/contract';
import { cliActor, createCodeStock } from '@store/core';
import { eventually } from '@store/core/testing';
import { createCodeCipher, devCodeKey } from '@store/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, emailedToken, registerUser } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { rateLimit } from '../plugins/rate-limit-presets.ts';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;
const queue = createRecordingQueue();
const cipher = createCodeCipher(devCodeKey());
/** New codes for a product, imported as the console and the command line import them. */
const restock = (productId: number, ...codes: string[]) =>
  createCodeStock({ sql: ctx.database.sql, cipher }).importCodes(
    { productId, text: codes.join('\n') },
    cliActor('test'),
  );

beforeAll(async () => {
  ctx = await buildTestApp({ PUBLIC_URL: 'https://store.example' }, { queue });
});
afterAll(async () => {
  await ctx?.close();
});

async function soldOutProduct(skip = 0) {
  const rows = await ctx.database.prisma.product.findMany({
    where: { stockCount: 0, isActive: true },
    orderBy: { id: 'asc' },
    skip,
    take: 1,
  });
  const product = rows[0];
  if (!product) throw new Error('the demo has no sold-out product');
  return product;
}

const ask = (id: number, body: unknown, remoteAddress = '10.9.0.1', token?: string) =>
  call(ctx.app, 'POST', `/api/products/${id}/stock-notifications`, { body, remoteAddress, token });
const confirm = (token: string, remoteAddress = '10.9.2.1') =>
  call(ctx.app, 'POST', '/api/stock-notifications/confirm', { body: { token }, remoteAddress });

const outbox = (to: string, template: 'back-in-stock' | 'back-in-stock-confirm') =>
  ctx.database.prisma.outboundEmail.findMany({ where: { toAddress: to, template } });

describe('POST /api/products/{id}/stock-notifications', () => {
  it('keeps a guest’s request once its emailed link is followed, and then writes once when codes are imported', async () => {
    const product = await soldOutProduct();
    const asked = await ask(product.id, { email: 'Watcher@Example.com', lang: 'ru' });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ ok: true, confirm_by_email: true });
    const { token, link } = await emailedToken(ctx.database.prisma, 'watcher@example.com', 'back-in-stock-confirm');
    expect(link).toBe(`https://store.example/product/${product.id}?backInStockToken=${token}`);

    const confirmed = await confirm(token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ ok: true, lang: 'ru' });
    expect(await outbox('watcher@example.com', 'back-in-stock')).toHaveLength(0);

    const report = await restock(product.id, 'BACK-1', 'BACK-2');
    expect(report.added).toBe(2);
    await eventually(async () => (await outbox('watcher@example.com', 'back-in-stock')).length === 1, 15_000);
    const [email] = await outbox('watcher@example.com', 'back-in-stock');
    if (!email) throw new Error('no back-in-stock email');
    expect(email.locale).toBe('ru');
    expect((email.data as { link: string }).link).toBe(`https://store.example/product/${product.id}`);
    expect(queue.jobs.some(({ job }) => JSON.stringify(job).includes(email.id))).toBe(true);

    // Written once: more stock, or another run, sends nothing more.
    await restock(product.id, 'BACK-3');
    expect(await ctx.app.services.stockNotifications.notifyRestocked()).toBe(0);
    expect(await outbox('watcher@example.com', 'back-in-stock')).toHaveLength(1);
  });

  it('writes to a stranger nothing but the link, and nothing at all while it is not followed', async () => {
    const product = await soldOutProduct(2);
    expect((await ask(product.id, { email: 'stranger@example.com', lang: 'en' }, '10.9.0.3')).status).toBe(200);
    await restock(product.id, 'STRANGER-1');
    await ctx.app.services.stockNotifications.notifyRestocked();
    expect(await outbox('stranger@example.com', 'back-in-stock-confirm')).toHaveLength(1);
    expect(await outbox('stranger@example.com', 'back-in-stock')).toHaveLength(0);
  });

  it('keeps a signed-in customer’s own verified address without a link; another address gets one', async () => {
    const product = await soldOutProduct(1);
    const customer = await registerUser(ctx.app);
    const own = await ask(product.id, { email: customer.email, lang: 'en' }, '10.9.0.4', customer.token);
    // Not verified yet: as any guest's.
    expect(own.body.confirm_by_email).toBe(true);
    await ctx.database.prisma.user.update({ where: { email: customer.email }, data: { emailVerifiedAt: new Date() } });
    const verified = await ask(product.id, { email: customer.email, lang: 'en' }, '10.9.0.4', customer.token);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ ok: true, confirm_by_email: false });
    expect(
      await ctx.database.prisma.stockNotification.findFirstOrThrow({
        where: { productId: product.id, email: customer.email },
      }),
    ).toMatchObject({ confirmedAt: expect.any(Date) });
    const other = await ask(product.id, { email: 'friend@example.com', lang: 'en' }, '10.9.0.4', customer.token);
    expect(other.body.confirm_by_email).toBe(true);
    expect(await outbox('friend@example.com', 'back-in-stock-confirm')).toHaveLength(1);
    // A token that is no live session's is refused, as anywhere else.
    expect((await ask(product.id, { email: 'x@example.com', lang: 'en' }, '10.9.0.4', 'not-a-token')).status).toBe(401);
  });

  it('answers a used link and an expired one with a 409 that says which, an unknown one with a 422', async () => {
    const product = await soldOutProduct(1);
    await ask(product.id, { email: 'twice@example.com', lang: 'en' }, '10.9.0.5');
    const { token } = await emailedToken(ctx.database.prisma, 'twice@example.com', 'back-in-stock-confirm');
    expect((await confirm(token, '10.9.2.5')).status).toBe(200);
    const used = await confirm(token, '10.9.2.5');
    expect(used.status).toBe(409);
    expect(used.body.code).toBe(STOCK_NOTIFICATION_LINK_USED);

    await ask(product.id, { email: 'late@example.com', lang: 'en' }, '10.9.0.5');
    const late = await emailedToken(ctx.database.prisma, 'late@example.com', 'back-in-stock-confirm');
    await ctx.database.prisma.stockNotification.updateMany({
      where: { email: 'late@example.com' },
      data: { confirmExpiresAt: new Date(Date.now() - 1_000) },
    });
    const expired = await confirm(late.token, '10.9.2.5');
    expect(expired.status).toBe(409);
    expect(expired.body.code).toBe(STOCK_NOTIFICATION_LINK_EXPIRED);

    const unknown = await confirm('A'.repeat(43), '10.9.2.5');
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.token).toEqual([ErrorKeys.tokenInvalid]);
    expect((await confirm('short', '10.9.2.5')).status).toBe(422);
  });

  it('answers 409 for a product in stock and 404 for an unknown one', async () => {
    const inStock = await ctx.database.prisma.product.findFirstOrThrow({ where: { stockCount: { gt: 0 } } });
    const conflict = await ask(inStock.id, { email: 'a@example.com', lang: 'en' });
    expect(conflict.status).toBe(409);
    expect((await ask(999_999, { email: 'a@example.com', lang: 'en' })).status).toBe(404);
  });

  it('refuses a bad address or language with a 422 per field', async () => {
    const product = await soldOutProduct(1);
    const bad = await ask(product.id, { email: 'not-an-address', lang: 'fr' }, '10.9.0.2');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.email).toEqual([ErrorKeys.invalidEmailFormat]);
    expect(bad.body.errors.lang).toEqual([ErrorKeys.unknownOption]);
  });

  it('is rate limited', async () => {
    const { max } = rateLimit('stockNotify');
    const product = await soldOutProduct(1);
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= max; attempt += 1) {
      statuses.push((await ask(product.id, { email: `w${attempt}@example.com`, lang: 'en' }, '10.9.1.1')).status);
    }
    expect(statuses.slice(0, max).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
