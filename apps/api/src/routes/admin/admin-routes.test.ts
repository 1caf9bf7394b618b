import { randomUUID } from 'node:crypto';
import { PaymentResponseSchema, type StaffRole } from '@store/contract';
import { cliActor, createLedgerService, orderHistory } from '@store/core';
import { eventually } from '@store/core/testing';
import { qb } from '@store/db';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/accounts.ts';
import { CARDS, cardFields, customerWithOrder, listeningTestApp } from '../../../test/payments.ts';

// The console's API against the real store: PostgreSQL, the embedded sandbox provider and its
// signed callbacks, the in-process queue. Staff sign in with TOTP codes computed here from the
// secret the otpauth URI carries.

let ctx: Awaited<ReturnType<typeof listeningTestApp>>;
const tokens: Record<StaffRole, string> = { owner: '', manager: '', support: '' };
const staffIds: Record<StaffRole, string> = { owner: '', manager: '', support: '' };
const PASSWORD = 'a long staff password';

const db = () => ctx.database.prisma;
const secretOf = (uri: string) => new URL(uri).searchParams.get('secret') as string;

async function addStaff(role: StaffRole) {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  const added = await ctx.app.staffService.addStaff({ email, role, password: PASSWORD }, cliActor('test'));
  return { email, id: added.staff.id, secret: secretOf(added.otpauthUri), recoveryCodes: added.recoveryCodes };
}

async function signIn(email: string, secret: string) {
  const answer = await call(ctx.app, 'POST', '/api/admin/session', {
    body: { email, password: PASSWORD, totp: await generate({ secret }) },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.token as string;
}

async function auditRows(action: string, targetId: string) {
  return ctx.database.sql.query(
    qb.selectFrom('audit_log').selectAll().where('action', '=', action).where('target_id', '=', targetId),
  );
}

beforeAll(async () => {
  ctx = await listeningTestApp();
  for (const role of ['owner', 'manager', 'support'] as const) {
    const member = await addStaff(role);
    staffIds[role] = member.id;
    tokens[role] = await signIn(member.email, member.secret);
  }
});
afterAll(async () => {
  await ctx?.close();
});

describe('POST /api/admin/session', () => {
  it('asks for the second factor, refuses a wrong one, and audits the sign-in once', async () => {
    const member = await addStaff('support');
    const missing = await call(ctx.app, 'POST', '/api/admin/session', {
      body: { email: member.email, password: PASSWORD },
    });
    expect(missing).toMatchObject({ status: 422, body: { errors: { totp: ['admin.secondFactorRequired'] } } });
    const bad = await call(ctx.app, 'POST', '/api/admin/session', {
      body: { email: 'not-an-email', password: '', totp: '12' },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['email', 'password', 'totp']);
    const code = await generate({ secret: member.secret });
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await call(ctx.app, 'POST', '/api/admin/session', {
      body: { email: member.email, password: PASSWORD, totp: wrongCode },
    });
    expect(wrong).toMatchObject({ status: 422, body: { errors: { password: ['admin.invalidCredentials'] } } });
    const wrongPassword = await call(ctx.app, 'POST', '/api/admin/session', {
      body: { email: member.email, password: 'not the password', totp: code },
    });
    expect(wrongPassword).toMatchObject({ status: 422, body: { errors: { password: ['admin.invalidCredentials'] } } });
    expect(await auditRows('staff.sign_in', member.id)).toHaveLength(0);

    const right = await call(ctx.app, 'POST', '/api/admin/session', {
      body: { email: member.email, password: PASSWORD, totp: code },
    });
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({
      staff: { email: member.email, role: 'support', totp_confirmed: true },
      recovery_codes_left: 10,
    });
    const rows = await auditRows('staff.sign_in', member.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ staff_id: member.id, role: 'support', after: { with: 'totp' }, ip: '127.0.0.1' });

    // A recovery code instead of the app, once.
    const recovered = await call(ctx.app, 'POST', '/api/admin/session', {
      body: { email: member.email, password: PASSWORD, recovery_code: member.recoveryCodes[0] },
    });
    expect(recovered).toMatchObject({ status: 200, body: { recovery_codes_left: 9 } });
  });
});

describe('tokens', () => {
  it('a customer token gets 401 on the console, a staff token 401 on the shop', async () => {
    const customer = await customerWithOrder(ctx.app, db());
    for (const path of ['/api/admin/me', '/api/admin/orders', '/api/admin/audit', '/api/admin/staff']) {
      expect((await call(ctx.app, 'GET', path, { token: customer.token })).status, path).toBe(401);
    }
    expect((await call(ctx.app, 'GET', '/api/admin/me')).status).toBe(401);
    expect((await call(ctx.app, 'GET', '/api/user', { token: tokens.owner })).status).toBe(401);
    const me = await call(ctx.app, 'GET', '/api/admin/me', { token: tokens.support });
    expect(me).toMatchObject({ status: 200, body: { staff: { role: 'support' } } });
    expect(me.body.permissions).toContain('orders.read');
    expect(me.body.permissions).not.toContain('orders.refund');
  });

  it('a role change ends the tokens made before it', async () => {
    const member = await addStaff('manager');
    const token = await signIn(member.email, member.secret);
    const changed = await call(ctx.app, 'PATCH', `/api/admin/staff/${member.id}/role`, {
      token: tokens.owner,
      body: { role: 'support' },
    });
    expect(changed).toMatchObject({ status: 200, body: { staff: { role: 'support' } } });
    const rows = await auditRows('staff.role_change', member.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      staff_id: staffIds.owner,
      role: 'owner',
      before: { role: 'manager' },
      after: { role: 'support' },
    });
    expect((await call(ctx.app, 'GET', '/api/admin/me', { token })).status).toBe(401);
  });
});

describe('roles', () => {
  it('refuses support where a manager or the owner is needed (403)', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const refund = await call(ctx.app, 'POST', `/api/admin/orders/${buyer.orderId}/refund`, {
      token: tokens.support,
      body: { to: 'balance', reason: 'customer asked', idempotency_key: randomUUID() },
    });
    expect(refund.status).toBe(403);
    expect((await call(ctx.app, 'GET', '/api/admin/audit', { token: tokens.support })).status).toBe(403);
    expect((await call(ctx.app, 'GET', '/api/admin/orders/export.csv', { token: tokens.support })).status).toBe(403);
    expect((await call(ctx.app, 'GET', '/api/admin/staff', { token: tokens.manager })).status).toBe(403);
    const add = await call(ctx.app, 'POST', '/api/admin/staff', {
      token: tokens.manager,
      body: { email: 'x@example.com', role: 'owner', password: PASSWORD },
    });
    expect(add.status).toBe(403);
    expect(
      await ctx.database.sql.query(qb.selectFrom('staff').select('id').where('email', '=', 'x@example.com')),
    ).toEqual([]);
  });
});

