import { randomBytes } from 'node:crypto';
import { ErrorKeys } from '@store/contract';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { CallbackVerificationError, PaymentProviderUnavailableError } from './provider.ts';
import { buildWidgetRequest, createSandboxPaymentProvider } from './sandbox-provider.ts';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
const current = secret();
const previous = secret();

const provider = (fetchImpl?: typeof fetch) =>
  createSandboxPaymentProvider({
    apiUrl: 'http://sandbox.test/sandbox/',
    publicUrl: 'http://localhost:3000/sandbox',
    apiKey: 'sk_test_key_0123456789',
    webhookSecrets: [current, previous],
    callbackUrl: 'http://127.0.0.1:3000/api/payments/callback',
    fetch: fetchImpl,
  });

const payment = {
  id: 'pay_1',
  order_id: 'order-1',
  method: 'card',
  status: 'succeeded',
  amount_minor: 15_000,
  currency: 'RUB',
  refunded_minor: 0,
  failure_reason: null,
  card: { brand: 'visa', last4: '4242' },
  version: 2,
  created_at: '2026-11-23T12:00:00.000Z',
  updated_at: '2026-11-23T12:00:01.000Z',
};
const body = JSON.stringify({ type: 'payment.succeeded', timestamp: '2026-11-23T12:00:01.000Z', data: payment });

function signed(withSecret: string, at = new Date(), id = 'evt_1', raw = body) {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(withSecret).sign(id, at, raw),
  };
}

describe('sandbox provider: verifyCallback', () => {
  it('accepts a callback signed with any configured secret and parses it', () => {
    for (const used of [current, previous]) {
      const event = provider().verifyCallback(Buffer.from(body), signed(used));
      expect(event).toMatchObject({
        provider: 'sandbox',
        eventId: 'evt_1',
        type: 'payment.succeeded',
        providerPaymentId: 'pay_1',
        orderId: 'order-1',
        amountMinor: 15_000,
        currency: 'RUB',
        status: 'succeeded',
        card: { brand: 'visa', last4: '4242' },
        version: 2,
      });
    }
  });

  it('accepts a header with several signatures when one of them is right (rotation)', () => {
    const headers = signed(current);
    const foreign = new Webhook(secret()).sign('evt_1', new Date(), body);
    headers['webhook-signature'] = `${foreign} ${headers['webhook-signature']}`;
    expect(provider().verifyCallback(body, headers).eventId).toBe('evt_1');
  });

  it('refuses a changed byte, a wrong secret, a stale or future timestamp and missing headers', () => {
    const reason = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof CallbackVerificationError ? error.reason : 'other';
      }
      return 'accepted';
    };
    const tampered = body.replace('15000', '15001');
    expect(reason(() => provider().verifyCallback(tampered, signed(current)))).toBe('bad_signature');
    expect(reason(() => provider().verifyCallback(body, signed(secret())))).toBe('bad_signature');
    const stale = new Date(Date.now() - 6 * 60_000);
    expect(reason(() => provider().verifyCallback(body, signed(current, stale)))).toBe('stale_timestamp');
    const future = new Date(Date.now() + 6 * 60_000);
    expect(reason(() => provider().verifyCallback(body, signed(current, future)))).toBe('stale_timestamp');
    const { 'webhook-signature': _, ...unsigned } = signed(current);
    expect(reason(() => provider().verifyCallback(body, unsigned))).toBe('missing_headers');
    // The id is signed too: the same body under another event id is not the same callback.
    const moved = { ...signed(current), 'webhook-id': 'evt_2' };
    expect(reason(() => provider().verifyCallback(body, moved))).toBe('bad_signature');
  });

  it('parses a chargeback: its type and what the bank took back', () => {
    const data = { ...payment, status: 'refunded', refunded_minor: 5_000, charged_back_minor: 10_000, version: 4 };
    const raw = JSON.stringify({ type: 'payment.charged_back', timestamp: '2026-11-24T09:00:00.000Z', data });
    expect(provider().verifyCallback(raw, signed(current, new Date(), 'evt_cb', raw))).toMatchObject({
      eventId: 'evt_cb',
      type: 'payment.charged_back',
      status: 'refunded',
      amountMinor: 15_000,
      refundedMinor: 5_000,
      chargedBackMinor: 10_000,
      version: 4,
    });
    // A body from before chargebacks has none.
    expect(provider().verifyCallback(Buffer.from(body), signed(current)).chargedBackMinor).toBe(0);
  });

  it('checks the bytes as sent, as the library signs them, and refuses signatures of another version or shape', () => {
    const accented = JSON.stringify({ ...JSON.parse(body), note: 'cartão válido' });
    expect(
      provider().verifyCallback(Buffer.from(accented), signed(current, new Date(), 'evt_é', accented)).eventId,
    ).toBe('evt_é');
    const right = signed(current)['webhook-signature'];
    const reason = (signature: string) => {
      try {
        provider().verifyCallback(body, { ...signed(current), 'webhook-signature': signature });
      } catch (error) {
        return error instanceof CallbackVerificationError ? error.reason : 'other';
      }
      return 'accepted';
    };
    for (const signature of [right.replace('v1,', 'v2,'), 'v1,', 'v1', right.slice(0, -4), `${right}AAAA`, '']) {
      expect(reason(signature)).toBe(signature === '' ? 'missing_headers' : 'bad_signature');
    }
  });

  it('will not start on a secret with no key: anyone could sign with it', () => {
    expect(() =>
      createSandboxPaymentProvider({
        apiUrl: 'http://sandbox.test/sandbox/',
        publicUrl: 'http://localhost:3000/sandbox',
        apiKey: 'sk_test_key_0123456789',
        webhookSecrets: ['whsec_'],
        callbackUrl: 'http://127.0.0.1:3000/api/payments/callback',
      }),
    ).toThrow(/no key/);
  });

  it('refuses a correctly signed body that is not a payment event', () => {
    const raw = JSON.stringify({ type: 'payment.succeeded', data: { id: 'pay_1' } });
    expect(() => provider().verifyCallback(raw, signed(current, new Date(), 'evt_3', raw))).toThrow(
      CallbackVerificationError,
    );
  });
});

