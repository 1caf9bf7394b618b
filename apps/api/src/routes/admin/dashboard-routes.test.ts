import { randomBytes, randomUUID } from 'node:crypto';
import { cliActor } from '@store/core';
import { type OrderStatus, type OrderType, qb } from '@store/db';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/accounts.ts';
import { buildTestApp } from '../../../test/helper.ts';
import { createTestProduct } from '../../../test/products.ts';

// The dashboard over a database of its own with a known fixture: orders paid on known UTC days,
// products around their thresholds, set-aside and dead payment events, failing emails and debts.

let ctx: Awaited<ReturnType<typeof buildTestApp>>;
let token = '';
const DAY = 86_400_000;

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' });
  const email = `support-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'a long staff password';
  const added = await ctx.app.staffService.addStaff({ email, role: 'support', password }, cliActor('test'));
  const secret = new URL(added.otpauthUri).searchParams.get('secret') as string;
  const answer = await call(ctx.app, 'POST', '/api/admin/session', {
    body: { email, password, totp: await generate({ secret }) },
  });
  token = answer.body.token as string;
});
afterAll(async () => {
  await ctx?.close();
});

async function customer(owedMinor = 0) {
  const tag = randomBytes(4).toString('hex');
  return ctx.database.prisma.user.create({
    data: { email: `dash.${tag}@example.com`, name: `Dash${tag}`, passwordHash: 'x', owedMinor },
  });
}

async function order(
  userId: string,
  {
    type = 'PURCHASE',
    status = 'FULFILLED',
    totalMinor,
    paidAt,
  }: {
    type?: OrderType;
    status?: OrderStatus;
    totalMinor: number;
    paidAt: Date | null;
  },
) {
  await ctx.database.prisma.order.create({
    data: { userId, type, status, subtotalMinor: totalMinor, totalMinor, paidAt },
  });
}

describe('GET /api/admin/dashboard', () => {
  it('adds up a known fixture', async () => {
    const now = new Date();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const day = (offset: number) => new Date(today - offset * DAY).toISOString().slice(0, 10);

    // Only the fixture's products are low on stock: the demo catalogue's are set above any count.
    await ctx.database.sql.execute(qb.updateTable('products').set({ low_stock_threshold: -1 }));
    const low = await createTestProduct(ctx.database.prisma, { stock: 3, name: 'Dashboard Low Card' });
    const fine = await createTestProduct(ctx.database.prisma, { stock: 10 });
    const empty = await createTestProduct(ctx.database.prisma, { stock: 0, name: 'Dashboard Empty Card' });
    const hidden = await createTestProduct(ctx.database.prisma, { stock: 0, isActive: false });
    await ctx.database.sql.execute(
      qb
        .updateTable('products')
        .set({ low_stock_threshold: 5 })
        .where('id', 'in', [low.id, fine.id, empty.id, hidden.id]),
    );

    const buyer = await customer();
    await order(buyer.id, { totalMinor: 1_000, paidAt: new Date(today + 1) });
    await order(buyer.id, {
      type: 'SPENDING',
      status: 'PARTIALLY_REFUNDED',
      totalMinor: 2_500,
      paidAt: new Date(today),
    });
    await order(buyer.id, { totalMinor: 4_000, paidAt: new Date(today - 3 * DAY + 5_000) });
    await order(buyer.id, { status: 'REFUNDED', totalMinor: 7_000, paidAt: new Date(today - 10 * DAY) });
    await order(buyer.id, { totalMinor: 8_000, paidAt: new Date(today - 29 * DAY) });
    // Not sales: before the 30 days, a top-up, unpaid or failed orders.
    await order(buyer.id, { totalMinor: 9_999, paidAt: new Date(today - 30 * DAY) });
    await order(buyer.id, { type: 'BALANCE', totalMinor: 50_000, paidAt: new Date(today + 2) });
    await order(buyer.id, { status: 'CREATED', totalMinor: 300, paidAt: null });
    await order(buyer.id, { status: 'FAILED', totalMinor: 400, paidAt: null });

    const event = (fields: { rejection?: string; deadAt?: Date; processedAt?: Date }) =>
      ctx.database.prisma.paymentEvent.create({
        data: {
          provider: 'sandbox',
          providerEventId: `evt_${randomBytes(8).toString('hex')}`,
          type: 'payment.succeeded',
          payload: {},
          ...fields,
        },
      });
    // Set aside on arrival: processed (never to be applied) with its reason.
    await event({ rejection: 'amount_mismatch', processedAt: new Date() });
    await event({ rejection: 'unknown_order', processedAt: new Date() });
    await event({ deadAt: new Date() });
    await event({ processedAt: new Date() });

    const email = (fields: { status: 'PENDING' | 'SENT' | 'FAILED'; lastError?: string }) =>
      ctx.database.prisma.outboundEmail.create({
        data: { toAddress: 'someone@example.com', template: 'order-receipt', locale: 'en', data: {}, ...fields },
      });
    await email({ status: 'FAILED', lastError: 'mailbox full' });
    await email({ status: 'PENDING', lastError: 'connection refused' });
    await email({ status: 'PENDING' });
    await email({ status: 'SENT' });

    await customer(1_500);
    await customer(2_000);

    const answer = await call(ctx.app, 'GET', '/api/admin/dashboard', { token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const body = answer.body;
    expect(body.currency).toBe('BRL');
    expect(body.sales.today).toEqual({ orders: 2, amount_minor: 3_500 });
    expect(body.sales.days_7).toEqual({ orders: 3, amount_minor: 7_500 });
    expect(body.sales.days_30).toEqual({ orders: 5, amount_minor: 22_500 });
    expect(body.sales.series).toHaveLength(30);
    expect(body.sales.series[0]).toEqual({ day: day(29), orders: 1, amount_minor: 8_000 });
    expect(body.sales.series[26]).toEqual({ day: day(3), orders: 1, amount_minor: 4_000 });
    expect(body.sales.series[29]).toEqual({ day: day(0), orders: 2, amount_minor: 3_500 });
    expect(body.sales.series[28]).toEqual({ day: day(1), orders: 0, amount_minor: 0 });
    expect(body.orders_by_status).toEqual({
      fulfilled: 5,
      partially_refunded: 1,
      refunded: 1,
      created: 1,
      failed: 1,
    });
    expect(body.low_stock).toEqual([
      { product_id: empty.id, name: 'Dashboard Empty Card', available: 0, threshold: 5 },
      { product_id: low.id, name: 'Dashboard Low Card', available: 3, threshold: 5 },
    ]);
    expect(body.payment_events).toEqual({ set_aside: 2, dead_lettered: 1 });
    expect(body.emails_failing).toBe(2);
    expect(body.receivables).toEqual({ customers: 2, owed_minor: 3_500 });
  });
});
