import { buildWidgetRequest } from '@store/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEY,
  buildSandbox,
  firstForm,
  form,
  heading,
  htmlLang,
  pathOf,
  type Receiver,
  STORE_ORIGIN,
  startReceiver,
  type TestSandbox,
} from './test-support.ts';

let sandbox: TestSandbox;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  sandbox = await buildSandbox({ widgetCallbackUrl: receiver.url });
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

/** The request the store builds (packages/core), as its page hands it to the widget. */
const widgetRequest = (orderId = 'order-w1') =>
  buildWidgetRequest({
    method: 'widget',
    orderId,
    amountMinor: 25_050,
    currency: 'RUB',
    description: 'Digital goods',
    customerEmail: 'ana@example.com',
    items: [
      { name: 'Steam 100', unitPriceMinor: 10_000, quantity: 2 },
      { name: 'Netflix 50', unitPriceMinor: 5_050, quantity: 1 },
    ],
  });

const openSession = (body: unknown, origin: string | null = STORE_ORIGIN) =>
  sandbox.app.inject({
    method: 'POST',
    url: '/sandbox/widget/sessions',
    headers: origin ? { origin } : {},
    payload: body as object,
  });

async function frameFor(orderId: string) {
  const session = await openSession(widgetRequest(orderId));
  expect(session.statusCode).toBe(201);
  return { id: session.json().session_id as string, url: session.json().frame_url as string };
}

const payInFrame = (frameUrl: string, cardNumber: string) =>
  sandbox.app.inject({
    method: 'POST',
    url: pathOf(frameUrl),
    ...form({ card_number: cardNumber, expiry: '12/39', cvc: '123' }),
  });