const respond = (status: number, json: unknown) => async () =>
  new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });

const card = {
  method: 'card' as const,
  orderId: 'order-1',
  amountMinor: 15_000,
  currency: 'RUB',
  description: 'Steam 100',
  card: { number: '4242424242424241', expMonth: 12, expYear: 2030, cvc: '123' },
  browser: { ip: '203.0.113.7' },
  returnUrl: 'http://localhost:3000/?paymentConfirmOrder=order-1',
  idempotencyKey: 'attempt-1',
};

describe('sandbox provider: calls', () => {
  it('sends the card with the API key, the idempotency key and the callback URL', async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const fake: typeof fetch = async (url, init) => {
      calls.push({ url: String(url), init: init ?? {} });
      return respond(201, { payment, next_action: null })();
    };
    const result = await provider(fake).createPayment(card);
    expect(result).toEqual({
      kind: 'card',
      providerPaymentId: 'pay_1',
      card: { brand: 'visa', last4: '4242' },
      outcome: { status: 'success' },
    });
    const [call] = calls;
    expect(call?.url).toBe('http://sandbox.test/sandbox/api/v1/payments');
    const headers = call?.init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer sk_test_key_0123456789');
    expect(headers['idempotency-key']).toBe('attempt-1');
    expect(JSON.parse(String(call?.init.body))).toMatchObject({
      method: 'card',
      callback_url: 'http://127.0.0.1:3000/api/payments/callback',
      card: { number: '4242424242424241', exp_month: 12, exp_year: 2030, cvc: '123' },
    });
  });

  it('sends the order’s expiry with a QR and a UPI payment, and nothing when there is none', async () => {
    const bodies: Array<Record<string, unknown>> = [];
    const fake: typeof fetch = async (_url, init) => {
      const sent = JSON.parse(String(init?.body));
      bodies.push(sent);
      const next =
        sent.method === 'qr'
          ? {
              type: 'qr',
              image: { media_type: 'image/png', content: 'iVBORw0KGgo=' },
              payload: 'http://localhost:3000/sandbox/qr/pay_1',
              pay_link: 'http://localhost:3000/sandbox/qr/pay_1',
              expires_at: '2026-11-23T12:10:00.000Z',
            }
          : { type: 'redirect', url: 'http://localhost:3000/sandbox/upi/pay_1', intent: 'upi://pay?pa=x' };
      return respond(201, { payment: { ...payment, method: sent.method, status: 'init' }, next_action: next })();
    };
    const expiresAt = new Date('2026-11-23T12:10:00.000Z');
    const base = { orderId: 'order-1', amountMinor: 15_000, description: 'Steam 100', idempotencyKey: 'attempt-1' };
    const qr = await provider(fake).createPayment({ ...base, method: 'qr', scheme: 'sbp', currency: 'RUB', expiresAt });
    expect(qr.expiresAt).toEqual(expiresAt);
    const upi = {
      ...base,
      method: 'upi' as const,
      currency: 'INR',
      customer: {
        firstName: 'Asha',
        accountNumber: 'asha@okbank',
        email: 'asha@example.com',
        phone: '+91 98765 43210',
        zip: '560001',
        address: '1 MG Road',
      },
      successUrl: 'http://localhost:3000/?ok',
      declineUrl: 'http://localhost:3000/?no',
      cancelUrl: 'http://localhost:3000/',
    };
    await provider(fake).createPayment({ ...upi, expiresAt });
    await provider(fake).createPayment(upi);
    expect(bodies.map((sent) => sent.expires_at)).toEqual([
      '2026-11-23T12:10:00.000Z',
      '2026-11-23T12:10:00.000Z',
      undefined,
    ]);
    expect(bodies[2]).not.toHaveProperty('expires_at');
  });

  it('reads what was charged back of a payment', async () => {
    const read = respond(200, { ...payment, status: 'refunded', charged_back_minor: 15_000, version: 3 });
    expect(await provider(read).getPayment('pay_1')).toMatchObject({
      status: 'refunded',
      refundedMinor: 0,
      chargedBackMinor: 15_000,
    });
    expect((await provider(respond(200, payment)).getPayment('pay_1')).chargedBackMinor).toBe(0);
  });

  it('turns a 422 into a ValidationError on the port’s field names', async () => {
    const refusal = respond(422, {
      message: 'invalid',
      errors: { 'card.number': ['luhn'], success_url: ['required'], expires_at: ['too_soon'] },
    });
    const error = await provider(refusal)
      .createPayment(card)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual({
      'card.number': [ErrorKeys.invalidValue],
      successUrl: [ErrorKeys.requiredField],
      expiresAt: [ErrorKeys.invalidValue],
    });
  });

  it('turns 404 and 409 into NotFoundError and ConflictError', async () => {
    await expect(provider(respond(404, { message: 'No such payment.' })).getPayment('pay_x')).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(
      provider(respond(409, { message: 'no' })).refund({
        providerPaymentId: 'pay_1',
        amountMinor: 1,
        idempotencyKey: 'r',
      }),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it('says the provider is unavailable on a 5xx, a network error or an unknown answer, without the card', async () => {
    const failures: Array<typeof fetch> = [
      respond(503, { message: 'down' }),
      async () => {
        throw new TypeError('fetch failed');
      },
      respond(201, { unexpected: true }),
    ];
    for (const failing of failures) {
      const error = await provider(failing)
        .createPayment(card)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PaymentProviderUnavailableError);
      expect(String((error as Error).message)).not.toContain('4242424242424241');
    }
  });

  it('maps 3DS and 3DS_REDIRECT answers to the own card form’s answer fields', async () => {
    const pending = { ...payment, status: 'pending' };
    const threeDs = respond(201, {
      payment: pending,
      next_action: {
        type: '3ds',
        acs_url: 'http://localhost:3000/sandbox/3ds/acs',
        pa_req: 'PAREQ',
        md: 'pay_1',
        term_url: 'http://localhost:3000/sandbox/3ds/term',
      },
    });
    expect((await provider(threeDs).createPayment(card)).outcome).toEqual({
      status: '3DS',
      redirectUrl: 'http://localhost:3000/sandbox/3ds/acs',
      PaReq: 'PAREQ',
      MD: 'pay_1',
      TermUrl: 'http://localhost:3000/sandbox/3ds/term',
    });
    const redirect = respond(201, {
      payment: pending,
      next_action: {
        type: '3ds_redirect',
        method: 'GET',
        url: 'http://localhost:3000/sandbox/3ds/challenge',
        params: { payment_id: 'pay_1', token: 't' },
      },
    });
    expect((await provider(redirect).createPayment(card)).outcome).toEqual({
      status: '3DS_REDIRECT',
      redirectMethod: 'GET',
      redirectUrl: 'http://localhost:3000/sandbox/3ds/challenge',
      redirectParams: { payment_id: 'pay_1', token: 't' },
    });
  });
});

describe('buildWidgetRequest', () => {
  it('builds the widget request with decimal sums and one payment of the total', () => {
    const request = buildWidgetRequest({
      method: 'widget',
      orderId: 'order-1',
      amountMinor: 25_050,
      currency: 'RUB',
      description: 'Digital goods',
      customerEmail: 'ana@example.com',
      items: [
        { name: 'Steam 100', unitPriceMinor: 10_000, quantity: 2 },
        { name: 'Netflix 50', unitPriceMinor: 5_050, quantity: 1 },
      ],
    });
    expect(request).toEqual({
      order_id: 'order-1',
      amount: '250.50',
      currency: 'RUB',
      description: 'Digital goods',
      receipt: {
        email: 'ana@example.com',
        items: [
          {
            name: 'Steam 100',
            price: '100.00',
            quantity: 2,
            sum: '200.00',
            payment_method: 'full_prepayment',
            payment_object: 'service',
            vat: 'none',
          },
          {
            name: 'Netflix 50',
            price: '50.50',
            quantity: 1,
            sum: '50.50',
            payment_method: 'full_prepayment',
            payment_object: 'service',
            vat: 'none',
          },
        ],
        payments: [{ type: 'electronic', sum: '250.50' }],
      },
    });
  });
});
