import { type PaymentProvider, type UpiPaymentRequest, ValidationError } from '@store/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MERCHANT } from './options.ts';
import {
  buildSandbox,
  createViaApi,
  form,
  heading,
  htmlLang,
  PUBLIC_URL,
  pathOf,
  STORE_ORIGIN,
  startSandboxWithProvider,
  type TestSandbox,
} from './test-support.ts';

let sandbox: TestSandbox;
let provider: PaymentProvider;
let key = 0;

let close: () => Promise<void>;

beforeAll(async () => {
  ({ sandbox, provider, close } = await startSandboxWithProvider());
});

afterAll(() => close());

const urls = {
  successUrl: `${STORE_ORIGIN}/?showModal=success`,
  declineUrl: `${STORE_ORIGIN}/?showModal=error`,
  cancelUrl: `${STORE_ORIGIN}/checkout`,
};

const createUpi = (overrides: Partial<UpiPaymentRequest> = {}) =>
  provider.createPayment({
    method: 'upi',
    orderId: `order-u${++key}`,
    amountMinor: 49_900,
    currency: 'INR',
    description: 'Google Play 500',
    customer: {
      firstName: 'Asha',
      accountNumber: 'asha@okbank',
      email: 'asha@example.com',
      phone: '+91 98765 43210',
      zip: '560001',
      address: '1 MG Road, Bengaluru',
    },
    ...urls,
    idempotencyKey: `upi-${key}`,
    ...overrides,
  });