/** The message the result page posts to the page that opened the widget, and to which origin. */
function postedMessage(html: string): { message: Record<string, string>; origin: string } {
  const match = /window\.parent\.postMessage\((\{.*?\}), ("[^"]*")\);/.exec(html);
  if (!match) throw new Error('the page posts no message');
  return { message: JSON.parse(match[1] ?? '{}'), origin: JSON.parse(match[2] ?? '""') };
}

describe('widget: the script', () => {
  it('is served as JavaScript that any origin may load', async () => {
    const response = await sandbox.app.inject({ method: 'GET', url: '/sandbox/widget.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/javascript');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(response.body).toContain('window.SandboxPay');
    expect(response.body).toContain('PAY_WIDGET:CLOSE_AFTER_FAIL');
  });
});

describe('widget: the request', () => {
  it('opens a session for the store’s origin, with CORS for it only', async () => {
    const response = await openSession(widgetRequest());
    expect(response.statusCode).toBe(201);
    expect(response.headers['access-control-allow-origin']).toBe(STORE_ORIGIN);
    expect(response.json().frame_url).toMatch(/^http:\/\/sandbox\.test\/sandbox\/widget\/frame\/ws_[0-9a-f]{24}$/);

    const preflight = await sandbox.app.inject({
      method: 'OPTIONS',
      url: '/sandbox/widget/sessions',
      headers: { origin: STORE_ORIGIN, 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type');
  });

  it('refuses any other origin, and a request without one', async () => {
    expect((await openSession(widgetRequest(), 'https://evil.example')).statusCode).toBe(403);
    expect((await openSession(widgetRequest(), null)).statusCode).toBe(403);
  });

  it('refuses items whose sum is not price times quantity', async () => {
    const request = widgetRequest();
    const [first] = request.receipt.items;
    if (first) first.sum = '150.00';
    const response = await openSession(request);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toMatchObject({
      'receipt.items.0.sum': ['sum_mismatch'],
      'receipt.items': ['total_mismatch'],
    });
  });

  it('refuses items that do not add up to the total, and a payment that is not the total', async () => {
    const short = widgetRequest();
    short.amount = '300.00';
    const response = await openSession(short);
    expect(response.json().errors).toMatchObject({
      'receipt.items': ['total_mismatch'],
      'receipt.payments.0.sum': ['total_mismatch'],
    });
    const split = widgetRequest();
    (split.receipt.payments as unknown as unknown[]).push({ type: 'electronic', sum: '0.00' });
    expect((await openSession(split)).statusCode).toBe(422);
  });

  it('refuses a receipt line that is not full prepayment of a service without VAT', async () => {
    for (const [field, value] of [
      ['payment_method', 'partial_prepayment'],
      ['payment_object', 'commodity'],
      ['vat', 'vat20'],
    ] as const) {
      const request = widgetRequest();
      Object.assign(request.receipt.items[0] ?? {}, { [field]: value });
      const response = await openSession(request);
      expect(response.statusCode, field).toBe(422);
      expect(response.json().errors).toHaveProperty([`receipt.items.0.${field}`]);
    }
  });

  it('names missing and malformed fields', async () => {
    const { receipt, ...noReceipt } = widgetRequest();
    expect((await openSession(noReceipt)).json().errors).toEqual({ receipt: ['required'] });
    const response = await openSession({
      ...widgetRequest(),
      currency: 'XXX',
      amount: '1.234',
      receipt: { ...receipt, email: 'nope' },
    });
    expect(response.json().errors).toMatchObject({
      currency: ['invalid'],
      amount: ['invalid'],
      'receipt.email': ['invalid'],
    });
  });
});

describe('widget: the frame', () => {
  it('shows the card form, framable by the store only', async () => {
    const frame = await frameFor('order-w2');
    const page = await sandbox.app.inject({ method: 'GET', url: pathOf(frame.url) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('RUB\u00a0250.50');
    expect(page.body).toContain('autocomplete="cc-number"');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain(`frame-ancestors 'self' ${STORE_ORIGIN}`);
    expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+'/);
    expect(page.headers['x-frame-options']).toBeUndefined();
  });

  it('reports success to the opening page’s origin and calls back the configured URL', async () => {
    const frame = await frameFor('order-w3');
    const result = await payInFrame(frame.url, '4242 4242 4242 4242');
    expect(result.statusCode).toBe(200);
    const { message, origin } = postedMessage(result.body);
    expect(origin).toBe(STORE_ORIGIN);
    expect(message).toMatchObject({
      source: 'sandbox-widget',
      session: frame.id,
      type: 'success',
      orderId: 'order-w3',
    });
    const callbacks = await receiver.waitFor(1);
    const event = callbacks
      .map((callback) => JSON.parse(callback.body))
      .find((body) => body.data.order_id === 'order-w3');
    expect(event).toMatchObject({
      type: 'payment.succeeded',
      data: { id: message.paymentId, method: 'widget', amount_minor: 25_050 },
    });
  });

  it('reports a declined card as a failure, then lets the customer try again', async () => {
    const frame = await frameFor('order-w4');
    const declined = await payInFrame(frame.url, '4000000000009995');
    expect(postedMessage(declined.body).message).toMatchObject({ type: 'fail', reason: 'insufficient_funds' });
    expect(firstFormLink(declined.body)).toBe(frame.url);
    const retried = await payInFrame(frame.url, '4242424242424242');
    expect(postedMessage(retried.body).message.type).toBe('success');
    const list = await sandbox.app.inject({
      method: 'GET',
      url: '/sandbox/api/v1/payments?order_id=order-w4',
      headers: { authorization: `Bearer ${API_KEY}` },
    });
    expect(list.json().payments.map((payment: { status: string }) => payment.status)).toEqual(['succeeded', 'failed']);
  });

  it('runs a 3-D Secure challenge inside the frame', async () => {
    const frame = await frameFor('order-w5');
    const challenge = await payInFrame(frame.url, '4000000000003220');
    expect(challenge.statusCode).toBe(303);
    const page = await sandbox.app.inject({ method: 'GET', url: pathOf(String(challenge.headers.location)) });
    const answer = firstForm(page.body);
    const result = await sandbox.app.inject({
      method: 'POST',
      url: pathOf(answer.action),
      ...form({ ...answer.fields, outcome: 'fail' }),
    });
    expect(postedMessage(result.body).message).toMatchObject({ type: 'fail', reason: '3ds_failed' });
  });

  it('takes the expiry with or without its slash, and refuses a month that is not one', async () => {
    const send = (url: string, expiry: string) =>
      sandbox.app.inject({
        method: 'POST',
        url: pathOf(url),
        ...form({ card_number: '4242424242424242', expiry, cvc: '123' }),
      });
    for (const [orderId, expiry] of [
      ['order-w6', '1239'],
      ['order-w7', '12 / 39'],
    ] as const) {
      const frame = await frameFor(orderId);
      const paid = await send(frame.url, expiry);
      expect(paid.statusCode, expiry).toBe(200);
      expect(postedMessage(paid.body).message.type).toBe('success');
    }
    const frame = await frameFor('order-w8');
    const refused = await send(frame.url, '1339');
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('aria-invalid="true" aria-describedby="expiry-error"');
  });

  it('refuses an unknown session', async () => {
    expect((await sandbox.app.inject({ method: 'GET', url: '/sandbox/widget/frame/ws_nope' })).statusCode).toBe(404);
  });
});

describe('widget: the language', () => {
  const open = async (language: unknown, headers: Record<string, string> = {}) => {
    const response = await sandbox.app.inject({
      method: 'POST',
      url: '/sandbox/widget/sessions',
      headers: { origin: STORE_ORIGIN, ...headers },
      payload: { ...widgetRequest(`order-l${++orders}`), ...(language === undefined ? {} : { language }) },
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { frame_url: string; language: string; texts: { dialog: string; close: string } };
  };
  let orders = 0;
  const frame = (url: string, headers: Record<string, string> = {}) =>
    sandbox.app.inject({ method: 'GET', url: pathOf(url), headers });

  it('opens the frame in the request’s language, with no English left in the card form', async () => {
    const session = await open('pt-BR');
    expect(session.language).toBe('pt-BR');
    expect(session.texts).toEqual({ dialog: 'Pagamento com cartão', close: 'Fechar' });
    const page = await frame(session.frame_url);
    expect(htmlLang(page.body)).toBe('pt-BR');
    expect(page.headers['content-language']).toBe('pt-BR');
    for (const text of [
      'Pagamento com cartão',
      'Número do cartão',
      'Validade (MM/AA)',
      'Pagar RUB\u00a0250,50',
      'Cartões de teste',
      'SANDBOX · MODO DE TESTE',
      '<title>Pagamento com cartão · Pagamentos sandbox</title>',
    ]) {
      expect(page.body).toContain(text);
    }
    for (const english of ['Card number', 'Expiry', 'Pay', 'Test cards', 'TEST MODE', 'Sandbox payments', '250.50']) {
      expect(page.body).not.toContain(english);
    }
  });

  it('takes pt and any case, and ignores a language it does not speak', async () => {
    expect((await open('pt')).language).toBe('pt-BR');
    expect((await open('RU')).language).toBe('ru');
    for (const unknown of ['de', 'pt-PT', 'klingon', 42, null]) {
      const session = await open(unknown, { 'accept-language': 'hi-IN' });
      expect(session.language, String(unknown)).toBe('hi');
      expect(htmlLang((await frame(session.frame_url, { 'accept-language': 'hi-IN' })).body)).toBe('hi');
    }
  });

  it('prefers the request’s language to lang, and lang to Accept-Language', async () => {
    const withField = await open('ru');
    const ru = await frame(`${withField.frame_url}?lang=hi`, { 'accept-language': 'pt-BR' });
    expect(htmlLang(ru.body)).toBe('ru');
    expect(ru.body).toContain('Номер карты');

    const withoutField = await open(undefined);
    const hi = await frame(`${withoutField.frame_url}?lang=hi`, { 'accept-language': 'pt-BR' });
    expect(htmlLang(hi.body)).toBe('hi');
    expect(hi.body).toContain('कार्ड नंबर');
    // The form keeps the language it was asked for when sent back refused.
    const action = firstForm(hi.body).action;
    expect(new URL(action).searchParams.get('lang')).toBe('hi');
    const refused = await sandbox.app.inject({
      method: 'POST',
      url: pathOf(action),
      ...form({ card_number: '4242', expiry: '12/39', cvc: '123' }),
    });
    expect(refused.statusCode).toBe(422);
    expect(htmlLang(refused.body)).toBe('hi');
    expect(refused.body).toContain('मान्य कार्ड नंबर दर्ज करें।');

    const pt = await frame(withoutField.frame_url, { 'accept-language': 'de-DE, pt-PT;q=0.8, en;q=0.5' });
    expect(htmlLang(pt.body)).toBe('pt-BR');
    const english = await frame(withoutField.frame_url, { 'accept-language': 'de-DE, fr;q=0.8' });
    expect(htmlLang(english.body)).toBe('en');
    expect(english.body).toContain('Card number');
  });

  it('keeps the request’s language through 3-D Secure to the result', async () => {
    const session = await open('pt-BR');
    const challenge = await payInFrame(session.frame_url, '4000000000003220');
    const check = await frame(String(challenge.headers.location), { 'accept-language': 'en' });
    expect(htmlLang(check.body)).toBe('pt-BR');
    expect(heading(check.body)).toBe('Verificação 3-D Secure');
    const answer = firstForm(check.body);
    const result = await sandbox.app.inject({
      method: 'POST',
      url: pathOf(answer.action),
      ...form({ ...answer.fields, outcome: 'pass' }, { 'accept-language': 'en' }),
    });
    expect(htmlLang(result.body)).toBe('pt-BR');
    expect(heading(result.body)).toBe('Pagamento aprovado');
    expect(postedMessage(result.body).message.type).toBe('success');
  });

  it('shows a declined card’s reason and the retry in the frame’s language', async () => {
    const session = await open('ru');
    const declined = await payInFrame(session.frame_url, '4000000000000002');
    expect(heading(declined.body)).toBe('Оплата не прошла');
    expect(declined.body).toContain('Карта отклонена.');
    expect(declined.body).toContain('>Попробовать снова</a>');
    expect(postedMessage(declined.body).message).toMatchObject({ type: 'fail', reason: 'card_declined' });
  });
});

function firstFormLink(html: string): string | undefined {
  return /<a class="button" href="([^"]+)">Try again<\/a>/.exec(html)?.[1];
}
