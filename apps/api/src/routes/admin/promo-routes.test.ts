import { randomUUID } from 'node:crypto';
import { AdminPromoPageSchema, AdminPromoResponseSchema, type StaffRole } from '@store/contract';
import { cliActor } from '@store/core';
import { qb } from '@store/db';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../../test/accounts.ts';
import { buildTestApp } from '../../../test/helper.ts';

// The console's promo codes against the real store; the shop's promo route tells whether a code
// still works.

let ctx: Awaited<ReturnType<typeof buildTestApp>>;
const tokens: Record<StaffRole, string> = { owner: '', manager: '', support: '' };
const PASSWORD = 'a long staff password';

async function staffToken(role: StaffRole) {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  const added = await ctx.app.staffService.addStaff({ email, role, password: PASSWORD }, cliActor('test'));
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

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' });
  for (const role of ['owner', 'manager', 'support'] as const) tokens[role] = await staffToken(role);
});
afterAll(async () => {
  await ctx?.close();
});

describe('the console promo codes', () => {
  it('a customer gets 401, support 403', async () => {
    const customer = await registerUser(ctx.app);
    expect((await call(ctx.app, 'GET', '/api/admin/promo-codes', { token: customer.token })).status).toBe(401);
    expect((await call(ctx.app, 'GET', '/api/admin/promo-codes', { token: tokens.support })).status).toBe(403);
    expect(
      (
        await call(ctx.app, 'POST', '/api/admin/promo-codes', {
          token: tokens.support,
          body: { code: 'ABC', percent: 5 },
        })
      ).status,
    ).toBe(403);
  });

  it('refuses bad input per field, an unknown category and a taken code', async () => {
    const bad = await call(ctx.app, 'POST', '/api/admin/promo-codes', {
      token: tokens.manager,
      body: { code: 'a b', percent: 101, valid_from: '2027-01-02', valid_until: '2027-01-01', max_uses: 0 },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      code: ['validation.invalidCharacters'],
      percent: ['validation.tooLarge'],
      max_uses: ['validation.tooSmall'],
    });
    const unknown = await call(ctx.app, 'POST', '/api/admin/promo-codes', {
      token: tokens.manager,
      body: { code: 'NOSUCHCAT', percent: 5, categories: ['no-such-category'] },
    });
    expect(unknown).toMatchObject({ status: 422, body: { errors: { categories: ['validation.invalidValue'] } } });
    const first = await call(ctx.app, 'POST', '/api/admin/promo-codes', {
      token: tokens.manager,
      body: { code: 'twice', percent: 5 },
    });
    expect(first.status).toBe(201);
    const again = await call(ctx.app, 'POST', '/api/admin/promo-codes', {
      token: tokens.manager,
      body: { code: 'TWICE', percent: 7 },
    });
    expect(again).toMatchObject({ status: 422, body: { errors: { code: ['validation.duplicateValue'] } } });
  });

  it('creates a code, audited once, lists it, and deactivates it once', async () => {
    const created = await call(ctx.app, 'POST', '/api/admin/promo-codes', {
      token: tokens.manager,
      body: { code: 'console10', percent: 10, categories: ['steam'], max_uses: 50 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { promo } = AdminPromoResponseSchema.parse(created.body);
    expect(promo).toMatchObject({ code: 'CONSOLE10', percent: 10, categories: ['steam'], status: 'usable' });
    const createdRows = await auditRows('promo.create', promo.id);
    expect(createdRows).toHaveLength(1);
    expect(createdRows[0]).toMatchObject({ role: 'manager', after: { code: 'CONSOLE10', percent: 10 } });

    const listed = AdminPromoPageSchema.parse(
      (await call(ctx.app, 'GET', '/api/admin/promo-codes?q=console&active=true', { token: tokens.owner })).body,
    );
    expect(listed.items.map(({ code }) => code)).toEqual(['CONSOLE10']);

    const noReason = await call(ctx.app, 'POST', `/api/admin/promo-codes/${promo.id}/deactivate`, {
      token: tokens.manager,
      body: { reason: '' },
    });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.reason[0]).toBe('validation.requiredField');
    for (let i = 0; i < 2; i += 1) {
      const off = await call(ctx.app, 'POST', `/api/admin/promo-codes/${promo.id}/deactivate`, {
        token: tokens.manager,
        body: { reason: 'campaign over' },
      });
      expect(off).toMatchObject({ status: 200, body: { promo: { is_active: false, status: 'inactive' } } });
    }
    const rows = await auditRows('promo.update', promo.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      before: { is_active: true },
      after: { is_active: false, reason: 'campaign over' },
    });
    expect(
      (
        await call(ctx.app, 'POST', '/api/admin/promo-codes/999999/deactivate', {
          token: tokens.manager,
          body: { reason: 'campaign over' },
        })
      ).status,
    ).toBe(404);
  });
});
