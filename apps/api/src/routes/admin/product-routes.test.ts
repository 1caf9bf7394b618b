import { randomUUID } from 'node:crypto';
import { AdminProductDetailSchema, AdminProductPageSchema, type StaffRole } from '@store/contract';
import { cliActor } from '@store/core';
import { eventuallyPasses } from '@store/core/testing';
import { qb } from '@store/db';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../../test/accounts.ts';
import { buildTestApp } from '../../../test/helper.ts';

// The console's catalogue against the real store: PostgreSQL with the demo catalogue, the shop's
// search index kept fresh from the products table's change feed.

let ctx: Awaited<ReturnType<typeof buildTestApp>>;
const tokens: Record<StaffRole, string> = { owner: '', manager: '', support: '' };
const PASSWORD = 'a long staff password';

async function staffToken(role: StaffRole) {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  const staffService = ctx.app.staffService;
  const added = await staffService.addStaff({ email, role, password: PASSWORD }, cliActor('test'));
  const secret = new URL(added.otpauthUri).searchParams.get('secret') as string;
  const answer = await call(ctx.app, 'POST', '/api/admin/session', {
    body: { email, password: PASSWORD, totp: await generate({ secret }) },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.token as string;
}

const auditRows = (action: string, targetId: number) =>
  ctx.database.sql.query(
    qb.selectFrom('audit_log').selectAll().where('action', '=', action).where('target_id', '=', String(targetId)),
  );

const newProduct = {
  name: 'Console Test Card 25 USD',
  descriptions: { en: 'A card for tests.', ru: 'Карта для тестов.' },
  activation_instructions: { en: 'Redeem it.', ru: 'Активируйте её.' },
  price_minor: 13_000,
  category: 'steam',
  country: 'us',
  nominal_minor: 2500,
  nominal_currency: 'usd',
};

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' });
  for (const role of ['owner', 'manager', 'support'] as const) tokens[role] = await staffToken(role);
});
afterAll(async () => {
  await ctx?.close();
});

describe('who may run the catalogue', () => {
  it('a customer gets 401, support 403, a manager and the owner the list', async () => {
    const customer = await registerUser(ctx.app);
    expect((await call(ctx.app, 'GET', '/api/admin/products', { token: customer.token })).status).toBe(401);
    expect((await call(ctx.app, 'GET', '/api/admin/products')).status).toBe(401);
    expect((await call(ctx.app, 'GET', '/api/admin/products', { token: tokens.support })).status).toBe(403);
    expect(
      (await call(ctx.app, 'POST', '/api/admin/products', { token: tokens.support, body: newProduct })).status,
    ).toBe(403);
    expect((await call(ctx.app, 'PATCH', '/api/admin/products/1', { token: tokens.support, body: {} })).status).toBe(
      403,
    );
    for (const role of ['manager', 'owner'] as const) {
      const listed = await call(ctx.app, 'GET', '/api/admin/products?page_size=5', { token: tokens[role] });
      expect(listed.status).toBe(200);
      const page = AdminProductPageSchema.parse(listed.body);
      expect(page.items).toHaveLength(5);
      expect(page.total).toBeGreaterThan(5);
    }
  });
});

describe('GET /api/admin/products', () => {
  it('searches by name, category and whether on sale, and pages', async () => {
    const steam = AdminProductPageSchema.parse(
      (await call(ctx.app, 'GET', '/api/admin/products?category=steam&page_size=100', { token: tokens.manager })).body,
    );
    expect(steam.total).toBeGreaterThan(0);
    expect(steam.items.every((product) => product.category === 'steam')).toBe(true);
    const named = AdminProductPageSchema.parse(
      (await call(ctx.app, 'GET', '/api/admin/products?q=spotify', { token: tokens.manager })).body,
    );
    expect(named.total).toBeGreaterThan(0);
    expect(named.items.every((product) => /spotify/i.test(product.name))).toBe(true);
    const second = AdminProductPageSchema.parse(
      (await call(ctx.app, 'GET', '/api/admin/products?page=2&page_size=2', { token: tokens.manager })).body,
    );
    const first = AdminProductPageSchema.parse(
      (await call(ctx.app, 'GET', '/api/admin/products?page=1&page_size=2', { token: tokens.manager })).body,
    );
    expect(second.items.map(({ id }) => id)).not.toContain(first.items[0]?.id);
    const bad = await call(ctx.app, 'GET', '/api/admin/products?active=maybe&page=0', { token: tokens.manager });
    expect(bad).toMatchObject({
      status: 422,
      body: { errors: { active: ['validation.unknownOption'], page: ['validation.tooSmall'] } },
    });
  });
});

