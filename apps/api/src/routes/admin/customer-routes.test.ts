import { randomUUID } from 'node:crypto';
import type { StaffRole } from '@store/contract';
import { cliActor, createLedgerService } from '@store/core';
import { qb } from '@store/db';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../../test/accounts.ts';
import { buildTestApp } from '../../../test/helper.ts';

// The console's customers against the real store. Staff sign in with TOTP codes computed here from
// the secret the otpauth URI carries; a balance adjustment asks for a code of a later time step than
// the one the sign-in used (one step ahead is within the window the server accepts).

let ctx: Awaited<ReturnType<typeof buildTestApp>>;
const tokens: Record<StaffRole, string> = { owner: '', manager: '', support: '' };
const PASSWORD = 'a long staff password';

const secretOf = (uri: string) => new URL(uri).searchParams.get('secret') as string;

async function signedInStaff(role: StaffRole) {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  const added = await ctx.app.staffService.addStaff({ email, role, password: PASSWORD }, cliActor('test'));
  const secret = secretOf(added.otpauthUri);
  const signInCode = await generate({ secret });
  const answer = await call(ctx.app, 'POST', '/api/admin/session', {
    body: { email, password: PASSWORD, totp: signInCode },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return {
    id: added.staff.id,
    token: answer.body.token as string,
    signInCode,
    /** A code of the next time step: not used yet. */
    freshCode: () => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }),
  };
}

async function auditRows(action: string, targetId: string) {
  return ctx.database.sql.query(
    qb.selectFrom('audit_log').selectAll().where('action', '=', action).where('target_id', '=', targetId),
  );
}

async function customerRow(id: string) {
  const [row] = await ctx.database.sql.query(
    qb.selectFrom('users').select(['balance_minor', 'owed_minor', 'blocked_at']).where('id', '=', id),
  );
  return row;
}

async function adjustments(userId: string) {
  return ctx.database.sql.query(
    qb
      .selectFrom('ledger_transfers as t')
      .innerJoin('ledger_entries as e', 'e.transfer_id', 't.id')
      .select(['t.id', 't.idempotency_key', 'e.amount_minor'])
      .where('e.user_id', '=', userId)
      .where('t.kind', '=', 'ADJUSTMENT'),
  );
}

const adjust = (token: string, customerId: string, body: object) =>
  call(ctx.app, 'POST', `/api/admin/customers/${customerId}/balance`, { token, body });

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' });
  for (const role of ['owner', 'manager', 'support'] as const) tokens[role] = (await signedInStaff(role)).token;
});
afterAll(async () => {
  await ctx?.close();
});

