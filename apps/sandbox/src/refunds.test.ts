import { ConflictError, NotFoundError, type SandboxPaymentProvider, ValidationError } from '@store/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, type Receiver, STORE_ORIGIN, startSandboxWithProvider, type TestSandbox } from './test-support.ts';

let sandbox: TestSandbox;
let receiver: Receiver;
let provider: SandboxPaymentProvider;
let key = 0;

let close: () => Promise<void>;

beforeAll(async () => {
  ({ sandbox, receiver, provider, close } = await startSandboxWithProvider());
});

afterAll(() => close());

const pay = (orderId: string, number = '4242424242424242') =>
  provider.createPayment({
    method: 'card',
    orderId,
    amountMinor: 10_000,
    currency: 'BRL',
    description: 'Xbox 100',
    card: { number, expMonth: 12, expYear: 2099, cvc: '123' },
    browser: { ip: '203.0.113.7' },
    returnUrl: `${STORE_ORIGIN}/`,
    idempotencyKey: `refund-test-${++key}`,
  });

describe('status read', () => {
  it('reads a payment and lists an order’s payments, newest first', async () => {
    const declined = await pay('order-r1', '4000000000000002');
    const paid = await pay('order-r1');
    expect(await provider.getPayment(paid.providerPaymentId)).toMatchObject({
      providerPaymentId: paid.providerPaymentId,
      orderId: 'order-r1',
      method: 'card',
      status: 'succeeded',
      amountMinor: 10_000,
      currency: 'BRL',
      refundedMinor: 0,
      card: { brand: 'visa', last4: '4242' },
    });
    const list = await provider.listPayments('order-r1');
    expect(list.map((payment) => payment.providerPaymentId)).toEqual([
      paid.providerPaymentId,
      declined.providerPaymentId,
    ]);
    expect(await provider.listPayments('order-nobody')).toEqual([]);
    await expect(provider.getPayment('pay_000000000000000000000000')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('refunds', () => {
  it('refunds in parts, then in full, with a callback for each', async () => {
    const paid = await pay('order-r2');
    const part = await provider.refund({
      providerPaymentId: paid.providerPaymentId,
      amountMinor: 2_500,
      idempotencyKey: 'r2-a',
    });
    expect(part).toMatchObject({ providerPaymentId: paid.providerPaymentId, amountMinor: 2_500, status: 'succeeded' });
    expect(await provider.getPayment(paid.providerPaymentId)).toMatchObject({
      status: 'succeeded',
      refundedMinor: 2_500,
    });
    await provider.refund({ providerPaymentId: paid.providerPaymentId, amountMinor: 7_500, idempotencyKey: 'r2-b' });
    expect(await provider.getPayment(paid.providerPaymentId)).toMatchObject({
      status: 'refunded',
      refundedMinor: 10_000,
    });

    const start = Date.now();
    const refunds = () =>
      receiver.received
        .map((callback) => provider.verifyCallback(callback.body, callback.headers))
        .filter((event) => event.providerPaymentId === paid.providerPaymentId && event.type === 'payment.refunded');
    while (refunds().length < 2 && Date.now() - start < 5_000) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(refunds().map((event) => [event.refundedMinor, event.status])).toEqual([
      [2_500, 'succeeded'],
      [10_000, 'refunded'],
    ]);
  });

  it('refunds once for one idempotency key', async () => {
    const paid = await pay('order-r3');
    const request = { providerPaymentId: paid.providerPaymentId, amountMinor: 1_000, idempotencyKey: 'r3' };
    const [first, second] = await Promise.all([provider.refund(request), provider.refund(request)]);
    expect(second?.refundId).toBe(first?.refundId);
    expect((await provider.getPayment(paid.providerPaymentId)).refundedMinor).toBe(1_000);
  });

  it('refuses more than is left, a payment that did not succeed, and an unknown payment', async () => {
    const paid = await pay('order-r4');
    await expect(
      provider.refund({ providerPaymentId: paid.providerPaymentId, amountMinor: 10_001, idempotencyKey: 'r4' }),
    ).rejects.toBeInstanceOf(ValidationError);
    const declined = await pay('order-r4', '4000000000000002');
    await expect(
      provider.refund({ providerPaymentId: declined.providerPaymentId, amountMinor: 1, idempotencyKey: 'r4-b' }),
    ).rejects.toBeInstanceOf(ConflictError);
    await expect(
      provider.refund({ providerPaymentId: 'pay_000000000000000000000000', amountMinor: 1, idempotencyKey: 'r4-c' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect((await provider.getPayment(paid.providerPaymentId)).refundedMinor).toBe(0);
  });

  it('requires an idempotency key', async () => {
    const paid = await pay('order-r5');
    const response = await sandbox.app.inject({
      method: 'POST',
      url: `/sandbox/api/v1/payments/${paid.providerPaymentId}/refunds`,
      headers: { authorization: `Bearer ${API_KEY}` },
      payload: { amount_minor: 1 },
    });
    expect(response.statusCode).toBe(422);
  });
});
