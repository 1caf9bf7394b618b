import { ErrorKeys } from '@store/contract';
import { importCodes } from '@store/core';
import { eventually } from '@store/core/testing';
import { createCodeCipher, devCodeKey } from '@store/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { rateLimit } from '../plugins/rate-limit-presets.ts';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;
const queue = createRecordingQueue();
const cipher = createCodeCipher(devCodeKey());

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

const ask = (id: number, body: unknown, remoteAddress = '10.9.0.1') =>
  call(ctx.app, 'POST', `/api/products/${id}/stock-notifications`, { body, remoteAddress });

describe('POST /api/products/{id}/stock-notifications', () => {
  it('keeps the request, and writes once through the outbox when codes are imported', async () => {
    const product = await soldOutProduct();
    const asked = await ask(product.id, { email: 'Watcher@Example.com', lang: 'ru' });
    expect(asked.status).toBe(200);
    expect(asked.body.ok).toBe(true);
    const outbox = () =>
      ctx.database.prisma.outboundEmail.findMany({
        where: { toAddress: 'watcher@example.com', template: 'back-in-stock' },
      });
    expect(await outbox()).toHaveLength(0);

    const report = await importCodes({ db: ctx.database.prisma, cipher }, product.id, ['BACK-1', 'BACK-2']);
    expect(report.added).toBe(2);
    await eventually(async () => (await outbox()).length === 1, 15_000);
    const [email] = await outbox();
    if (!email) throw new Error('no back-in-stock email');
    expect(email.locale).toBe('ru');
    expect((email.data as { link: string }).link).toBe(`https://store.example/product/${product.id}`);
    expect(queue.jobs.some(({ job }) => JSON.stringify(job).includes(email.id))).toBe(true);

    // Written once: more stock, or another run, sends nothing more.
    await importCodes({ db: ctx.database.prisma, cipher }, product.id, ['BACK-3']);
    expect(await ctx.app.services.stockNotifications.notifyRestocked()).toBe(0);
    expect(await outbox()).toHaveLength(1);
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
