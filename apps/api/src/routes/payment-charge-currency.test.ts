import { randomUUID } from 'node:crypto';
import {
  CHARGE_RATE_UNAVAILABLE,
  ChargeSchema,
  convertToCharge,
  ErrorKeys,
  SbpPaymentResponseSchema,
  UpiPaymentResponseSchema,
} from '@store/contract';
import { createDisplayRateAdmin, createLedgerService, createOrderOperations } from '@store/core';
import { eventually } from '@store/core/testing';
import { DEV_SANDBOX_API_KEY } from '@store/sandbox/dev-secrets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectFieldError } from '../../test/accounts.ts';
import { customerWithOrder, listeningTestApp, postForm, sandboxEventBody, sendCallback } from '../../test/payments.ts';

// Each payment charged in its rail's currency (docs/currency.md, "What a payment is charged in"), end
// to end: the store, the embedded sandbox over HTTP, its signed callbacks and the in-process queue.
// The order, the balance and the books stay in BRL whatever the charge.

let ctx: Awaited<ReturnType<typeof listeningTestApp>>;
const RUB_RATE = '0.057';
const INR_RATE = '0.064';

beforeAll(async () => {
  ctx = await listeningTestApp();
  await setRate('RUB', RUB_RATE);
  await setRate('INR', INR_RATE);
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.prisma;
const admin = () => createDisplayRateAdmin({ sql: ctx.database.sql });
const setRate = (currency: string, rate: string) => admin().set({ currency, rate, setBy: 'test' });
const merchant = { authorization: `Bearer ${DEV_SANDBOX_API_KEY}`, 'content-type': 'application/json' };

async function atSandbox(method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await ctx.app.inject({
    method,
    url: `/sandbox${path}`,
    headers: { ...merchant, ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

const orderOf = async (orderId: string) => {
  const order = await db().order.findUniqueOrThrow({ where: { id: orderId } });
  return { status: order.status, refundedMinor: Number(order.refundedMinor) };
};

/** The order's ledger movements: kind and BRL amount. */
async function transfersOf(orderId: string) {
  const transfers = await db().ledgerTransfer.findMany({ where: { orderId }, orderBy: { createdAt: 'asc' } });
  return transfers.map((transfer) => [transfer.kind, Number(transfer.amountMinor)]);
}

async function expectBooksBalance() {
  expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
}

const openSbp = (token: string, orderId: string) =>
  call(ctx.app, 'POST', '/api/payment-sbp', { token, body: { type: 'purchase', orderId } });

function upiFields(orderId: string, currency = 'INR') {
  return {
    currency,
    description: 'Gift cards',
    FirstName: 'Asha Kumar',
    AccountNumber: 'asha@okbank',
    email: 'asha@example.com',
    phone: '+91 98765 43210',
    zip: '110001',
    address: '1 Main Road, New Delhi',
    orderId,
    success_url: `${ctx.publicUrl}/?paymentConfirmOrder=${orderId}`,
    decline_url: `${ctx.publicUrl}/payment-error/${orderId}`,
    cancel_url: `${ctx.publicUrl}/checkout`,
  };
}

describe('SBP, charged in roubles', () => {
  it('converts the BRL total at the locked rate, asks the provider for that, and completes the order in BRL', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const answer = await openSbp(buyer.token, buyer.orderId);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { sbp, charge, payment_id } = SbpPaymentResponseSchema.parse(answer.body);
    const expected = convertToCharge(buyer.totalMinor, RUB_RATE);
    expect(ChargeSchema.parse(charge)).toMatchObject({
      amount_minor: expected,
      currency: 'RUB',
      store_amount_minor: buyer.totalMinor,
      store_currency: 'BRL',
      rate: RUB_RATE,
    });
    const payment = await db().payment.findUniqueOrThrow({ where: { id: payment_id } });
    expect({
      amount: Number(payment.amountMinor),
      currency: payment.currency,
      charge: Number(payment.chargeMinor),
      chargeCurrency: payment.chargeCurrency,
      rate: payment.chargeRate?.toString(),
    }).toEqual({ amount: buyer.totalMinor, currency: 'BRL', charge: expected, chargeCurrency: 'RUB', rate: RUB_RATE });
    expect(payment.chargeLockedAt).toBeInstanceOf(Date);
    const atProvider = await atSandbox('GET', `/api/v1/payments/${payment.providerPaymentId}`);
    expect(atProvider.body).toMatchObject({ amount_minor: expected, currency: 'RUB' });

    // A new rate after the payment opened changes nothing of it.
    await setRate('RUB', '0.06');
    const confirmed = await postForm(ctx.app, new URL(sbp.pay_link).pathname, { decision: 'confirm' });
    expect(confirmed.statusCode).toBe(200);
    await eventually(async () => (await orderOf(buyer.orderId)).status === 'FULFILLED', 15_000);
    await setRate('RUB', RUB_RATE);
    expect(await transfersOf(buyer.orderId)).toEqual([['PURCHASE', buyer.totalMinor]]);
    await expectBooksBalance();
  });

  it('applies a signed callback of the charge once, and sets aside one of another amount or currency', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const { payment_id, charge } = SbpPaymentResponseSchema.parse((await openSbp(buyer.token, buyer.orderId)).body);
    const chargeMinor = charge?.amount_minor ?? 0;
    const { providerPaymentId } = await db().payment.findUniqueOrThrow({ where: { id: payment_id } });
    const event = (fields: { amountMinor: number; currency: string; version?: number }) =>
      sandboxEventBody({ orderId: buyer.orderId, method: 'qr', providerPaymentId: providerPaymentId ?? '', ...fields });

    // The order's own BRL total is not what this payment charged; nor is a kopek more.
    const inBrl = await sendCallback(ctx.app, event({ amountMinor: buyer.totalMinor, currency: 'BRL' }));
    const oneMore = await sendCallback(ctx.app, event({ amountMinor: chargeMinor + 1, currency: 'RUB' }));
    expect([inBrl.status, oneMore.status]).toEqual([200, 200]);
    const setAside = await db().paymentEvent.findMany({
      where: { providerEventId: { in: [inBrl.id, oneMore.id] } },
      select: { providerEventId: true, rejection: true },
    });
    expect(Object.fromEntries(setAside.map((row) => [row.providerEventId, row.rejection]))).toEqual({
      [inBrl.id]: 'currency_mismatch',
      [oneMore.id]: 'amount_mismatch',
    });
    expect((await orderOf(buyer.orderId)).status).toBe('PENDING');

    // The charge itself, delivered twice: applied once.
    const body = event({ amountMinor: chargeMinor, currency: 'RUB', version: 5 });
    const first = await sendCallback(ctx.app, body);
    const again = await sendCallback(ctx.app, body, { id: first.id });
    expect([first.body, again.body]).toEqual([
      { received: true, duplicate: false },
      { received: true, duplicate: true },
    ]);
    await eventually(async () => (await orderOf(buyer.orderId)).status === 'FULFILLED', 15_000);
    expect(await transfersOf(buyer.orderId)).toEqual([['PURCHASE', buyer.totalMinor]]);
    await expectBooksBalance();
  });

  it('a failed charge fails the order and moves no money', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const { payment_id, charge } = SbpPaymentResponseSchema.parse((await openSbp(buyer.token, buyer.orderId)).body);
    const { providerPaymentId } = await db().payment.findUniqueOrThrow({ where: { id: payment_id } });
    const failed = sandboxEventBody({
      orderId: buyer.orderId,
      method: 'qr',
      providerPaymentId: providerPaymentId ?? '',
      amountMinor: charge?.amount_minor ?? 0,
      currency: 'RUB',
      status: 'failed',
      version: 5,
    });
    expect((await sendCallback(ctx.app, failed)).status).toBe(200);
    await eventually(async () => (await orderOf(buyer.orderId)).status === 'FAILED', 15_000);
    expect(await transfersOf(buyer.orderId)).toEqual([]);
  });
});

describe('UPI, charged in rupees', () => {
  it('takes INR as SPEC’s client sends it, is paid on the provider’s page, and refunds in rupees against a BRL ledger', async () => {
    const buyer = await customerWithOrder(ctx.app, db(), { count: 2 });
    const answer = await call(ctx.app, 'POST', '/api/orders/create-upi', {
      token: buyer.token,
      body: upiFields(buyer.orderId),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const page = UpiPaymentResponseSchema.parse(answer.body);
    const chargeMinor = convertToCharge(buyer.totalMinor, INR_RATE) ?? 0;
    expect(page.charge).toMatchObject({
      amount_minor: chargeMinor,
      currency: 'INR',
      store_amount_minor: buyer.totalMinor,
    });
    expect(page.intent).toContain('cu=INR');
    const paid = await postForm(ctx.app, new URL(page.redirect_url).pathname, { decision: 'pay' });
    expect(paid.statusCode).toBe(303);
    await eventually(async () => (await orderOf(buyer.orderId)).status === 'FULFILLED', 15_000);
    const payment = await db().payment.findUniqueOrThrow({ where: { id: page.payment_id } });

    // Part given back at the provider's dashboard, in rupees: the store reverses its BRL share.
    const part = 1_001;
    const refunded = await atSandbox('POST', `/api/v1/payments/${payment.providerPaymentId}/refunds`, {
      amount_minor: part,
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBeLessThan(300);
    const partInBrl = Math.floor((part * buyer.totalMinor * 2 + chargeMinor) / (chargeMinor * 2));
    await eventually(async () => (await orderOf(buyer.orderId)).status === 'PARTIALLY_REFUNDED', 15_000);
    expect(await orderOf(buyer.orderId)).toEqual({ status: 'PARTIALLY_REFUNDED', refundedMinor: partInBrl });

    // The rest, refunded by an operator to the card: the provider is asked for every rupee left.
    await createOrderOperations({
      db: db(),
      sql: ctx.database.sql,
      publicUrl: ctx.publicUrl,
      queue: ctx.app.queue,
    }).refundOrder(buyer.orderId, { to: 'card', reason: 'the-rest' });
    await eventually(async () => (await orderOf(buyer.orderId)).status === 'REFUNDED', 15_000);
    expect(await orderOf(buyer.orderId)).toEqual({ status: 'REFUNDED', refundedMinor: buyer.totalMinor });
    const atProvider = await atSandbox('GET', `/api/v1/payments/${payment.providerPaymentId}`);
    expect(atProvider.body).toMatchObject({ status: 'refunded', currency: 'INR', refunded_minor: chargeMinor });
    const refund = await db().providerRefund.findFirstOrThrow({ where: { orderId: buyer.orderId } });
    expect(Number(refund.amountMinor)).toBe(buyer.totalMinor - partInBrl);
    // The books: the BRL total in, the BRL total back out.
    const moves = await transfersOf(buyer.orderId);
    expect(moves[0]).toEqual(['PURCHASE', buyer.totalMinor]);
    expect(
      moves.filter(([kind]) => kind === 'PROVIDER_REFUND').reduce((sum, [, amount]) => sum + Number(amount), 0),
    ).toBe(buyer.totalMinor);
    await expectBooksBalance();
  });

  it('refuses a currency that is neither INR nor the order’s', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const answer = await call(ctx.app, 'POST', '/api/orders/create-upi', {
      token: buyer.token,
      body: upiFields(buyer.orderId, 'USD'),
    });
    expectFieldError(answer, 'currency', ErrorKeys.currencyMismatch);
  });
});

describe('a rate too old, or none', () => {
  it('refuses the method with a 422 on currency, and opens nothing', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    // 49 hours old: past the 48-hour limit of a charge (though still shown, for 7 days, as a price).
    await db().displayRate.update({
      where: { currency: 'INR' },
      data: { setAt: new Date(Date.now() - 49 * 3_600_000) },
    });
    const stale = await call(ctx.app, 'POST', '/api/orders/create-upi', {
      token: buyer.token,
      body: upiFields(buyer.orderId),
    });
    expectFieldError(stale, 'currency', CHARGE_RATE_UNAVAILABLE);
    expect(stale.body.message).toMatch(/INR rate is out of date/);

    await admin().remove('RUB');
    const none = await openSbp(buyer.token, buyer.orderId);
    expectFieldError(none, 'currency', CHARGE_RATE_UNAVAILABLE);
    expect(none.body.message).toMatch(/no RUB rate/);
    expect(await db().payment.count({ where: { orderId: buyer.orderId } })).toBe(0);

    // Pix charges BRL: no rate needed.
    const pix = await call(ctx.app, 'POST', '/api/orders/create-qr', {
      token: buyer.token,
      body: { amount: (buyer.totalMinor / 100).toFixed(2), currency: 'BRL', personalId: '52998224725' },
    });
    expect(pix.status, JSON.stringify(pix.body)).toBe(200);
    expect(pix.body.charge).toMatchObject({ currency: 'BRL', amount_minor: buyer.totalMinor, rate: '1' });
    await setRate('RUB', RUB_RATE);
    await setRate('INR', INR_RATE);
  });
});
