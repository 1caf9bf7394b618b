import { ConflictError, type PaymentCallbackEvent, type SandboxPaymentProvider, ValidationError } from '@store/core';
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

const pay = async (number = '4242424242424242') => {
  key += 1;
  const payment = await provider.createPayment({
    method: 'card',
    orderId: `order-cb${key}`,
    amountMinor: 10_000,
    currency: 'BRL',
    description: 'PlayStation 100',
    card: { number, expMonth: 12, expYear: 2099, cvc: '123' },
    browser: { ip: '203.0.113.7' },
    returnUrl: `${STORE_ORIGIN}/`,
    idempotencyKey: `chargeback-test-${key}`,
  });
  return payment.providerPaymentId;
};

const chargeBack = (paymentId: string, payload: unknown, headers: Record<string, string> = {}) =>
  sandbox.app.inject({
    method: 'POST',
    url: `/sandbox/admin/payments/${paymentId}/chargebacks`,
    headers: { authorization: `Bearer ${API_KEY}`, ...headers },
    payload: payload as object,
  });

/** The callbacks of one payment received so far, verified as the store does, in version order. */
const eventsOf = (paymentId: string): PaymentCallbackEvent[] =>
  receiver.received
    .map((callback) => provider.verifyCallback(callback.body, callback.headers))
    .filter((event) => event.providerPaymentId === paymentId)
    .sort((a, b) => a.version - b.version);

async function waitForEvents(paymentId: string, count: number): Promise<PaymentCallbackEvent[]> {
  const start = Date.now();
  while (eventsOf(paymentId).length < count && Date.now() - start < 5_000) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return eventsOf(paymentId);
}