describe('who may', () => {
  it('a customer token gets 401; support and managers read but change nothing (the owner does)', async () => {
    const customer = await registerUser(ctx.app);
    const id = customer.user.id;
    for (const path of ['/api/admin/customers', `/api/admin/customers/${id}`, '/api/admin/dashboard']) {
      expect((await call(ctx.app, 'GET', path, { token: customer.token })).status, path).toBe(401);
    }
    expect((await call(ctx.app, 'GET', `/api/admin/customers/${id}`, { token: tokens.support })).status).toBe(200);
    for (const role of ['support', 'manager'] as const) {
      for (const action of ['block', 'unblock', 'revoke-sessions']) {
        const refused = await call(ctx.app, 'POST', `/api/admin/customers/${id}/${action}`, {
          token: tokens[role],
          body: { reason: 'not my call' },
        });
        expect(refused.status, `${role} ${action}`).toBe(403);
      }
    }
    const body = { amount_minor: 500, reason: 'goodwill', totp: '000000', idempotency_key: randomUUID() };
    expect((await adjust(tokens.support, id, body)).status).toBe(403);
    expect((await adjust(tokens.manager, id, body)).status).toBe(403);
    expect(await customerRow(id)).toMatchObject({ balance_minor: 0, blocked_at: null });
    expect(await ctx.database.sql.query(qb.selectFrom('audit_log').select('id').where('target_id', '=', id))).toEqual(
      [],
    );
  });

  it('bad input gets 422 per field', async () => {
    const search = await call(ctx.app, 'GET', `/api/admin/customers?blocked=maybe&page=0&q=${'x'.repeat(129)}`, {
      token: tokens.support,
    });
    expect(search.status).toBe(422);
    expect(Object.keys(search.body.errors).sort()).toEqual(['blocked', 'page', 'q']);
    const detail = await call(ctx.app, 'GET', '/api/admin/customers/not-an-id', { token: tokens.support });
    expect(detail).toMatchObject({ status: 422, body: { errors: { id: ['validation.invalidValue'] } } });
    const customer = await registerUser(ctx.app);
    const bad = await adjust(tokens.owner, customer.user.id, {
      amount_minor: 0,
      reason: ' ',
      totp: '12',
      idempotency_key: 'x',
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['amount_minor', 'idempotency_key', 'reason', 'totp']);
    const block = await call(ctx.app, 'POST', `/api/admin/customers/${customer.user.id}/block`, {
      token: tokens.owner,
      body: {},
    });
    expect(block).toMatchObject({ status: 422, body: { errors: { reason: ['validation.requiredField'] } } });
    const unknown = await call(ctx.app, 'GET', `/api/admin/customers/${randomUUID()}`, { token: tokens.support });
    expect(unknown.status).toBe(404);
  });
});

describe('search and detail', () => {
  it('finds a customer by part of the address or the name, or the whole id, and filters the blocked', async () => {
    const customer = await registerUser(ctx.app);
    const id = customer.user.id;
    const find = async (query: string) => {
      const answer = await call(ctx.app, 'GET', `/api/admin/customers?${query}`, { token: tokens.support });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body as { total: number; items: Array<{ id: string }> };
    };
    const part = customer.email.slice(3, 14).toUpperCase();
    expect((await find(`q=${encodeURIComponent(part)}`)).items.map((item) => item.id)).toContain(id);
    expect((await find(`q=${encodeURIComponent(customer.user.name.slice(2))}`)).items).toMatchObject([{ id }]);
    const byId = await find(`q=${id}`);
    expect(byId).toMatchObject({
      total: 1,
      items: [{ id, email: customer.email, balance_minor: 0, blocked_at: null }],
    });
    expect((await find(`q=${id}&blocked=true`)).total).toBe(0);
    expect((await find(`q=${id}&blocked=false`)).total).toBe(1);
    const paged = await find('page=1&page_size=2');
    expect(paged.items).toHaveLength(2);
    expect(paged.total).toBeGreaterThan(2);
  });
});

describe('balance adjustments (owner, fresh TOTP)', () => {
  it('refuses a wrong or used code and moves nothing; a fresh one moves once per key, audited once', async () => {
    const customer = await registerUser(ctx.app);
    const id = customer.user.id;
    const owner = await signedInStaff('owner');
    const key = randomUUID();
    const body = { amount_minor: 5_000, reason: 'goodwill for a late code', idempotency_key: key };

    const code = await owner.freshCode();
    const wrong = await adjust(owner.token, id, {
      ...body,
      totp: String((Number(code) + 1) % 1_000_000).padStart(6, '0'),
    });
    expect(wrong).toMatchObject({ status: 422, body: { errors: { totp: ['admin.totpInvalid'] } } });
    // The code the owner signed in with was used up then.
    const used = await adjust(owner.token, id, { ...body, totp: owner.signInCode });
    expect(used).toMatchObject({ status: 422, body: { errors: { totp: ['admin.totpInvalid'] } } });
    expect(await customerRow(id)).toMatchObject({ balance_minor: 0 });
    expect(await adjustments(id)).toEqual([]);
    expect(await auditRows('customer.balance_adjust', id)).toEqual([]);

    const done = await adjust(owner.token, id, { ...body, totp: code });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ transfer_id: expect.any(String), balance_minor: 5_000 });

    // The same form again answers the same adjustment and moves nothing, the used code or not.
    const again = await adjust(owner.token, id, { ...body, totp: code });
    expect(again).toMatchObject({ status: 200, body: done.body });
    const other = await adjust(owner.token, id, { ...body, amount_minor: 6_000, totp: code });
    expect(other.status).toBe(409);

    expect(await customerRow(id)).toMatchObject({ balance_minor: 5_000, owed_minor: 0 });
    expect(await adjustments(id)).toEqual([
      { id: done.body.transfer_id, idempotency_key: `adjustment:${key}`, amount_minor: 5_000 },
    ]);
    const rows = await auditRows('customer.balance_adjust', id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      staff_id: owner.id,
      role: 'owner',
      target_type: 'customer',
      before: { balance_minor: 0 },
      after: {
        balance_minor: 5_000,
        amount_minor: 5_000,
        reason: 'goodwill for a late code',
        idempotency_key: key,
        transfer_id: done.body.transfer_id,
      },
    });
    expect(JSON.stringify(rows[0])).not.toContain(code);
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);

    // The shop shows the balance; the console's page shows the entry.
    const balance = await call(ctx.app, 'GET', '/api/user', { token: customer.token });
    expect(balance.body).toMatchObject({ user: { balance_minor: 5_000 } });
    const detail = await call(ctx.app, 'GET', `/api/admin/customers/${id}`, { token: tokens.support });
    expect(detail.body).toMatchObject({
      customer: { id, balance_minor: 5_000 },
      active_sessions: 1,
      orders: [],
      ledger: [{ transfer_id: done.body.transfer_id, account: 'balance', amount_minor: 5_000, kind: 'adjustment' }],
    });
  });

  it('the same form sent twice at once moves money once, and both answers say so', async () => {
    const customer = await registerUser(ctx.app);
    const id = customer.user.id;
    const owner = await signedInStaff('owner');
    const body = {
      amount_minor: 1_234,
      reason: 'double click',
      totp: await owner.freshCode(),
      idempotency_key: randomUUID(),
    };
    const [first, second] = await Promise.all([adjust(owner.token, id, body), adjust(owner.token, id, body)]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(second).toMatchObject({ status: 200, body: first.body });
    expect(await adjustments(id)).toHaveLength(1);
    expect(await customerRow(id)).toMatchObject({ balance_minor: 1_234 });
    expect(await auditRows('customer.balance_adjust', id)).toHaveLength(1);
  });

  it('takes from the balance, never below zero', async () => {
    const customer = await registerUser(ctx.app);
    const id = customer.user.id;
    const first = await signedInStaff('owner');
    const credit = await adjust(first.token, id, {
      amount_minor: 3_000,
      reason: 'opening credit',
      totp: await first.freshCode(),
      idempotency_key: randomUUID(),
    });
    expect(credit.status, JSON.stringify(credit.body)).toBe(200);

    const second = await signedInStaff('owner');
    const tooMuch = await adjust(second.token, id, {
      amount_minor: -3_001,
      reason: 'more than there is',
      totp: await second.freshCode(),
      idempotency_key: randomUUID(),
    });
    expect(tooMuch).toMatchObject({
      status: 422,
      body: { errors: { amount_minor: ['validation.insufficientFunds'] } },
    });
    expect(await customerRow(id)).toMatchObject({ balance_minor: 3_000 });

    // The refused attempt used nothing up: the same code takes 1 000 back.
    const taken = await adjust(second.token, id, {
      amount_minor: -1_000,
      reason: 'credited twice by mistake',
      totp: await second.freshCode(),
      idempotency_key: randomUUID(),
    });
    expect(taken).toMatchObject({ status: 200, body: { balance_minor: 2_000 } });
    expect((await adjustments(id)).map((row) => row.amount_minor).sort((a, b) => a - b)).toEqual([-1_000, 3_000]);
    expect(await auditRows('customer.balance_adjust', id)).toHaveLength(2);
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
  });
});

