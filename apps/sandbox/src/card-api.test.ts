import { type CardPaymentRequest, type PaymentProvider, ValidationError } from '@store/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEY,
  PUBLIC_URL,
  type Receiver,
  STORE_ORIGIN,
  startSandboxWithProvider,
  type TestSandbox,
} from './test-support.ts';

let sandbox: TestSandbox;
let receiver: Receiver;
let provider: PaymentProvider;
let attempt = 0;

let close: () => Promise<void>;

beforeAll(async () => {
  ({ sandbox, receiver, provider, close } = await startSandboxWithProvider());
});

afterAll(() => close());

const pay = (number: string, overrides: Partial<CardPaymentRequest> = {}) =>
  provider.createPayment({
    method: 'card',
    orderId: `order-${++attempt}`,
    amountMinor: 15_000,
    currency: 'RUB',
    description: 'Steam gift card',
    card: { number, expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: '123' },
    browser: { ip: '203.0.113.7', screenHeight: 800, screenWidth: 375, timeZoneOffset: -180 },
    returnUrl: `${STORE_ORIGIN}/?paymentConfirmOrder=order-${attempt}`,
    idempotencyKey: `attempt-${attempt}`,
    ...overrides,
  });

describe('card API: test cards', () => {
  it('4242 4242 4242 4242 succeeds', async () => {
    const result = await pay('4242 4242 4242 4242');
    expect(result.outcome).toEqual({ status: 'success' });
    expect(result.card).toEqual({ brand: 'visa', last4: '4242' });
    expect((await provider.getPayment(result.providerPaymentId)).status).toBe('succeeded');
  });

  it('4000 0000 0000 0002 is declined', async () => {
    const result = await pay('4000000000000002');
    expect(result.outcome).toEqual({ status: 'failure', reason: 'card_declined' });
    expect((await provider.getPayment(result.providerPaymentId)).status).toBe('failed');
  });

  it('4000 0000 0000 9995 is declined for insufficient funds', async () => {
    expect((await pay('4000000000009995')).outcome).toEqual({ status: 'failure', reason: 'insufficient_funds' });
  });

  it('4000 0000 0000 3220 asks for a 3DS challenge: PaReq, MD and TermUrl for the ACS', async () => {
    const result = await pay('4000000000003220');
    expect(result.outcome).toMatchObject({
      status: '3DS',
      redirectUrl: `${PUBLIC_URL}/3ds/acs`,
      MD: result.providerPaymentId,
      TermUrl: `${PUBLIC_URL}/3ds/term`,
    });
    expect((await provider.getPayment(result.providerPaymentId)).status).toBe('pending');
  });

  it('4000 0027 6000 3184 answers 3DS_REDIRECT', async () => {
    const result = await pay('4000002760003184');
    expect(result.outcome).toMatchObject({
      status: '3DS_REDIRECT',
      redirectMethod: 'GET',
      redirectUrl: `${PUBLIC_URL}/3ds/challenge`,
      redirectParams: { payment_id: result.providerPaymentId },
    });
  });

  it('4000 0084 0000 1629 asks for 3DS (and is declined after it, see three-ds.test.ts)', async () => {
    expect((await pay('4000008400001629')).outcome.status).toBe('3DS');
  });

  it('a Mir card succeeds', async () => {
    const result = await pay('2200000000000004');
    expect(result.outcome).toEqual({ status: 'success' });
    expect(result.card.brand).toBe('mir');
  });

  it('any other Luhn-valid number succeeds', async () => {
    expect((await pay('5555555555554444')).outcome).toEqual({ status: 'success' });
    expect((await pay('2204123456789015')).outcome).toEqual({ status: 'success' });
  });

  it('a Luhn-invalid number is a 422, and nothing is created', async () => {
    const error = await pay('4242424242424241').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toHaveProperty(['card.number']);
    expect(await provider.listPayments(`order-${attempt}`)).toEqual([]);

    const direct = await sandbox.app.inject({
      method: 'POST',
      url: '/sandbox/api/v1/payments',
      headers: { authorization: `Bearer ${API_KEY}` },
      payload: {
        method: 'card',
        order_id: 'o-luhn',
        amount_minor: 100,
        currency: 'RUB',
        description: 'x',
        callback_url: receiver.url,
        return_url: `${STORE_ORIGIN}/`,
        card: { number: '4000000000000001', exp_month: 1, exp_year: 2099, cvc: '123' },
        browser: { ip: '1.1.1.1' },
      },
    });
    expect(direct.statusCode).toBe(422);
    expect(direct.json()).toMatchObject({ errors: { 'card.number': ['luhn'] } });
  });

  it('an expired card is declined as expired', async () => {
    const result = await pay('4242424242424242', {
      card: { number: '4242424242424242', expMonth: 1, expYear: 2020, cvc: '123' },
    });
    expect(result.outcome).toEqual({ status: 'failure', reason: 'expired_card' });
  });
});

describe('card API: the request', () => {
  it('refuses a return URL off the store’s origin', async () => {
    const error = await pay('4242424242424242', { returnUrl: 'https://evil.example/' }).catch(
      (caught: unknown) => caught,
    );
    expect((error as ValidationError).errors).toHaveProperty('returnUrl');
  });

  it('answers a retry with the same idempotency key with the same payment, once', async () => {
    const same = { idempotencyKey: 'same-key', orderId: 'order-idem', returnUrl: `${STORE_ORIGIN}/` };
    const first = await pay('4242424242424242', same);
    const second = await pay('4242424242424242', same);
    expect(second.providerPaymentId).toBe(first.providerPaymentId);
    expect(await provider.listPayments('order-idem')).toHaveLength(1);
    await expect(pay('4242424242424242', { ...same, amountMinor: 1 })).rejects.toThrow(/different request/);
  });

  it('refuses a call without the merchant’s key', async () => {
    const response = await sandbox.app.inject({
      method: 'GET',
      url: '/sandbox/api/v1/payments?order_id=order-1',
      headers: { authorization: 'Bearer wrong-key-wrong-key' },
    });
    expect(response.statusCode).toBe(401);
  });

  it('keeps nothing of a card but brand and last four, and logs none of it', async () => {
    const result = await pay('5555555555554444');
    const response = await sandbox.app.inject({
      method: 'GET',
      url: `/sandbox/api/v1/payments/${result.providerPaymentId}`,
      headers: { authorization: `Bearer ${API_KEY}` },
    });
    expect(response.json().card).toEqual({ brand: 'mastercard', last4: '4444' });
    expect(response.body).not.toContain('555555555555');
    await receiver.waitFor(1);
    const everything = [...sandbox.logs, ...receiver.received.map((callback) => callback.body)].join('\n');
    expect(everything.length).toBeGreaterThan(0);
    for (const number of ['5555555555554444', '4242424242424242', '4000000000000002']) {
      expect(everything).not.toContain(number);
    }
  });
});