describe('bad input', () => {
  it('gets 422 per field', async () => {
    const search = await call(ctx.app, 'GET', '/api/admin/orders?status=lost&method=cash&from=yesterday&page=0', {
      token: tokens.support,
    });
    expect(search.status).toBe(422);
    expect(Object.keys(search.body.errors).sort()).toEqual(['from', 'method', 'page', 'status']);
    const range = await call(ctx.app, 'GET', '/api/admin/audit?from=2026-11-27&to=2026-11-01', { token: tokens.owner });
    expect(range).toMatchObject({ status: 422, body: { errors: { to: ['validation.minAboveMax'] } } });
    const refund = await call(ctx.app, 'POST', `/api/admin/orders/${randomUUID()}/refund`, {
      token: tokens.manager,
      body: { to: 'cash', amount_minor: -5, reason: ' ', idempotency_key: 'x' },
    });
    expect(refund.status).toBe(422);
    expect(Object.keys(refund.body.errors).sort()).toEqual(['amount_minor', 'idempotency_key', 'reason', 'to']);
    const detail = await call(ctx.app, 'GET', '/api/admin/orders/not-an-id', { token: tokens.support });
    expect(detail).toMatchObject({ status: 422, body: { errors: { id: ['validation.invalidValue'] } } });
    const add = await call(ctx.app, 'POST', '/api/admin/staff', {
      token: tokens.owner,
      body: { email: 'bad', role: 'boss', password: 'short' },
    });
    expect(add.status).toBe(422);
    expect(Object.keys(add.body.errors).sort()).toEqual(['email', 'password', 'role']);
  });
});

/** Pays the order with a card through the store's own form, and waits until it is fulfilled. */
async function payByCard(token: string, orderId: string) {
  const answer = PaymentResponseSchema.parse(
    (
      await call(ctx.app, 'POST', '/api/payment', {
        token,
        body: { type: 'purchase', orderId, ...cardFields(CARDS.success) },
      })
    ).body,
  );
  expect(answer.status).toBe('success');
  await eventually(
    async () => (await db().order.findUniqueOrThrow({ where: { id: orderId } })).status === 'FULFILLED',
    15_000,
  );
}

async function orderOf(orderId: string) {
  const order = await db().order.findUniqueOrThrow({ where: { id: orderId } });
  return { status: order.status, refundedMinor: Number(order.refundedMinor) };
}