describe('sessions and blocking', () => {
  it('ends every session, answering how many, audited once', async () => {
    const customer = await registerUser(ctx.app);
    const id = customer.user.id;
    const other = await call(ctx.app, 'POST', '/api/login', {
      body: { email: customer.email, password: customer.password },
    });
    expect(other.status).toBe(200);
    expect((await call(ctx.app, 'GET', '/api/user', { token: customer.token })).status).toBe(200);
    const revoked = await call(ctx.app, 'POST', `/api/admin/customers/${id}/revoke-sessions`, {
      token: tokens.owner,
      body: { reason: 'customer says the phone was stolen' },
    });
    expect(revoked).toMatchObject({ status: 200, body: { sessions_revoked: 2, customer: { id, blocked_at: null } } });
    expect((await call(ctx.app, 'GET', '/api/user', { token: customer.token })).status).toBe(401);
    expect((await call(ctx.app, 'GET', '/api/user', { token: other.body.token })).status).toBe(401);
    expect(await auditRows('customer.sessions_revoke', id)).toMatchObject([
      { role: 'owner', after: { reason: 'customer says the phone was stolen', sessions_revoked: 2 } },
    ]);
    // Signing in again works: only blocking stops that.
    const back = await call(ctx.app, 'POST', '/api/login', {
      body: { email: customer.email, password: customer.password },
    });
    expect(back.status).toBe(200);
  });

  it('a blocked customer cannot log in and their token stops working; unblocking lets them back', async () => {
    const customer = await registerUser(ctx.app);
    const id = customer.user.id;
    expect((await call(ctx.app, 'GET', '/api/user', { token: customer.token })).status).toBe(200);

    const blocked = await call(ctx.app, 'POST', `/api/admin/customers/${id}/block`, {
      token: tokens.owner,
      body: { reason: 'chargebacks on stolen cards' },
    });
    expect(blocked).toMatchObject({
      status: 200,
      body: { sessions_revoked: 1, customer: { id, blocked_at: expect.any(String) } },
    });
    expect((await call(ctx.app, 'GET', '/api/user', { token: customer.token })).status).toBe(401);
    const login = await call(ctx.app, 'POST', '/api/login', {
      body: { email: customer.email, password: customer.password },
    });
    expect(login).toMatchObject({ status: 422, body: { errors: { password: ['validation.accountBlocked'] } } });
    expect(login.body.token).toBeUndefined();
    // A wrong password still gets the usual answer: the block is told only to whoever knows the password.
    const wrong = await call(ctx.app, 'POST', '/api/login', { body: { email: customer.email, password: 'Wrong1234' } });
    expect(wrong).toMatchObject({ status: 422, body: { errors: { password: ['invalidCredentials'] } } });

    // Blocking again changes nothing and records nothing.
    const twice = await call(ctx.app, 'POST', `/api/admin/customers/${id}/block`, {
      token: tokens.owner,
      body: { reason: 'again' },
    });
    expect(twice).toMatchObject({ status: 200, body: { sessions_revoked: 0 } });
    expect(await auditRows('customer.block', id)).toMatchObject([
      {
        role: 'owner',
        before: { blocked: false },
        after: { blocked: true, reason: 'chargebacks on stolen cards', sessions_revoked: 1 },
      },
    ]);
    const list = await call(ctx.app, 'GET', `/api/admin/customers?q=${id}&blocked=true`, { token: tokens.support });
    expect(list.body).toMatchObject({ total: 1, items: [{ id }] });

    const unblocked = await call(ctx.app, 'POST', `/api/admin/customers/${id}/unblock`, {
      token: tokens.owner,
      body: { reason: 'the bank cleared it' },
    });
    expect(unblocked).toMatchObject({ status: 200, body: { sessions_revoked: 0, customer: { id, blocked_at: null } } });
    expect(await auditRows('customer.unblock', id)).toMatchObject([
      { before: { blocked: true }, after: { blocked: false, reason: 'the bank cleared it' } },
    ]);
    const back = await call(ctx.app, 'POST', '/api/login', {
      body: { email: customer.email, password: customer.password },
    });
    expect(back.status).toBe(200);
    expect((await call(ctx.app, 'GET', '/api/user', { token: back.body.token })).status).toBe(200);
    // The old token stays ended.
    expect((await call(ctx.app, 'GET', '/api/user', { token: customer.token })).status).toBe(401);
  });
});
