import { randomBytes, randomUUID } from 'node:crypto';
import { createLedgerService } from '@store/core';
import { eventually } from '@store/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../test/accounts.ts';
import { buildTestApp } from '../../test/helper.ts';
import { createCodedProduct } from '../../test/orders.ts';
import { sandboxEventBody, sendCallback } from '../../test/payments.ts';

// A promo code's use belongs to the order that is paid with it, for the order's whole life: an order
// that ends unpaid gives the use back, and one paid after all takes it again, or, when the code has
// no use left for it, is not completed at that price and its payment goes back to its card. Widget
// payments as the provider reports them: signed callbacks, applied by the in-process queue.

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' });
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.prisma;

function newCode(prefix: string) {
  return `${prefix}${randomBytes(4).toString('hex').toUpperCase()}`;
}

/** A signed-in customer with one code of a fresh product in the basket. */
async function customerWithBasket(productId: number) {
  const customer = await registerUser(ctx.app);
  const flushed = await call(ctx.app, 'PATCH', '/api/basket', {
    token: customer.token,
    body: { flush_id: randomUUID(), products: [{ id: productId, type: 'increase', count: 1 }] },
  });
  expect(flushed.status).toBe(200);
  return customer;
}

async function orderWith(token: string, code: string) {
  const created = await call(ctx.app, 'POST', '/api/orders/create', { token, body: { type: 'purchase', code } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { orderId: String(created.body.order_id), totalMinor: Number(created.body.total_minor) };
}

/** Opens the provider's widget for the order, as Pay without card fields does. */
async function openWidget(token: string, orderId: string) {
  const opened = await call(ctx.app, 'POST', '/api/payment', { token, body: { type: 'purchase', orderId } });
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
}

/** The provider tells of a widget payment of the order: applied once the queue has run it. */
async function widgetPayment(orderId: string, amountMinor: number, status: 'succeeded' | 'failed') {
  const providerPaymentId = `pay_${randomBytes(8).toString('hex')}`;
  const sent = await sendCallback(
    ctx.app,
    sandboxEventBody({ orderId, amountMinor, providerPaymentId, status, method: 'widget' }),
  );
  expect(sent.status).toBe(200);
  await eventually(async () => {
    const event = await db().paymentEvent.findFirst({ where: { providerPaymentId } });
    return event?.processedAt !== null && event?.processedAt !== undefined;
  }, 10_000);
  return db().paymentEvent.findFirstOrThrow({ where: { providerPaymentId } });
}

async function orderOf(orderId: string) {
  const order = await db().order.findUniqueOrThrow({ where: { id: orderId }, include: { redemption: true } });
  const codes = await db().productCode.count({ where: { orderLine: { orderId }, status: 'SOLD' } });
  return { status: order.status, totalMinor: Number(order.totalMinor), redeemed: order.redemption !== null, codes };
}
const usesOf = async (code: string) => (await db().promoCode.findUniqueOrThrow({ where: { code } })).usedCount;

describe('a promo code and the order paid with it', () => {
  it('declined, then paid in the same widget: the order takes its use again and is fulfilled at its price', async () => {
    const { product } = await createCodedProduct(db(), { priceMinor: 1_000 });
    const code = newCode('AGAIN');
    await db().promoCode.create({ data: { code, discountPercent: 25, maxUses: 1 } });
    const buyer = await customerWithBasket(product.id);
    const order = await orderWith(buyer.token, code);
    expect(order.totalMinor).toBe(750);
    await openWidget(buyer.token, order.orderId);

    expect((await widgetPayment(order.orderId, 750, 'failed')).outcome).toBe('order_failed');
    expect(await orderOf(order.orderId)).toMatchObject({ status: 'FAILED', redeemed: false });
    expect(await usesOf(code)).toBe(0);

    // The shopper tries another card in the widget still open: a new payment at the provider.
    expect((await widgetPayment(order.orderId, 750, 'succeeded')).outcome).toBe('completed');
    expect(await orderOf(order.orderId)).toEqual({ status: 'FULFILLED', totalMinor: 750, redeemed: true, codes: 1 });
    expect(await usesOf(code)).toBe(1);
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
  });

  it('two tabs: the order given up is not completed when its widget is paid later, and its money goes back', async () => {
    const { product } = await createCodedProduct(db(), { priceMinor: 1_000 });
    const code = newCode('ONCE');
    await db().promoCode.create({ data: { code, discountPercent: 25, maxUses: 1 } });
    const buyer = await customerWithBasket(product.id);
    // Tab one: order A and its widget, left open. Tab two: order B with the same code takes it.
    const first = await orderWith(buyer.token, code);
    await openWidget(buyer.token, first.orderId);
    const second = await orderWith(buyer.token, code);
    expect(await orderOf(first.orderId)).toMatchObject({ status: 'CANCELLED', redeemed: false });
    expect(await usesOf(code)).toBe(1);

    // The widget left open in tab one is paid: the code is B's now, so A cannot have it.
    const late = await widgetPayment(first.orderId, first.totalMinor, 'succeeded');
    expect(late.outcome).toBe('late_returned');
    expect(await orderOf(first.orderId)).toEqual({ status: 'CANCELLED', totalMinor: 750, redeemed: false, codes: 0 });
    const refund = await db().providerRefund.findFirstOrThrow({ where: { orderId: first.orderId } });
    expect(refund).toMatchObject({ paymentId: late.paymentId, amountMinor: 750n, reason: 'late_payment' });
    const notices = await db().outboundEmail.findMany({
      where: { toAddress: buyer.user.email, template: 'balance-refund' },
    });
    expect(notices.map((notice) => (notice.data as { balance: { cause: string } }).balance.cause)).toEqual([
      'late_returned',
    ]);

    // B is paid and fulfilled at 25 % off; the code was used once.
    expect((await widgetPayment(second.orderId, second.totalMinor, 'succeeded')).outcome).toBe('completed');
    expect(await orderOf(second.orderId)).toEqual({ status: 'FULFILLED', totalMinor: 750, redeemed: true, codes: 1 });
    expect(await usesOf(code)).toBe(1);
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
  });

  it('its last use gone to another customer, a late payment of an expired order goes back to its card', async () => {
    const { product } = await createCodedProduct(db(), { priceMinor: 1_000 });
    const code = newCode('LAST');
    await db().promoCode.create({ data: { code, discountPercent: 25, maxUses: 1 } });
    const first = await customerWithBasket(product.id);
    const late = await orderWith(first.token, code);
    await openWidget(first.token, late.orderId);
    await db().order.update({ where: { id: late.orderId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    await ctx.app.services.orders.expireOrders();
    expect(await orderOf(late.orderId)).toMatchObject({ status: 'EXPIRED', redeemed: false });
    expect(await usesOf(code)).toBe(0);

    const other = await customerWithBasket(product.id);
    const taken = await orderWith(other.token, code);
    expect(await usesOf(code)).toBe(1);

    expect((await widgetPayment(late.orderId, late.totalMinor, 'succeeded')).outcome).toBe('late_returned');
    expect(await orderOf(late.orderId)).toMatchObject({ status: 'EXPIRED', codes: 0 });
    expect((await widgetPayment(taken.orderId, taken.totalMinor, 'succeeded')).outcome).toBe('completed');
    expect(await usesOf(code)).toBe(1);

    // A code with uses left is simply taken again by the late payment.
    const roomy = newCode('ROOMY');
    await db().promoCode.create({ data: { code: roomy, discountPercent: 10, maxUses: 5 } });
    const again = await customerWithBasket(product.id);
    const expired = await orderWith(again.token, roomy);
    await openWidget(again.token, expired.orderId);
    await db().order.update({ where: { id: expired.orderId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    await ctx.app.services.orders.expireOrders();
    expect((await widgetPayment(expired.orderId, expired.totalMinor, 'succeeded')).outcome).toBe('completed');
    expect(await orderOf(expired.orderId)).toMatchObject({ status: 'FULFILLED', redeemed: true, codes: 1 });
    expect(await usesOf(roomy)).toBe(1);
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
  });
});
