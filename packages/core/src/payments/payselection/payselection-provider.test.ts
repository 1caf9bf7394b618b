import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../shared/errors.ts';
import {
  CallbackVerificationError,
  type CardPaymentRequest,
  PaymentProviderUnavailableError,
  type PayselectionWidgetPayment,
  type QrPaymentRequest,
} from '../provider.ts';
import { PAYSELECTION_FAKE_CARDS, type PayselectionFake, startPayselectionFake } from './payselection-fake.ts';
import { createPayselectionHarness } from './payselection-harness.ts';
import {
  createPayselectionProvider,
  PAYSELECTION_METHODS,
  type PayselectionPaymentProvider,
  requestIdFor,
} from './payselection-provider.ts';

const SITE_ID = '31337';
const SECRET = 'sk-fake-7f3a9c1e';
const CALLBACK_URL = 'https://store.test/api/payments/callback/payselection';

/** The documented strings, signed here with node:crypto directly, independently of the adapter. */
const hmacHex = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');
const webhookHeaders = (body: string, key: string, siteId = SITE_ID, url = CALLBACK_URL) => ({
  'x-site-id': siteId,
  'x-webhook-signature': hmacHex(key, `POST\n${url}\n${siteId}\n${body}`),
});

let fake: PayselectionFake;
let provider: PayselectionPaymentProvider;
const sentRequests: Array<{ url: string; method: string; headers: Record<string, string>; body: string }> = [];

function adapter(overrides: Partial<Parameters<typeof createPayselectionProvider>[0]> = {}) {
  return createPayselectionProvider({
    siteId: SITE_ID,
    secretKey: SECRET,
    publicKey: 'pk-widget',
    apiUrl: fake.url,
    callbackUrl: CALLBACK_URL,
    timeoutMs: 500,
    ...overrides,
  });
}

let orderSeq = 0;
const newOrder = () => `order-${Date.now()}-${++orderSeq}`;

function cardRequest(number: string, orderId = newOrder()): CardPaymentRequest {
  return {
    method: 'card',
    orderId,
    amountMinor: 15_050,
    currency: 'RUB',
    description: 'Steam 500',
    language: 'ru',
    card: { number, expMonth: 3, expYear: 2031, cvc: '321' },
    browser: { ip: '203.0.113.9', screenHeight: 800, screenWidth: 1280, timeZoneOffset: -180, userAgent: 'vitest' },
    returnUrl: `https://store.test/?paymentConfirmOrder=${orderId}`,
    idempotencyKey: `key-${orderId}`,
  };
}

beforeAll(async () => {
  fake = await startPayselectionFake({ siteId: SITE_ID, secretKey: SECRET });
  const recordingFetch: typeof fetch = async (input, init) => {
    sentRequests.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      body: typeof init?.body === 'string' ? init.body : '',
    });
    return fetch(input, init);
  };
  provider = adapter({ fetch: recordingFetch });
});

afterAll(async () => {
  await fake.close();
});