describe('POST and PATCH /api/admin/products', () => {
  it('refuses bad input with a key per field, and names an unknown category', async () => {
    const bad = await call(ctx.app, 'POST', '/api/admin/products', {
      token: tokens.manager,
      body: { name: '', price_minor: -5, category: 'steam', country: 'US', nominal_minor: 10, nominal_currency: 'USD' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({ name: ['validation.requiredField'], price_minor: ['validation.tooSmall'] });
    const unknown = await call(ctx.app, 'POST', '/api/admin/products', {
      token: tokens.manager,
      body: { ...newProduct, category: 'no-such-category' },
    });
    expect(unknown).toMatchObject({ status: 422, body: { errors: { category: ['validation.unknownOption'] } } });
    const halfTranslated = await call(ctx.app, 'POST', '/api/admin/products', {
      token: tokens.manager,
      body: { ...newProduct, descriptions: { hi: 'एक कार्ड।' }, activation_instructions: {} },
    });
    expect(halfTranslated).toMatchObject({
      status: 422,
      body: { errors: { 'activation_instructions.hi': ['validation.requiredField'] } },
    });
    const oldPrice = await call(ctx.app, 'PATCH', '/api/admin/products/1', {
      token: tokens.manager,
      body: { old_price_minor: 1 },
    });
    expect(oldPrice).toMatchObject({ status: 422, body: { errors: { old_price_minor: ['validation.tooSmall'] } } });
    expect(
      (await call(ctx.app, 'PATCH', '/api/admin/products/999999', { token: tokens.manager, body: { name: 'X' } }))
        .status,
    ).toBe(404);
  });

  it('creates a product with its texts, audited once, and it shows in the shop', async () => {
    const created = await call(ctx.app, 'POST', '/api/admin/products', { token: tokens.manager, body: newProduct });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { product } = AdminProductDetailSchema.parse(created.body);
    expect(product).toMatchObject({
      name: newProduct.name,
      country: 'US',
      nominal_currency: 'USD',
      is_active: true,
      descriptions: { en: 'A card for tests.', ru: 'Карта для тестов.', 'pt-BR': '', hi: '' },
      activation_instructions: { en: 'Redeem it.', ru: 'Активируйте её.', hi: '' },
    });
    const rows = await auditRows('product.create', product.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ role: 'manager', target_type: 'product', after: { price_minor: 13_000 } });

    const shown = await call(ctx.app, 'GET', `/api/products/${product.id}?lang=ru`);
    expect(shown).toMatchObject({ status: 200, body: { name: newProduct.name, description: 'Карта для тестов.' } });
  });

  it('changes a price, audited once with before and after, and the shop shows the new price', async () => {
    const listed = AdminProductPageSchema.parse(
      (await call(ctx.app, 'GET', '/api/admin/products?category=xbox&active=true', { token: tokens.owner })).body,
    );
    const target = listed.items.find((product) => product.old_price_minor === null) ?? listed.items[0];
    if (!target) throw new Error('the demo catalogue has xbox products');
    const price = target.price_minor + 123;
    // The shop has answered (and may have cached) the old price before the change.
    await call(ctx.app, 'GET', `/api/products/${target.id}`);
    await call(ctx.app, 'GET', '/api/categories/xbox?limit=60');

    const changed = await call(ctx.app, 'PATCH', `/api/admin/products/${target.id}`, {
      token: tokens.manager,
      body: {
        price_minor: price,
        old_price_minor: null,
        descriptions: { 'pt-BR': 'Um cartão.' },
        activation_instructions: { 'pt-BR': 'Resgate-o.' },
      },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.product).toMatchObject({ price_minor: price, descriptions: { 'pt-BR': 'Um cartão.' } });

    const rows = await auditRows('product.update', target.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.before).toMatchObject({ price_minor: target.price_minor });
    expect(rows[0]?.after).toMatchObject({ price_minor: price, descriptions: { 'pt-BR': 'Um cartão.' } });
    expect(Object.keys(rows[0]?.after as object)).not.toContain('name');

    const shown = await call(ctx.app, 'GET', `/api/products/${target.id}?lang=pt-BR`);
    expect(shown).toMatchObject({ status: 200, body: { price_minor: price, description: 'Um cartão.' } });
    await eventuallyPasses(async () => {
      const listing = await call(ctx.app, 'GET', '/api/categories/xbox?limit=60');
      const found = (listing.body.result.products as Array<{ id: number; price_minor: number }>).find(
        ({ id }) => id === target.id,
      );
      expect(found?.price_minor).toBe(price);
    });

    // The same change again changes nothing and writes no second row.
    await call(ctx.app, 'PATCH', `/api/admin/products/${target.id}`, {
      token: tokens.manager,
      body: { price_minor: price },
    });
    expect(await auditRows('product.update', target.id)).toHaveLength(1);
  });

  it('takes a product off sale: the shop stops listing it', async () => {
    const created = AdminProductDetailSchema.parse(
      (
        await call(ctx.app, 'POST', '/api/admin/products', {
          token: tokens.owner,
          body: { ...newProduct, name: 'Zyxwv Off Sale Card' },
        })
      ).body,
    );
    const hints = async () =>
      (await call(ctx.app, 'GET', '/api/search/hints/zyxwv')).body.hintsByName.map(
        ({ name }: { name: string }) => name,
      );
    await eventuallyPasses(async () => expect(await hints()).toContain('Zyxwv Off Sale Card'));
    const off = await call(ctx.app, 'PATCH', `/api/admin/products/${created.product.id}`, {
      token: tokens.owner,
      body: { is_active: false },
    });
    expect(off).toMatchObject({ status: 200, body: { product: { is_active: false } } });
    await eventuallyPasses(async () => expect(await hints()).toEqual([]));
  });
});
