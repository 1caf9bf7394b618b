import { randomUUID } from 'node:crypto';
import { PaymentResponseSchema, SbpPaymentResponseSchema } from '@store/contract';
import { createLedgerService, createOrderOperations, orderHistory } from '@store/core';
import { eventually } from '@store/core/testing';
import { DEV_SANDBOX_API_KEY } from '@store/sandbox/dev-secrets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../test/accounts.ts';
import { createCodedProduct } from '../../test/orders.ts';
import { CARDS, cardFields, customerWithOrder, listeningTestApp, postForm } from '../../test/payments.ts';

// Money the provider gives back, end to end: the store, the embedded sandbox, its signed callbacks
// over HTTP and the in-process queue. A second charge goes back to its card by itself; an operator's
// refund to the card goes through the provider; a refund or chargeback at the provider's own
// dashboard reverses what the payment produced. The books balance after each.

let ctx: Awaited<ReturnType<typeof listeningTestApp>>;

beforeAll(async () => {
  ctx = await listeningTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.prisma;
const pay = (token: string, body: unknown) => call(ctx.app, 'POST', '/api/payment', { token, body });
const merchant = { authorization: `Bearer ${DEV_SANDBOX_API_KEY}`, 'content-type': 'application/json' };

/** Asks the sandbox's own API, as the merchant's dashboard would. */
async function atSandbox(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await ctx.app.inject({
    method,
    url: `/sandbox${path}`,
    headers: { ...merchant, ...headers },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

async function orderOf(orderId: string) {
  const order = await db().order.findUniqueOrThrow({ where: { id: orderId } });
  return { status: order.status, refundedMinor: Number(order.refundedMinor) };
}
async function customerOf(userId: string) {
  const user = await db().user.findUniqueOrThrow({ where: { id: userId } });
  return { balanceMinor: Number(user.balanceMinor), owedMinor: Number(user.owedMinor) };
}
async function expectBooksBalance() {
  expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
}

/** Pays the order with a card through the store's own form, and waits until it is fulfilled. */
async function payByCard(token: string, orderId: string) {
  const answer = PaymentResponseSchema.parse(
    (await pay(token, { type: 'purchase', orderId, ...cardFields(CARDS.success) })).body,
  );
  expect(answer.status).toBe('success');
  await eventually(async () => (await orderOf(orderId)).status === 'FULFILLED', 15_000);
  return db().payment.findUniqueOrThrow({ where: { id: answer.payment_id } });
}

describe('a second charge of one order', () => {
  it('goes back to its card by itself: held in suspense, refunded by the provider, and the customer is told', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    // An SBP code opened first and left on the phone, then the card: both get paid.
    const opened = await call(ctx.app, 'POST', '/api/payment-sbp', {
      token: buyer.token,
      body: { type: 'purchase', orderId: buyer.orderId },
    });
    const { sbp, payment_id: sbpPaymentId } = SbpPaymentResponseSchema.parse(opened.body);
    await payByCard(buyer.token, buyer.orderId);
    const confirmed = await postForm(ctx.app, new URL(sbp.pay_link).pathname, { decision: 'confirm' });
    expect(confirmed.statusCode).toBe(200);

    await eventually(async () => {
      const refund = await db().providerRefund.findFirst({ where: { paymentId: sbpPaymentId } });
      const payment = await db().payment.findUniqueOrThrow({ where: { id: sbpPaymentId } });
      return refund?.status === 'SUCCEEDED' && payment.status === 'REFUNDED';
    }, 15_000);
    const payment = await db().payment.findUniqueOrThrow({ where: { id: sbpPaymentId } });
    expect(Number(payment.refundedMinor)).toBe(buyer.totalMinor);
    // SBP charged roubles, and the provider gave back all of them; the store's books speak BRL.
    expect(payment.chargeCurrency).toBe('RUB');
    const atProvider = await atSandbox('GET', `/api/v1/payments/${payment.providerPaymentId}`);
    expect(atProvider.body).toMatchObject({
      status: 'refunded',
      currency: 'RUB',
      refunded_minor: Number(payment.chargeMinor),
    });

    // The order is what the card made it; nothing came onto the balance; suspense is empty again.
    expect(await orderOf(buyer.orderId)).toEqual({ status: 'FULFILLED', refundedMinor: 0 });
    expect(await customerOf(buyer.user.id)).toEqual({ balanceMinor: 0, owedMinor: 0 });
    const totals = await createLedgerService({ sql: ctx.database.sql }).accountTotals();
    expect(totals.find((total) => total.account === 'SUSPENSE')?.balanceMinor ?? 0).toBe(0);
    const notices = await db().outboundEmail.findMany({
      where: { toAddress: buyer.user.email, template: 'balance-refund' },
    });
    expect(notices.map((notice) => (notice.data as { balance: { cause: string } }).balance.cause)).toEqual([
      'paid_twice',
    ]);
    const history = await orderHistory(ctx.database.sql, buyer.orderId);
    expect(history.find((event) => event.kind === 'refund_asked')).toMatchObject({
      actor: 'system',
      paymentId: sbpPaymentId,
      detail: expect.objectContaining({ reason: 'second_charge' }),
    });
    await expectBooksBalance();
  });
});

describe('an operator refunds an order to its card', () => {
  it('in parts, each once, and the order follows when the provider has given the money back', async () => {
    const buyer = await customerWithOrder(ctx.app, db(), { count: 2 });
    const paid = await payByCard(buyer.token, buyer.orderId);
    const operations = createOrderOperations({
      db: db(),
      sql: ctx.database.sql,
      publicUrl: ctx.publicUrl,
      queue: ctx.app.queue,
    });

    const first = await operations.refundOrder(buyer.orderId, { to: 'card', amountMinor: 1_000, reason: 'first' });
    expect(first).toMatchObject({ to: 'card', refundedMinor: 1_000 });
    await expect(
      operations.refundOrder(buyer.orderId, { to: 'card', amountMinor: 1_000, reason: 'first' }),
    ).rejects.toThrow(/asked for already/);
    await eventually(async () => (await orderOf(buyer.orderId)).status === 'PARTIALLY_REFUNDED', 15_000);
    expect(await orderOf(buyer.orderId)).toEqual({ status: 'PARTIALLY_REFUNDED', refundedMinor: 1_000 });
    // More than is left is refused before anything is asked of the provider.
    await expect(
      operations.refundOrder(buyer.orderId, { to: 'card', amountMinor: buyer.totalMinor, reason: 'too-much' }),
    ).rejects.toThrow(/left to refund/);

    await operations.refundOrder(buyer.orderId, { to: 'card', reason: 'the-rest' });
    await eventually(async () => (await orderOf(buyer.orderId)).status === 'REFUNDED', 15_000);
    expect(await orderOf(buyer.orderId)).toEqual({ status: 'REFUNDED', refundedMinor: buyer.totalMinor });
    const atProvider = await atSandbox('GET', `/api/v1/payments/${paid.providerPaymentId}`);
    expect(atProvider.body).toMatchObject({ status: 'refunded', refunded_minor: buyer.totalMinor });
    const refunds = await db().providerRefund.findMany({
      where: { orderId: buyer.orderId },
      orderBy: { createdAt: 'asc' },
    });
    expect(refunds.map((refund) => [Number(refund.amountMinor), refund.status, refund.requestedBy])).toEqual([
      [1_000, 'SUCCEEDED', 'operator:operator'],
      [buyer.totalMinor - 1_000, 'SUCCEEDED', 'operator:operator'],
    ]);
    // The codes stay delivered; the customer's balance is not touched.
    expect(await customerOf(buyer.user.id)).toEqual({ balanceMinor: 0, owedMinor: 0 });
    // The order's history: who asked, what the provider did, what the store made of it.
    const history = (await orderHistory(ctx.database.sql, buyer.orderId)).map(
      (event) => `${event.actor} ${event.kind}`,
    );
    expect(history.slice(history.indexOf('provider:sandbox status') + 1)).toEqual(
      expect.arrayContaining([
        'operator:operator refund_asked',
        'provider:sandbox refund_sent',
        'provider:sandbox payment',
        'provider:sandbox reversal',
      ]),
    );
    expect(history.filter((line) => line === 'operator:operator refund_asked')).toHaveLength(2);
    expect(history.filter((line) => line === 'provider:sandbox reversal')).toHaveLength(2);
    await expectBooksBalance();
  });
});

describe('the provider gives a payment back on its own', () => {
  it('a top-up refunded at its dashboard takes its credit back; a chargeback of a spent one leaves a debt', async () => {
    const customer = await registerUser(ctx.app);
    const topUp = PaymentResponseSchema.parse(
      (await pay(customer.token, { type: 'balance', value: 200, ...cardFields(CARDS.success) })).body,
    );
    await eventually(async () => (await customerOf(customer.user.id)).balanceMinor === 20_000, 15_000);
    const payment = await db().payment.findUniqueOrThrow({ where: { id: topUp.payment_id } });

    const refunded = await atSandbox(
      'POST',
      `/api/v1/payments/${payment.providerPaymentId}/refunds`,
      { amount_minor: 5_000 },
      { 'idempotency-key': `dashboard-${payment.id}` },
    );
    expect(refunded.status).toBe(201);
    await eventually(async () => (await customerOf(customer.user.id)).balanceMinor === 15_000, 15_000);
    expect(await orderOf(topUp.order_id)).toEqual({ status: 'PARTIALLY_REFUNDED', refundedMinor: 5_000 });

    // Spent from the balance, then the bank takes the rest back.
    const { product } = await createCodedProduct(db(), { priceMinor: 12_000 });
    const flushed = await call(ctx.app, 'PATCH', '/api/basket', {
      token: customer.token,
      body: { flush_id: randomUUID(), products: [{ id: product.id, type: 'increase', count: 1 }] },
    });
    expect(flushed.status, JSON.stringify(flushed.body)).toBe(200);
    const made = await call(ctx.app, 'POST', '/api/orders/create?type=spending', {
      token: customer.token,
      body: { type: 'purchase' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const spent = await call(
      ctx.app,
      'POST',
      `/api/payment/spending-balance-handle?orderId=${(made.body as { order_id: string }).order_id}`,
      { token: customer.token },
    );
    expect(spent.status, JSON.stringify(spent.body)).toBe(200);
    expect(await customerOf(customer.user.id)).toEqual({ balanceMinor: 3_000, owedMinor: 0 });

    const chargedBack = await atSandbox('POST', `/admin/payments/${payment.providerPaymentId}/chargebacks`, {
      amount_minor: 15_000,
    });
    expect(chargedBack.status, JSON.stringify(chargedBack.body)).toBe(201);
    await eventually(async () => (await customerOf(customer.user.id)).owedMinor === 12_000, 15_000);
    expect(await customerOf(customer.user.id)).toEqual({ balanceMinor: 0, owedMinor: 12_000 });
    expect(await orderOf(topUp.order_id)).toEqual({ status: 'REFUNDED', refundedMinor: 20_000 });

    // The account says so, and spending waits for the debt.
    const balance = await call(ctx.app, 'GET', '/api/user/balance', { token: customer.token });
    expect(balance.body).toEqual({ balance: 0, balance_minor: 0, owed_minor: 12_000 });
    await expectBooksBalance();
  });
});