describe('request signatures', () => {
  it('signs "METHOD\\nPATH\\nSITE_ID\\nREQUEST_ID\\nBODY" with the secret key, as the SDKs do', async () => {
    const before = sentRequests.length;
    await provider.createPayment(cardRequest(PAYSELECTION_FAKE_CARDS.success));
    const [pay, status] = sentRequests.slice(before);
    expect(pay?.url).toBe(`${fake.url}/payments/requests/single`);
    expect(pay?.headers['x-site-id']).toBe(SITE_ID);
    const payText = `POST\n/payments/requests/single\n${SITE_ID}\n${pay?.headers['x-request-id']}\n${pay?.body}`;
    expect(pay?.headers['x-request-signature']).toBe(hmacHex(SECRET, payText));
    // A GET signs an empty body.
    const path = new URL(status?.url ?? '').pathname;
    expect(path).toMatch(/^\/transactions\/PS\d+\/extended$/);
    expect(status?.headers['x-request-signature']).toBe(
      hmacHex(SECRET, `GET\n${path}\n${SITE_ID}\n${status?.headers['x-request-id']}\n`),
    );
  });

  it('is refused by the gateway under a wrong key, and the error carries no secret', async () => {
    const refused = fake.refusedSignatures;
    const wrongSecret = 'sk-wrong-0000';
    const error = await adapter({ secretKey: wrongSecret })
      .createPayment(cardRequest(PAYSELECTION_FAKE_CARDS.success))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PaymentProviderUnavailableError);
    expect(fake.refusedSignatures).toBe(refused + 1);
    const told = `${String(error)} ${(error as Error).stack} ${JSON.stringify(error)}`;
    expect(told).not.toContain(wrongSecret);
    expect(told).not.toContain(PAYSELECTION_FAKE_CARDS.success);
  });

  it('turns the idempotency key into a stable X-REQUEST-ID', () => {
    const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(requestIdFor(uuid)).toBe(uuid);
    expect(requestIdFor('key-1')).toBe(requestIdFor('key-1'));
    expect(requestIdFor('key-1')).not.toBe(requestIdFor('key-2'));
    expect(requestIdFor('key-1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe('webhook signatures', () => {
  const body = JSON.stringify({
    Event: 'Payment',
    TransactionId: 'PS00000000000007',
    OrderId: 'order-w',
    Amount: '152.12',
    Currency: 'RUB',
    DateTime: '16.09.2019 16.52.41',
    IsTest: 1,
  });

  it('accepts "POST\\nNOTIFICATION_URL\\nSITE_ID\\nBODY" signed with the secret key', () => {
    const event = provider.verifyCallback(body, webhookHeaders(body, SECRET));
    expect(event).toMatchObject({
      provider: 'payselection',
      eventId: 'payselection:PS00000000000007:Payment',
      type: 'payment.succeeded',
      providerPaymentId: 'PS00000000000007',
      orderId: 'order-w',
      status: 'succeeded',
      amountMinor: 15_212,
      currency: 'RUB',
      refundedMinor: 0,
    });
    expect(event.occurredAt.toISOString()).toBe('2019-09-16T16:52:41.000Z');
    // Headers as Node gives them or as another client spells them.
    expect(() =>
      provider.verifyCallback(body, {
        'X-SITE-ID': SITE_ID,
        'X-WEBHOOK-SIGNATURE': webhookHeaders(body, SECRET)['x-webhook-signature'],
      }),
    ).not.toThrow();
  });

  const rejection = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(CallbackVerificationError);
      return (error as CallbackVerificationError).reason;
    }
    return 'accepted';
  };

  it('refuses a wrong key, a tampered body, another site, another URL and missing headers', () => {
    expect(rejection(() => provider.verifyCallback(body, webhookHeaders(body, 'another-key')))).toBe('bad_signature');
    expect(rejection(() => provider.verifyCallback(body.replace('152.12', '1.00'), webhookHeaders(body, SECRET)))).toBe(
      'bad_signature',
    );
    expect(rejection(() => provider.verifyCallback(body, webhookHeaders(body, SECRET, '99999')))).toBe('bad_signature');
    expect(
      rejection(() => provider.verifyCallback(body, webhookHeaders(body, SECRET, SITE_ID, 'https://evil.test/hook'))),
    ).toBe('bad_signature');
    expect(rejection(() => provider.verifyCallback(body, { 'x-site-id': SITE_ID }))).toBe('missing_headers');
    const notJson = '{"Event":';
    expect(rejection(() => provider.verifyCallback(notJson, webhookHeaders(notJson, SECRET)))).toBe('malformed_body');
    const notEvent = JSON.stringify({ Event: 'Payout', TransactionId: 'PS1' });
    expect(rejection(() => provider.verifyCallback(notEvent, webhookHeaders(notEvent, SECRET)))).toBe('malformed_body');
  });

  it('accepts either secret during a rotation, and no other', () => {
    const rotating = adapter({ webhookSecrets: ['old-secret', 'new-secret'] });
    expect(rejection(() => rotating.verifyCallback(body, webhookHeaders(body, 'old-secret')))).toBe('accepted');
    expect(rejection(() => rotating.verifyCallback(body, webhookHeaders(body, 'new-secret')))).toBe('accepted');
    expect(rejection(() => rotating.verifyCallback(body, webhookHeaders(body, SECRET)))).toBe('bad_signature');
  });
});

describe('the Pay Widget', () => {
  it('answers the widget parameters with the receipt fields, and its payment is found by order', async () => {
    const orderId = newOrder();
    const created = (await provider.createPayment({
      method: 'widget',
      orderId,
      amountMinor: 30_000,
      currency: 'RUB',
      description: 'Top-up',
      language: 'ru',
      customerEmail: 'buyer@example.com',
      items: [
        { name: 'Card A', unitPriceMinor: 10_000, quantity: 2 },
        { name: 'Card B', unitPriceMinor: 10_000, quantity: 1 },
      ],
    })) as PayselectionWidgetPayment;
    expect(created).toMatchObject({
      kind: 'payselection_widget',
      providerPaymentId: null,
      scriptUrl: 'https://widget.payselection.com/lib/pay-widget.js',
      serviceId: SITE_ID,
      key: 'pk-widget',
    });
    expect(created.request.PaymentRequest).toEqual({
      OrderId: orderId,
      Amount: '300.00',
      Currency: 'RUB',
      Description: 'Top-up',
      ExtraData: { WebhookUrl: CALLBACK_URL },
    });
    expect(created.request.CustomerInfo).toMatchObject({ Email: 'buyer@example.com', Language: 'ru' });
    const receipt = created.request.ReceiptData.receipt;
    expect(receipt.items[0]).toEqual({
      name: 'Card A',
      price: 100,
      quantity: 2,
      sum: 200,
      payment_method: 'full_prepayment',
      payment_object: 'service',
      vat: { type: 'none' },
    });
    expect(receipt.payments).toEqual([{ type: 1, sum: 300 }]);
    expect(receipt.total).toBe(300);

    expect(await provider.listPayments(orderId)).toEqual([]);
    const transactionId = fake.submitWidget(created.request, PAYSELECTION_FAKE_CARDS.success);
    const [webhook] = fake.webhooks(transactionId);
    const event = provider.verifyCallback(webhook?.rawBody ?? '', webhook?.headers ?? {});
    expect(event).toMatchObject({ orderId, type: 'payment.succeeded', amountMinor: 30_000, card: { last4: '1111' } });
    const [listed] = await provider.listPayments(orderId);
    expect(listed).toMatchObject({ providerPaymentId: transactionId, status: 'succeeded', version: event.version });
  });

  it('refuses items that do not add up to the amount', async () => {
    const error = await provider
      .createPayment({
        method: 'widget',
        orderId: newOrder(),
        amountMinor: 30_000,
        currency: 'RUB',
        description: 'x',
        customerEmail: 'buyer@example.com',
        items: [{ name: 'Card A', unitPriceMinor: 10_000, quantity: 1 }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toHaveProperty('items');
  });
});

describe('the card form', () => {
  it('charges a card, keeping only its brand and last four, once per idempotency key', async () => {
    const request = cardRequest(PAYSELECTION_FAKE_CARDS.success);
    const created = await provider.createPayment(request);
    expect(created).toMatchObject({
      kind: 'card',
      card: { brand: 'Visa', last4: '1111' },
      outcome: { status: 'success' },
    });
    const again = await provider.createPayment(request);
    expect(again.providerPaymentId).toBe(created.providerPaymentId);
    expect(await provider.listPayments(request.orderId)).toHaveLength(1);
    const payment = await provider.getPayment(created.providerPaymentId);
    expect(payment).toMatchObject({ status: 'succeeded', amountMinor: 15_050, currency: 'RUB', method: 'card' });
    expect(payment.card?.last4).toBe('1111');
  });

  it.each([
    [PAYSELECTION_FAKE_CARDS.declined, 'card_declined'],
    [PAYSELECTION_FAKE_CARDS.insufficientFunds, 'insufficient_funds'],
    [PAYSELECTION_FAKE_CARDS.expired, 'expired_card'],
  ])('answers a decline of %s with its reason %s', async (number, reason) => {
    const created = await provider.createPayment(cardRequest(number));
    expect(created.outcome).toEqual({ status: 'failure', reason });
    const payment = await provider.getPayment(created.providerPaymentId);
    expect(payment).toMatchObject({ status: 'failed', failureReason: reason });
    const [webhook] = fake.webhooks(created.providerPaymentId);
    expect(provider.verifyCallback(webhook?.rawBody ?? '', webhook?.headers ?? {})).toMatchObject({
      type: 'payment.failed',
      failureReason: reason,
    });
  });

  it('answers 3-D Secure 1 as 3DS with PaReq, MD and the store as TermUrl', async () => {
    const request = cardRequest(PAYSELECTION_FAKE_CARDS.threeDs1);
    const created = await provider.createPayment(request);
    expect(created.outcome).toEqual({
      status: '3DS',
      redirectUrl: `${fake.url}/acs`,
      PaReq: `pareq-${created.providerPaymentId}`,
      MD: `md-${created.providerPaymentId}`,
      TermUrl: request.returnUrl,
    });
    expect((await provider.getPayment(created.providerPaymentId)).status).toBe('pending');
    fake.answer3ds(created.providerPaymentId, true);
    expect((await provider.getPayment(created.providerPaymentId)).status).toBe('succeeded');
  });

  it('answers 3-D Secure 2 as 3DS_REDIRECT, and a failed check fails the payment', async () => {
    const created = await provider.createPayment(cardRequest(PAYSELECTION_FAKE_CARDS.threeDs2));
    expect(created.outcome).toEqual({
      status: '3DS_REDIRECT',
      redirectMethod: 'POST',
      redirectUrl: `${fake.url}/3ds2`,
      redirectParams: { TransactionId: created.providerPaymentId, creq: `creq-${created.providerPaymentId}` },
    });
    fake.answer3ds(created.providerPaymentId, false);
    expect(await provider.getPayment(created.providerPaymentId)).toMatchObject({
      status: 'failed',
      failureReason: '3ds_failed',
    });
    const events = fake
      .webhooks(created.providerPaymentId)
      .map((hook) => provider.verifyCallback(hook.rawBody, hook.headers));
    expect(events.map((event) => event.type)).toEqual(['payment.pending', 'payment.failed']);
    expect(events[1]?.version).toBeGreaterThan(events[0]?.version ?? Infinity);
  });

  it('turns the gateway refusing the card into a ValidationError on the card number', async () => {
    const error = await provider.createPayment(cardRequest('4111111111111112')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual({ 'card.number': ['validation.invalidValue'] });
  });
});

describe('SBP', () => {
  const sbp = (orderId = newOrder()): QrPaymentRequest => ({
    method: 'qr',
    scheme: 'sbp',
    orderId,
    amountMinor: 99_900,
    currency: 'RUB',
    description: 'PSN 1000',
    idempotencyKey: `sbp-${orderId}`,
  });

  it('answers the pay link and its QR as a PNG, then follows the customer paying', async () => {
    const created = await provider.createPayment(sbp());
    expect(created.payLink).toMatch(/^https:\/\/qr\.nspk\.ru\/AD10PS\d+\?type=02/);
    expect(created.payload).toBe(created.payLink);
    expect(Buffer.from(created.image.content, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(created.expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(await provider.getPayment(created.providerPaymentId)).toMatchObject({ status: 'init', method: 'qr' });
    fake.paySbp(created.providerPaymentId, true);
    expect((await provider.getPayment(created.providerPaymentId)).status).toBe('succeeded');
  });

  it('reports a refused QR as refused by the payer', async () => {
    const created = await provider.createPayment(sbp());
    fake.paySbp(created.providerPaymentId, false);
    const [webhook] = fake.webhooks(created.providerPaymentId);
    expect(provider.verifyCallback(webhook?.rawBody ?? '', webhook?.headers ?? {})).toMatchObject({
      type: 'payment.failed',
      method: 'qr',
      failureReason: 'refused_by_payer',
    });
  });

  it('refuses Pix, UPI and the hosted page, and says which methods it serves', async () => {
    expect(PAYSELECTION_METHODS).toEqual(['widget', 'card', 'qr']);
    await expect(provider.createPayment({ ...sbp(), scheme: 'pix' })).rejects.toMatchObject({
      errors: { scheme: ['validation.invalidValue'] },
    });
    await expect(
      provider.createPayment({
        method: 'hosted_page',
        orderId: newOrder(),
        amountMinor: 100,
        currency: 'RUB',
        description: 'x',
        customerIp: '203.0.113.1',
        returnUrl: 'https://store.test/',
        idempotencyKey: 'k',
      }),
    ).rejects.toMatchObject({ errors: { method: ['validation.invalidValue'] } });
  });
});

describe('refunds', () => {
  it('refunds part, then the rest, each once under its key, with a refund receipt', async () => {
    const created = await provider.createPayment(cardRequest(PAYSELECTION_FAKE_CARDS.success));
    const id = created.providerPaymentId;
    const before = (await provider.getPayment(id)).version;
    const receipt = { email: 'buyer@example.com', items: [{ name: 'Refund', unitPriceMinor: 5_050, quantity: 1 }] };
    const first = await provider.refund({
      providerPaymentId: id,
      amountMinor: 5_050,
      idempotencyKey: `r1-${id}`,
      receipt,
    });
    expect(first).toMatchObject({ providerPaymentId: id, amountMinor: 5_050, status: 'succeeded' });
    const repeated = await provider.refund({
      providerPaymentId: id,
      amountMinor: 5_050,
      idempotencyKey: `r1-${id}`,
      receipt,
    });
    expect(repeated.refundId).toBe(first.refundId);
    const recorded = fake.refunds.filter((refund) => refund.body.TransactionId === id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.requestId).toBe(requestIdFor(`r1-${id}`));
    expect(recorded[0]?.body).toMatchObject({
      Amount: '50.50',
      Currency: 'RUB',
      WebhookUrl: CALLBACK_URL,
      ReceiptData: {
        receipt: {
          client: { email: 'buyer@example.com' },
          items: [{ name: 'Refund', price: 50.5, quantity: 1, sum: 50.5, payment_method: 'full_prepayment' }],
          payments: [{ type: 1, sum: 50.5 }],
          total: 50.5,
        },
      },
    });
    const partly = await provider.getPayment(id);
    expect(partly).toMatchObject({ status: 'succeeded', refundedMinor: 5_050 });
    expect(partly.version).toBeGreaterThan(before);

    await provider.refund({ providerPaymentId: id, amountMinor: 10_000, idempotencyKey: `r2-${id}` });
    const whole = await provider.getPayment(id);
    expect(whole).toMatchObject({ status: 'refunded', refundedMinor: 15_050 });
    expect(whole.version).toBeGreaterThan(partly.version);

    const events = fake.webhooks(id).map((hook) => provider.verifyCallback(hook.rawBody, hook.headers));
    expect(events.map((event) => [event.type, event.status, event.refundedMinor])).toEqual([
      ['payment.succeeded', 'succeeded', 0],
      ['payment.refunded', 'succeeded', 5_050],
      ['payment.refunded', 'refunded', 15_050],
    ]);
    // Each event its own id, each later one a higher version: an old one replayed is recognisable.
    expect(new Set(events.map((event) => event.eventId)).size).toBe(3);
    expect(events.map((event) => event.version)).toEqual(
      [...events.map((event) => event.version)].sort((a, b) => a - b),
    );
    expect(events[2]?.version).toBe(whole.version);
  });

  it('refuses more than is left, and a payment it does not know', async () => {
    const created = await provider.createPayment(cardRequest(PAYSELECTION_FAKE_CARDS.success));
    await expect(
      provider.refund({
        providerPaymentId: created.providerPaymentId,
        amountMinor: 15_051,
        idempotencyKey: 'too-much',
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(provider.getPayment('PS99999999999999')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('an unreachable gateway', () => {
  it('is PaymentProviderUnavailableError on 5xx, a timeout and a refused connection', async () => {
    const created = await provider.createPayment(cardRequest(PAYSELECTION_FAKE_CARDS.success));
    fake.failNext(503);
    await expect(provider.getPayment(created.providerPaymentId)).rejects.toBeInstanceOf(
      PaymentProviderUnavailableError,
    );
    fake.failNext(500);
    const error = await provider
      .createPayment(cardRequest(PAYSELECTION_FAKE_CARDS.success))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaymentProviderUnavailableError);
    expect(`${String(error)} ${JSON.stringify(error)}`).not.toContain(SECRET);
    fake.delayNext(800);
    await expect(provider.getPayment(created.providerPaymentId)).rejects.toBeInstanceOf(
      PaymentProviderUnavailableError,
    );
    const closed = adapter({ apiUrl: 'http://127.0.0.1:9' });
    const refused = await closed
      .createPayment(cardRequest(PAYSELECTION_FAKE_CARDS.success))
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(PaymentProviderUnavailableError);
    const told = `${String(refused)} ${(refused as Error).stack} ${JSON.stringify(refused)}`;
    expect(told).not.toContain(SECRET);
    expect(told).not.toContain(PAYSELECTION_FAKE_CARDS.success);
  });
});

describe('the contract harness', () => {
  it('creates, completes as the customer and delivers signed callbacks for each method', async () => {
    const harness = await createPayselectionHarness();
    try {
      for (const method of harness.methods) {
        const orderId = newOrder();
        const request = harness.request(method, { orderId, amountMinor: 12_300, threeDs: method === 'card' });
        const created = await harness.provider.createPayment(request);
        const id = await harness.completeAsCustomer(method, created, 'succeed', orderId);
        const callbacks = await harness.callbacks(id);
        const last = callbacks.at(-1);
        expect(last).toBeDefined();
        const event = harness.provider.verifyCallback(last?.rawBody ?? '', last?.headers ?? {});
        expect(event).toMatchObject({ orderId, providerPaymentId: id, status: 'succeeded', amountMinor: 12_300 });
        expect((await harness.provider.getPayment(id)).status).toBe('succeeded');
      }
    } finally {
      await harness.close();
    }
  });
});