describe('chargebacks', () => {
  it('take part, then the rest: the payment ends refunded, with a payment.charged_back callback for each', async () => {
    const id = await pay();
    const first = await chargeBack(id, { amount_minor: 3_000 });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      chargeback: {
        id: expect.stringMatching(/^cb_[0-9a-f]{24}$/),
        payment_id: id,
        amount_minor: 3_000,
        created_at: expect.any(String),
      },
    });
    expect(await provider.getPayment(id)).toMatchObject({
      status: 'succeeded',
      refundedMinor: 0,
      chargedBackMinor: 3_000,
      version: 3,
    });

    const rest = await chargeBack(id, { amount_minor: 7_000 });
    expect(rest.statusCode).toBe(201);
    expect(rest.json().chargeback.id).not.toBe(first.json().chargeback.id);
    const read = await sandbox.app.inject({
      method: 'GET',
      url: `/sandbox/api/v1/payments/${id}`,
      headers: { authorization: `Bearer ${API_KEY}` },
    });
    expect(read.json()).toMatchObject({
      status: 'refunded',
      refunded_minor: 0,
      charged_back_minor: 10_000,
      version: 4,
    });

    const events = await waitForEvents(id, 3);
    expect(
      events.map((event) => [event.type, event.status, event.chargedBackMinor, event.refundedMinor, event.version]),
    ).toEqual([
      ['payment.succeeded', 'succeeded', 0, 0, 2],
      ['payment.charged_back', 'succeeded', 3_000, 0, 3],
      ['payment.charged_back', 'refunded', 10_000, 0, 4],
    ]);
    expect(events[2]?.payload).toMatchObject({
      type: 'payment.charged_back',
      data: { id, status: 'refunded', amount_minor: 10_000, refunded_minor: 0, charged_back_minor: 10_000 },
    });

    // Nothing is left: neither a chargeback nor a refund can take more.
    const after = await chargeBack(id, { amount_minor: 1 });
    expect(after.statusCode).toBe(409);
    expect(after.json()).toEqual({ message: 'A refunded payment cannot be charged back.' });
    await expect(
      provider.refund({ providerPaymentId: id, amountMinor: 1, idempotencyKey: `${id}-late` }),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it('leave a refund only what is left; refunds and chargebacks together make the payment refunded', async () => {
    const id = await pay();
    expect((await chargeBack(id, { amount_minor: 4_000 })).statusCode).toBe(201);
    const tooMuch = await provider
      .refund({ providerPaymentId: id, amountMinor: 6_001, idempotencyKey: `${id}-a` })
      .catch((caught: unknown) => caught);
    expect(tooMuch).toBeInstanceOf(ValidationError);
    expect((tooMuch as ValidationError).errors).toHaveProperty('amountMinor');
    expect(await provider.getPayment(id)).toMatchObject({ status: 'succeeded', refundedMinor: 0, version: 3 });

    await provider.refund({ providerPaymentId: id, amountMinor: 6_000, idempotencyKey: `${id}-b` });
    expect(await provider.getPayment(id)).toMatchObject({
      status: 'refunded',
      refundedMinor: 6_000,
      chargedBackMinor: 4_000,
      version: 4,
    });
    const events = await waitForEvents(id, 3);
    expect(events.slice(1).map((event) => [event.type, event.status])).toEqual([
      ['payment.charged_back', 'succeeded'],
      ['payment.refunded', 'refunded'],
    ]);
  });

  it('leave out what was refunded', async () => {
    const id = await pay();
    await provider.refund({ providerPaymentId: id, amountMinor: 2_000, idempotencyKey: `${id}-r` });
    const tooMuch = await chargeBack(id, { amount_minor: 8_001 });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json()).toEqual({
      message: 'The chargeback is more than what is left of the payment.',
      errors: { amount_minor: ['exceeds_remaining'] },
    });
    expect((await chargeBack(id, { amount_minor: 8_000 })).statusCode).toBe(201);
    expect(await provider.getPayment(id)).toMatchObject({
      status: 'refunded',
      refundedMinor: 2_000,
      chargedBackMinor: 8_000,
    });
  });

  it('are refused on a payment that did not succeed, an unknown one, a bad amount or without the key', async () => {
    const declined = await pay('4000000000000002');
    const conflict = await chargeBack(declined, { amount_minor: 100 });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toEqual({ message: 'A failed payment cannot be charged back.' });

    expect((await chargeBack('pay_000000000000000000000000', { amount_minor: 100 })).statusCode).toBe(404);

    const id = await pay();
    for (const amount of [0, -1, 1.5, '100', 10_000_000_001]) {
      const refused = await chargeBack(id, { amount_minor: amount });
      expect(refused.statusCode, String(amount)).toBe(422);
      expect(refused.json().errors, String(amount)).toEqual({ amount_minor: ['invalid'] });
    }
    expect((await chargeBack(id, {})).json().errors).toEqual({ amount_minor: ['required'] });
    expect((await chargeBack(id, { amount_minor: 10_001 })).json().errors).toEqual({
      amount_minor: ['exceeds_remaining'],
    });

    const anonymous = await sandbox.app.inject({
      method: 'POST',
      url: `/sandbox/admin/payments/${id}/chargebacks`,
      payload: { amount_minor: 100 },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await provider.getPayment(id)).toMatchObject({ status: 'succeeded', chargedBackMinor: 0, version: 2 });
  });

  it('take one Idempotency-Key once: the same answer again, another amount a 409', async () => {
    const id = await pay();
    const headers = { 'idempotency-key': `${id}-cb` };
    const [first, second] = await Promise.all([
      chargeBack(id, { amount_minor: 1_500 }, headers),
      chargeBack(id, { amount_minor: 1_500 }, headers),
    ]);
    expect(first?.statusCode).toBe(201);
    expect(second?.json()).toEqual(first?.json());
    const other = await chargeBack(id, { amount_minor: 500 }, headers);
    expect(other.statusCode).toBe(409);
    expect((await chargeBack(id, { amount_minor: 1 }, { 'idempotency-key': '' })).statusCode).toBe(422);
    expect(await provider.getPayment(id)).toMatchObject({ chargedBackMinor: 1_500, version: 3 });

    // Without a key each call is a chargeback of its own.
    await chargeBack(id, { amount_minor: 100 });
    await chargeBack(id, { amount_minor: 100 });
    expect((await provider.getPayment(id)).chargedBackMinor).toBe(1_700);
  });
});