describe('UPI: the order', () => {
  it('answers the sandbox page and a upi://pay intent for the amount', async () => {
    const upi = await createUpi();
    expect(upi.kind).toBe('redirect');
    expect(upi.redirectUrl).toBe(`${PUBLIC_URL}/upi/${upi.providerPaymentId}`);
    const intent = new URL(upi.intent);
    expect(intent.protocol).toBe('upi:');
    expect(Object.fromEntries(intent.searchParams)).toEqual({
      pa: DEFAULT_MERCHANT.upiVpa,
      pn: DEFAULT_MERCHANT.name,
      am: '499.00',
      cu: 'INR',
      tn: 'Google Play 500',
      tr: upi.providerPaymentId,
    });
    const page = await sandbox.app.inject({ method: 'GET', url: pathOf(upi.redirectUrl) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('href="upi://pay?pa=giftstore%40sandbox&amp;');
    expect(page.body).toMatch(/<img class="qr" [^>]*src="data:image\/png;base64,/);
  });

  for (const [decision, url, status] of [
    ['pay', urls.successUrl, 'succeeded'],
    ['decline', urls.declineUrl, 'failed'],
    ['cancel', urls.cancelUrl, 'failed'],
  ] as const) {
    it(`${decision} sends the browser to its URL`, async () => {
      const upi = await createUpi();
      const answer = await sandbox.app.inject({ method: 'POST', url: pathOf(upi.redirectUrl), ...form({ decision }) });
      expect(answer.statusCode).toBe(303);
      expect(answer.headers.location).toBe(url);
      expect((await provider.getPayment(upi.providerPaymentId)).status).toBe(status);
      // Opened again later, the page sends the browser to the same place.
      const later = await sandbox.app.inject({ method: 'GET', url: pathOf(upi.redirectUrl) });
      expect(later.headers.location).toBe(url);
    });
  }
});

describe('UPI: no open redirect', () => {
  const foreign = [
    'https://evil.example/',
    '//evil.example/path',
    `${STORE_ORIGIN}@evil.example/`,
    `https://store.test.evil.example/`,
    'http://evil.example\\@store.test/',
    'javascript:alert(1)',
    `${STORE_ORIGIN.replace('http:', 'https:')}/`,
    'http://store.test:8080/',
    '/relative/path',
    `http://user:pass@store.test/`,
    'data:text/html,hi',
  ];

  for (const field of ['successUrl', 'declineUrl', 'cancelUrl'] as const) {
    it(`refuses a ${field} off the store's origin`, async () => {
      for (const url of foreign) {
        const error = await createUpi({ [field]: url }).catch((caught: unknown) => caught);
        expect(error, url).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).errors, url).toHaveProperty(field);
      }
    });
  }

  it('sends the browser only to the stored URL, whatever the form says', async () => {
    const upi = await createUpi();
    const answer = await sandbox.app.inject({
      method: 'POST',
      url: pathOf(upi.redirectUrl),
      ...form({ decision: 'pay', success_url: 'https://evil.example/' }),
    });
    expect(answer.headers.location).toBe(urls.successUrl);
  });

  it('refuses a decision that is none of pay, decline or cancel', async () => {
    const upi = await createUpi();
    const answer = await sandbox.app.inject({
      method: 'POST',
      url: pathOf(upi.redirectUrl),
      ...form({ decision: 'steal' }),
    });
    expect(answer.statusCode).toBe(422);
    expect((await provider.getPayment(upi.providerPaymentId)).status).toBe('init');
  });
});

const upiBody = (extra: Record<string, unknown> = {}) => ({
  method: 'upi',
  order_id: `order-u${++key}`,
  amount_minor: 49_900,
  currency: 'INR',
  description: 'Google Play 500',
  callback_url: 'http://127.0.0.1:9/cb',
  customer: {
    first_name: 'Asha',
    account_number: 'asha@okbank',
    email: 'asha@example.com',
    phone: '+91 98765 43210',
    zip: '560001',
    address: '1 MG Road, Bengaluru',
  },
  success_url: urls.successUrl,
  decline_url: urls.declineUrl,
  cancel_url: urls.cancelUrl,
  ...extra,
});

describe('UPI: the order’s expiry', () => {
  it('refuses an expires_at under 30 seconds ahead', async () => {
    const error = await createUpi({ expiresAt: new Date(Date.now() + 5_000) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toHaveProperty('expiresAt');
  });

  it('the page refuses to pay once it has passed, and sends the browser to the decline URL', async () => {
    let now = Date.now();
    const timed = await buildSandbox({ clock: () => new Date(now) });
    try {
      const created = await createViaApi(timed, upiBody({ expires_at: new Date(now + 45_000).toISOString() }));
      expect(created.statusCode).toBe(201);
      const page = pathOf(created.json().next_action.url);
      now += 44_999;
      expect((await timed.app.inject({ method: 'GET', url: page })).statusCode).toBe(200);
      now += 1;
      const paid = await timed.app.inject({ method: 'POST', url: page, ...form({ decision: 'pay' }) });
      expect(paid.statusCode).toBe(303);
      expect(paid.headers.location).toBe(urls.declineUrl);
      const read = await timed.app.inject({
        method: 'GET',
        url: `/sandbox/api/v1/payments/${created.json().payment.id}`,
        headers: { authorization: `Bearer ${timed.options.apiKey}` },
      });
      expect(read.json()).toMatchObject({ status: 'failed', failure_reason: 'expired' });
    } finally {
      await timed.close();
    }
  });
});

describe('UPI: the language', () => {
  const createUpiViaApi = (extra: Record<string, unknown> = {}) => createViaApi(sandbox, upiBody(extra));

  it('shows the UPI page in the payment’s language', async () => {
    const created = await createUpiViaApi({ language: 'HI' });
    expect(created.statusCode).toBe(201);
    const page = await sandbox.app.inject({
      method: 'GET',
      url: `${pathOf(created.json().next_action.url)}?lang=en`,
      headers: { 'accept-language': 'en' },
    });
    expect(htmlLang(page.body)).toBe('hi');
    expect(heading(page.body)).toBe('UPI से भुगतान करें');
    for (const text of ['₹499.00', 'UPI ऐप खोलें', '>भुगतान करें</button>', '>रद्द करें</button>']) {
      expect(page.body).toContain(text);
    }
    for (const english of ['Pay with UPI', 'Open a UPI app', 'Decline', 'Cancel']) {
      expect(page.body).not.toContain(english);
    }
  });

  it('without one, takes lang, then Accept-Language, then English', async () => {
    const url = pathOf((await createUpiViaApi()).json().next_action.url);
    const get = (path: string, headers: Record<string, string> = {}) =>
      sandbox.app.inject({ method: 'GET', url: path, headers });
    expect(htmlLang((await get(`${url}?lang=pt`, { 'accept-language': 'hi' })).body)).toBe('pt-BR');
    expect(htmlLang((await get(url, { 'accept-language': 'hi-IN, en;q=0.9' })).body)).toBe('hi');
    expect(htmlLang((await get(url)).body)).toBe('en');
  });

  it('ignores a language it does not speak', async () => {
    expect((await createUpiViaApi({ language: 'ta-IN' })).statusCode).toBe(201);
  });
});
