import { randomBytes, randomUUID } from 'node:crypto';
import { PaymentResponseSchema, type StaffRole } from '@store/contract';
import { cliActor } from '@store/core';
import { eventually } from '@store/core/testing';
import { qb } from '@store/db';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../../test/accounts.ts';
import { createCodedProduct } from '../../../test/orders.ts';
import { CARDS, cardFields, customerWithOrder, listeningTestApp } from '../../../test/payments.ts';

// The console's code stock against the real store: imports, batches and their counts through a
// purchase's reservation and a withdrawal, and the reveal of a sold code, each audited once.

let ctx: Awaited<ReturnType<typeof listeningTestApp>>;
const tokens: Record<StaffRole, string> = { owner: '', manager: '', support: '' };
const PASSWORD = 'a long staff password';

const db = () => ctx.database.prisma;
const code = () => `GC-${randomBytes(8).toString('hex').toUpperCase()}`;

async function signInAs(role: StaffRole): Promise<string> {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  const added = await ctx.app.staffService.addStaff({ email, role, password: PASSWORD }, cliActor('test'));
  const secret = new URL(added.otpauthUri).searchParams.get('secret') as string;
  const answer = await call(ctx.app, 'POST', '/api/admin/session', {
    body: { email, password: PASSWORD, totp: await generate({ secret }) },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.token as string;
}

async function auditRows(action: string, targetId: string | number) {
  return ctx.database.sql.query(
    qb.selectFrom('audit_log').selectAll().where('action', '=', action).where('target_id', '=', String(targetId)),
  );
}

async function batchOf(productId: number, batchId: number) {
  const listed = await call(ctx.app, 'GET', `/api/admin/codes/batches?product_id=${productId}`, {
    token: tokens.manager,
  });
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  return (listed.body.items as { id: number }[]).find((batch) => batch.id === batchId);
}

async function stockCount(productId: number): Promise<number> {
  return (await db().product.findUniqueOrThrow({ where: { id: productId } })).stockCount;
}

beforeAll(async () => {
  ctx = await listeningTestApp();
  for (const role of ['owner', 'manager', 'support'] as const) tokens[role] = await signInAs(role);
});
afterAll(async () => {
  await ctx?.close();
});

describe('who may', () => {
  it('refuses a customer (401) and support on import and withdraw (403)', async () => {
    const customer = await registerUser(ctx.app);
    const { product } = await createCodedProduct(db(), { stock: 0 });
    const body = { product_id: product.id, text: code() };
    expect((await call(ctx.app, 'POST', '/api/admin/codes/import', { token: customer.token, body })).status).toBe(401);
    expect((await call(ctx.app, 'GET', '/api/admin/codes/batches', { token: customer.token })).status).toBe(401);
    expect((await call(ctx.app, 'POST', '/api/admin/codes/import', { body })).status).toBe(401);
    expect((await call(ctx.app, 'POST', '/api/admin/codes/import', { token: tokens.support, body })).status).toBe(403);
    const withdraw = await call(ctx.app, 'POST', '/api/admin/codes/batches/1/withdraw', {
      token: tokens.support,
      body: { reason: 'support should not' },
    });
    expect(withdraw.status).toBe(403);
    expect((await call(ctx.app, 'GET', '/api/admin/codes/batches', { token: tokens.support })).status).toBe(403);
    expect(await stockCount(product.id)).toBe(0);
    expect(
      await ctx.database.sql.query(qb.selectFrom('code_batches').select('id').where('product_id', '=', product.id)),
    ).toEqual([]);
  });
});

describe('bad input', () => {
  it('gets 422 per field', async () => {
    const imported = await call(ctx.app, 'POST', '/api/admin/codes/import', {
      token: tokens.manager,
      body: { product_id: 0, text: '', label: 'x'.repeat(101) },
    });
    expect(imported.status).toBe(422);
    expect(Object.keys(imported.body.errors).sort()).toEqual(['label', 'product_id', 'text']);
    const unknown = await call(ctx.app, 'POST', '/api/admin/codes/import', {
      token: tokens.manager,
      body: { product_id: 999_999, text: code() },
    });
    expect(unknown).toMatchObject({ status: 422, body: { errors: { product_id: ['validation.invalidValue'] } } });
    const listed = await call(ctx.app, 'GET', '/api/admin/codes/batches?product_id=abc&page=0', {
      token: tokens.manager,
    });
    expect(listed.status).toBe(422);
    expect(Object.keys(listed.body.errors).sort()).toEqual(['page', 'product_id']);
    // The path is checked before the body: each gets its own 422.
    const batchPath = await call(ctx.app, 'POST', '/api/admin/codes/batches/first/withdraw', {
      token: tokens.manager,
      body: { reason: 'supplier recall' },
    });
    expect(batchPath).toMatchObject({ status: 422, body: { errors: { id: ['validation.notANumber'] } } });
    const withdrawReason = await call(ctx.app, 'POST', '/api/admin/codes/batches/1/withdraw', {
      token: tokens.manager,
      body: { reason: ' ' },
    });
    expect(withdrawReason.status).toBe(422);
    expect(Object.keys(withdrawReason.body.errors)).toEqual(['reason']);
    const codePath = await call(ctx.app, 'POST', '/api/admin/codes/not-an-id/reveal', {
      token: tokens.support,
      body: { reason: 'ticket 1' },
    });
    expect(codePath).toMatchObject({ status: 422, body: { errors: { id: ['validation.invalidValue'] } } });
    const revealReason = await call(ctx.app, 'POST', `/api/admin/codes/${randomUUID()}/reveal`, {
      token: tokens.support,
      body: {},
    });
    expect(revealReason.status).toBe(422);
    expect(Object.keys(revealReason.body.errors)).toEqual(['reason']);
  });
});

describe('import, batches, withdraw', () => {
  it('reports the repeats, counts a reservation and a withdrawal, and audits each change once', async () => {
    const { product, codes: stocked } = await createCodedProduct(db(), { stock: 1 });
    const [first, second, third] = [code(), code(), code()];
    const text = `${first}\n${second}\n\n${first}\n${(stocked[0] as string).toLowerCase()}\n  ${third}  \n`;
    const imported = await call(ctx.app, 'POST', '/api/admin/codes/import', {
      token: tokens.manager,
      body: { product_id: product.id, text, label: 'supplier-11.txt' },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toEqual({
      batch_id: expect.any(Number),
      product_id: product.id,
      lines: 5,
      added: 3,
      duplicates_in_file: [4],
      duplicates_in_stock: [5],
      too_long: [],
    });
    const batchId = imported.body.batch_id as number;
    expect(await stockCount(product.id)).toBe(4);
    expect(await auditRows('codes.import', batchId)).toMatchObject([
      { role: 'manager', target_type: 'batch', after: { product_id: product.id, added: 3 } },
    ]);
    expect(await batchOf(product.id, batchId)).toEqual({
      id: batchId,
      product_id: product.id,
      product_name: product.name,
      label: 'supplier-11.txt',
      created_at: expect.any(String),
      created_by: expect.stringContaining('manager-'),
      available: 3,
      reserved: 0,
      sold: 0,
      withdrawn: 0,
    });

    // A purchase of all four codes reserves the batch's three with the one from before.
    const customer = await registerUser(ctx.app);
    const flush = await call(ctx.app, 'PATCH', '/api/basket', {
      token: customer.token,
      body: { flush_id: randomUUID(), products: [{ id: product.id, type: 'increase', count: 4 }] },
    });
    expect(flush.status, JSON.stringify(flush.body)).toBe(200);
    const order = await call(ctx.app, 'POST', '/api/orders/create', {
      token: customer.token,
      body: { type: 'purchase' },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(await batchOf(product.id, batchId)).toMatchObject({ available: 0, reserved: 3 });

    // Nothing is in stock while the order holds it all: nothing to withdraw, nothing audited.
    const nothing = await call(ctx.app, 'POST', `/api/admin/codes/batches/${batchId}/withdraw`, {
      token: tokens.manager,
      body: { reason: 'supplier recall' },
    });
    expect(nothing).toMatchObject({ status: 409, body: { code: 'admin.nothingToWithdraw' } });
    expect(await auditRows('codes.withdraw', batchId)).toHaveLength(0);

    const listed = await call(ctx.app, 'GET', '/api/admin/codes/batches', { token: tokens.owner });
    expect(JSON.stringify(listed.body)).not.toMatch(new RegExp([first, second, third].join('|')));
  });

  it('withdraws the codes in stock once, with the counts right and the reason audited', async () => {
    const { product } = await createCodedProduct(db(), { stock: 0 });
    const codes = [code(), code(), code()];
    const imported = await call(ctx.app, 'POST', '/api/admin/codes/import', {
      token: tokens.owner,
      body: { product_id: product.id, text: codes.join('\r\n') },
    });
    const batchId = imported.body.batch_id as number;
    const customer = await registerUser(ctx.app);
    await call(ctx.app, 'PATCH', '/api/basket', {
      token: customer.token,
      body: { flush_id: randomUUID(), products: [{ id: product.id, type: 'increase', count: 1 }] },
    });
    const order = await call(ctx.app, 'POST', '/api/orders/create', {
      token: customer.token,
      body: { type: 'purchase' },
    });
    expect(order.status).toBe(201);
    expect(await batchOf(product.id, batchId)).toMatchObject({ available: 2, reserved: 1, withdrawn: 0 });

    const withdrawn = await call(ctx.app, 'POST', `/api/admin/codes/batches/${batchId}/withdraw`, {
      token: tokens.manager,
      body: { reason: 'supplier recall' },
    });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(withdrawn.headers['cache-control']).toBe('no-store');
    expect(withdrawn.body).toMatchObject({ batch_id: batchId, withdrawn: 2 });
    expect(codes).toEqual(expect.arrayContaining(withdrawn.body.codes));
    expect(await stockCount(product.id)).toBe(0);
    expect(await batchOf(product.id, batchId)).toMatchObject({ available: 0, reserved: 1, withdrawn: 2 });
    const rows = await auditRows('codes.withdraw', batchId);
    expect(rows).toMatchObject([{ role: 'manager', after: { withdrawn: 2, reason: 'supplier recall' } }]);
    expect(JSON.stringify(rows)).not.toMatch(new RegExp(codes.join('|')));

    // Answered once: a second withdrawal finds nothing.
    const again = await call(ctx.app, 'POST', `/api/admin/codes/batches/${batchId}/withdraw`, {
      token: tokens.manager,
      body: { reason: 'supplier recall' },
    });
    expect(again.status).toBe(409);
    expect(await auditRows('codes.withdraw', batchId)).toHaveLength(1);
    const absent = await call(ctx.app, 'POST', '/api/admin/codes/batches/999999/withdraw', {
      token: tokens.manager,
      body: { reason: 'supplier recall' },
    });
    expect(absent.status).toBe(404);
  });
});

describe('reveal', () => {
  it('shows a sold code to support, audited with the reason and without the code; refuses an unsold one', async () => {
    const buyer = await customerWithOrder(ctx.app, db(), { stock: 2 });
    const paid = PaymentResponseSchema.parse(
      (
        await call(ctx.app, 'POST', '/api/payment', {
          token: buyer.token,
          body: { type: 'purchase', orderId: buyer.orderId, ...cardFields(CARDS.success) },
        })
      ).body,
    );
    expect(paid.status).toBe('success');
    await eventually(
      async () => (await db().order.findUniqueOrThrow({ where: { id: buyer.orderId } })).status === 'FULFILLED',
      15_000,
    );
    const detail = await call(ctx.app, 'GET', `/api/admin/orders/${buyer.orderId}`, { token: tokens.support });
    const codeId = detail.body.lines[0].code_ids[0] as string;

    const revealed = await call(ctx.app, 'POST', `/api/admin/codes/${codeId}/reveal`, {
      token: tokens.support,
      body: { reason: 'ticket 1234: code not accepted' },
    });
    expect(revealed.status, JSON.stringify(revealed.body)).toBe(200);
    expect(revealed.headers['cache-control']).toBe('no-store');
    expect(revealed.body.code_id).toBe(codeId);
    expect(buyer.codes).toContain(revealed.body.code);
    const rows = await auditRows('code.reveal', codeId);
    expect(rows).toMatchObject([
      {
        role: 'support',
        target_type: 'code',
        after: { order_id: buyer.orderId, reason: 'ticket 1234: code not accepted' },
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(revealed.body.code);

    const unsold = await db().productCode.findFirstOrThrow({
      where: { productId: buyer.product.id, status: 'AVAILABLE' },
    });
    const refused = await call(ctx.app, 'POST', `/api/admin/codes/${unsold.id}/reveal`, {
      token: tokens.support,
      body: { reason: 'ticket 1235' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).not.toHaveProperty('code');
    expect(await auditRows('code.reveal', unsold.id)).toHaveLength(0);
    const absent = await call(ctx.app, 'POST', `/api/admin/codes/${randomUUID()}/reveal`, {
      token: tokens.support,
      body: { reason: 'ticket 1236' },
    });
    expect(absent.status).toBe(404);
  });
});