describe('orders', () => {
  it('finds a paid order by email, shows it, refunds part to the card and audits it once', async () => {
    const buyer = await customerWithOrder(ctx.app, db(), { count: 2 });
    await payByCard(buyer.token, buyer.orderId);

    const found = await call(
      ctx.app,
      'GET',
      `/api/admin/orders?email=${encodeURIComponent(buyer.user.email)}&status=fulfilled`,
      {
        token: tokens.support,
      },
    );
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ total: 1, items: [{ id: buyer.orderId, method: 'card', status: 'fulfilled' }] });
    const byNumber = await call(ctx.app, 'GET', `/api/admin/orders?q=${buyer.orderId.slice(0, 8).toUpperCase()}`, {
      token: tokens.support,
    });
    expect(byNumber.body.items.map((item: { id: string }) => item.id)).toContain(buyer.orderId);

    const key = randomUUID();
    const refund = await call(ctx.app, 'POST', `/api/admin/orders/${buyer.orderId}/refund`, {
      token: tokens.manager,
      body: { to: 'card', amount_minor: 1_000, reason: 'one card did not work', idempotency_key: key },
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(refund.body).toMatchObject({ to: 'card', refunded_minor: 1_000 });
    // The same form again is the same refund: refused, not paid twice.
    const again = await call(ctx.app, 'POST', `/api/admin/orders/${buyer.orderId}/refund`, {
      token: tokens.manager,
      body: { to: 'card', amount_minor: 1_000, reason: 'one card did not work', idempotency_key: key },
    });
    expect(again.status).toBe(409);

    await eventually(async () => (await orderOf(buyer.orderId)).status === 'PARTIALLY_REFUNDED', 15_000);
    expect(await orderOf(buyer.orderId)).toEqual({ status: 'PARTIALLY_REFUNDED', refundedMinor: 1_000 });
    // The ledger: the reversal took 1 000 from revenue back to the provider; the balance is untouched.
    const transfers = await db().ledgerTransfer.findMany({
      where: { orderId: buyer.orderId, kind: 'PROVIDER_REFUND' },
    });
    expect(transfers.map((transfer) => Number(transfer.amountMinor))).toEqual([1_000]);
    const user = await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } });
    expect(Number(user.balanceMinor)).toBe(0);
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);

    const rows = await auditRows('order.refund', buyer.orderId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      staff_id: staffIds.manager,
      role: 'manager',
      target_type: 'order',
      after: { to: 'card', amount_minor: 1_000, reason: 'one card did not work', idempotency_key: key },
    });

    const detail = await call(ctx.app, 'GET', `/api/admin/orders/${buyer.orderId}`, { token: tokens.support });
    expect(detail.status).toBe(200);
    expect(detail.body.order).toMatchObject({ status: 'partially_refunded', refunded_minor: 1_000 });
    expect(detail.body.lines[0].code_ids).toHaveLength(2);
    expect(JSON.stringify(detail.body)).not.toMatch(new RegExp(buyer.codes.join('|')));
    expect(detail.body.payments).toMatchObject([{ method: 'card', card_last4: CARDS.success.slice(-4) }]);
    expect(detail.body.refunds).toMatchObject([{ amount_minor: 1_000, status: 'succeeded' }]);
    expect(detail.body.provider_events.length).toBeGreaterThan(0);
    const kinds = detail.body.timeline.map((entry: { actor: string; kind: string }) => `${entry.actor} ${entry.kind}`);
    expect(kinds).toContain(
      `operator:${rows[0]?.role === 'manager' ? await staffEmail(staffIds.manager) : ''} refund_asked`,
    );
    expect(kinds).toContain('provider:sandbox reversal');

    const audit = await call(
      ctx.app,
      'GET',
      `/api/admin/audit?action=order.refund&target_type=order&target_id=${buyer.orderId}`,
      {
        token: tokens.owner,
      },
    );
    expect(audit).toMatchObject({
      status: 200,
      body: { total: 1, items: [{ action: 'order.refund', role: 'manager' }] },
    });
  });

  it('refunds a whole order to the balance: the ledger, the order, its timeline and one audit row', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    await payByCard(buyer.token, buyer.orderId);
    const key = randomUUID();
    const refund = await call(ctx.app, 'POST', `/api/admin/orders/${buyer.orderId}/refund`, {
      token: tokens.owner,
      body: { to: 'balance', reason: 'goodwill', idempotency_key: key },
    });
    expect(refund).toMatchObject({
      status: 200,
      body: { to: 'balance', refunded_minor: buyer.totalMinor, status: 'refunded', refund_id: null },
    });
    expect(await orderOf(buyer.orderId)).toEqual({ status: 'REFUNDED', refundedMinor: buyer.totalMinor });
    const user = await db().user.findUniqueOrThrow({ where: { id: buyer.user.id } });
    expect(Number(user.balanceMinor)).toBe(buyer.totalMinor);
    const transfer = await db().ledgerTransfer.findFirstOrThrow({ where: { orderId: buyer.orderId, kind: 'REFUND' } });
    expect(Number(transfer.amountMinor)).toBe(buyer.totalMinor);
    expect(transfer.idempotencyKey).toBe(`refund:${buyer.orderId}:c${key.replaceAll('-', '').slice(0, 31)}`);
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
    const history = await orderHistory(ctx.database.sql, buyer.orderId);
    expect(history.at(-1)).toMatchObject({
      kind: 'status',
      toStatus: 'REFUNDED',
      actor: `operator:${await staffEmail(staffIds.owner)}`,
    });
    const rows = await auditRows('order.refund', buyer.orderId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      role: 'owner',
      after: { to: 'balance', amount_minor: buyer.totalMinor, status: 'refunded', reason: 'goodwill' },
    });
  });

  it('resends the receipt (support) and exports a search as CSV (manager), each audited once', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    await payByCard(buyer.token, buyer.orderId);
    const resent = await call(ctx.app, 'POST', `/api/admin/orders/${buyer.orderId}/resend-receipt`, {
      token: tokens.support,
    });
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    const email = await db().outboundEmail.findUniqueOrThrow({ where: { id: resent.body.email_id } });
    expect(email).toMatchObject({ toAddress: buyer.user.email, template: 'order-receipt' });
    expect(await auditRows('order.receipt_resend', buyer.orderId)).toMatchObject([
      { role: 'support', after: { email_id: resent.body.email_id } },
    ]);
    const history = await orderHistory(ctx.database.sql, buyer.orderId);
    expect(history.at(-1)).toMatchObject({ kind: 'receipt_resent' });

    const csv = await ctx.app.inject({
      method: 'GET',
      url: `/api/admin/orders/export.csv?email=${encodeURIComponent(buyer.user.email)}`,
      headers: { authorization: `Bearer ${tokens.manager}`, 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('number,id,created_at,paid_at,email,type,status,method,currency,total_minor,refunded_minor');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${buyer.orderId},`);
    const exports = await ctx.database.sql.query(
      qb
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'order.export')
        .where('staff_id', '=', staffIds.manager),
    );
    expect(exports).toHaveLength(1);
    expect(exports[0]).toMatchObject({ after: { rows: 1, filters: { email: buyer.user.email } } });
  });
});

describe('staff (owner)', () => {
  it('adds a member with their second factor shown once, and disables them', async () => {
    const email = `new-${randomUUID().slice(0, 8)}@example.com`;
    const added = await call(ctx.app, 'POST', '/api/admin/staff', {
      token: tokens.owner,
      body: { email, role: 'support', password: PASSWORD },
    });
    expect(added.status).toBe(201);
    expect(added.body.otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
    expect(added.body.recovery_codes).toHaveLength(10);
    const id = added.body.staff.id as string;
    expect(await auditRows('staff.add', id)).toMatchObject([
      { staff_id: staffIds.owner, role: 'owner', after: { email, role: 'support' } },
    ]);
    const token = await signIn(email, secretOf(added.body.otpauth_uri));

    const disabled = await call(ctx.app, 'POST', `/api/admin/staff/${id}/disable`, {
      token: tokens.owner,
      body: { reason: 'left the team' },
    });
    expect(disabled).toMatchObject({ status: 200, body: { staff: { disabled_at: expect.any(String) } } });
    expect(await auditRows('staff.disable', id)).toMatchObject([
      { after: { disabled: true, reason: 'left the team' } },
    ]);
    expect((await call(ctx.app, 'GET', '/api/admin/me', { token })).status).toBe(401);

    const reset = await call(ctx.app, 'POST', `/api/admin/staff/${id}/two-factor-reset`, {
      token: tokens.owner,
      body: { reason: 'new phone' },
    });
    expect(reset.status).toBe(200);
    expect(secretOf(reset.body.otpauth_uri)).not.toBe(secretOf(added.body.otpauth_uri));
    expect(await auditRows('staff.two_factor_reset', id)).toHaveLength(1);
  });
});

async function staffEmail(id: string): Promise<string> {
  const [row] = await ctx.database.sql.query(qb.selectFrom('staff').select('email').where('id', '=', id));
  return row?.email ?? '';
}
