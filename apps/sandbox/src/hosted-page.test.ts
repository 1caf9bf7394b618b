import { encodeHostedPageRequest, type HostedPageRequest } from '@store/core';
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
let token = 0;

beforeAll(async () => {
  receiver = await startReceiver();
  sandbox = await buildSandbox();
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

function request(overrides: Partial<Omit<HostedPageRequest, 'signature'>> = {}) {
  token += 1;
  return {
    token: `attempt-${token}`,
    order_id: `order-${token}`,
    request_date: new Date().toISOString(),
    amount: { value: '150.00', currency: 'RUB' },
    request_ip: '203.0.113.7',
    return_url: `${STORE_ORIGIN}/?paymentConfirmOrder=order-${token}`,
    callback_url: receiver.url,
    ...overrides,
  };
}

/** The store's form post: the hidden field Request, signed by the store's side (packages/core). */
const post = (encoded: string) =>
  sandbox.app.inject({ method: 'POST', url: '/sandbox/hosted', ...form({ Request: encoded }) });

const reencode = (signed: HostedPageRequest) => Buffer.from(JSON.stringify(signed)).toString('base64');
const decode = (encoded: string) => JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as HostedPageRequest;

describe('hosted page: the signed Request', () => {
  it('accepts a request signed with the merchant’s key, takes a test card, returns the browser and calls back', async () => {
    const unsigned = request();
    const opened = await post(encodeHostedPageRequest(unsigned, API_KEY));
    expect(opened.statusCode).toBe(303);
    const page = await sandbox.app.inject({ method: 'GET', url: pathOf(String(opened.headers.location)) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('RUB\u00a0150.00');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    const card = firstForm(page.body);
    const paid = await sandbox.app.inject({
      method: 'POST',
      url: pathOf(card.action),
      ...form({ card_number: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' }),
    });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(unsigned.return_url);

    const [callback] = await receiver.waitFor(1);
    const event = JSON.parse(callback?.body ?? '{}');
    expect(event).toMatchObject({
      type: 'payment.succeeded',
      data: { order_id: unsigned.order_id, method: 'hosted_page', amount_minor: 15_000, currency: 'RUB' },
    });
  });

  it('refuses a tampered field: the amount, the order or the return URL', async () => {
    const signed = decode(encodeHostedPageRequest(request(), API_KEY));
    for (const tampered of [
      { ...signed, amount: { value: '1.00', currency: 'RUB' } },
      { ...signed, order_id: 'someone-elses-order' },
      { ...signed, return_url: `${STORE_ORIGIN}/elsewhere` },
      { ...signed, callback_url: 'http://127.0.0.1:1/attacker' },
    ]) {
      const response = await post(reencode(tampered));
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('signature is not valid');
    }
  });

  it('refuses a request signed with another key', async () => {
    expect((await post(encodeHostedPageRequest(request(), 'not-the-merchant-key'))).statusCode).toBe(403);
  });

  it('refuses what is not a signed request at all', async () => {
    expect((await post('not base64 json')).statusCode).toBe(422);
    const { signature: _, ...unsigned } = decode(encodeHostedPageRequest(request(), API_KEY));
    expect((await post(reencode(unsigned as HostedPageRequest))).statusCode).toBe(422);
    const missing = await sandbox.app.inject({ method: 'POST', url: '/sandbox/hosted', ...form({}) });
    expect(missing.statusCode).toBe(422);
  });

  it('refuses a correctly signed request whose return URL is off the store’s origin, or that is old', async () => {
    const foreign = await post(encodeHostedPageRequest(request({ return_url: 'https://evil.example/' }), API_KEY));
    expect(foreign.statusCode).toBe(422);
    expect(foreign.body).toContain('return_url');
    const old = new Date(Date.now() - 2 * 60 * 60_000).toISOString();
    expect((await post(encodeHostedPageRequest(request({ request_date: old }), API_KEY))).statusCode).toBe(422);
  });

  it('opens the same payment for the same token, and refuses the token for another order', async () => {
    const unsigned = request();
    const first = await post(encodeHostedPageRequest(unsigned, API_KEY));
    const again = await post(encodeHostedPageRequest(unsigned, API_KEY));
    expect(again.headers.location).toBe(first.headers.location);
    const reused = await post(encodeHostedPageRequest({ ...unsigned, order_id: 'other-order' }, API_KEY));
    expect(reused.statusCode).toBe(409);
  });

  it('shows the card form again with the error for a Luhn-invalid number, and a declined card returns too', async () => {
    const unsigned = request();
    const opened = await post(encodeHostedPageRequest(unsigned, API_KEY));
    const url = pathOf(String(opened.headers.location));
    const invalid = await sandbox.app.inject({
      method: 'POST',
      url,
      ...form({ card_number: '4242 4242 4242 4241', expiry: '12/39', cvc: '123' }),
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.body).toContain('Enter a valid card number.');
    // What was typed comes back, except the CVC.
    expect(invalid.body).toContain('value="4242 4242 4242 4241"');
    expect(invalid.body).toContain('value="12/39"');
    expect(invalid.body).not.toContain('value="123"');
    // The keyboard starts again on the refused field, and on it only.
    expect(invalid.body.match(/<input[^>]*\sautofocus/g)).toHaveLength(1);
    expect(invalid.body).toMatch(/<input id="card_number"[^>]*aria-invalid="true"[^>]*autofocus/);
    const onlyExpiry = await sandbox.app.inject({
      method: 'POST',
      url,
      ...form({ card_number: '4242 4242 4242 4242', expiry: '13/39', cvc: '12' }),
    });
    expect(onlyExpiry.statusCode).toBe(422);
    expect(onlyExpiry.body.match(/<input[^>]*\sautofocus/g)).toHaveLength(1);
    expect(onlyExpiry.body).toMatch(/<input id="expiry"[^>]*autofocus/);
    const declined = await sandbox.app.inject({
      method: 'POST',
      url,
      ...form({ card_number: '4000000000000002', expiry: '12/39', cvc: '123' }),
    });
    expect(declined.headers.location).toBe(unsigned.return_url);
    const status = await sandbox.app.inject({
      method: 'GET',
      url: `/sandbox/api/v1/payments?order_id=${unsigned.order_id}`,
      headers: { authorization: `Bearer ${API_KEY}` },
    });
    expect(status.json().payments).toMatchObject([{ status: 'failed', failure_reason: 'card_declined' }]);
  });
});

describe('hosted page: the language', () => {
  /** The signed request with a `language` added after signing: it is not one of the signed fields. */
  const withLanguage = (encoded: string, language: unknown) =>
    Buffer.from(JSON.stringify({ ...decode(encoded), language })).toString('base64');

  const open = async (language?: unknown, headers: Record<string, string> = {}) => {
    const encoded = encodeHostedPageRequest(request(), API_KEY);
    const opened = await sandbox.app.inject({
      method: 'POST',
      url: '/sandbox/hosted',
      ...form({ Request: language === undefined ? encoded : withLanguage(encoded, language) }, headers),
    });
    expect(opened.statusCode).toBe(303);
    return String(opened.headers.location);
  };
  const show = (url: string, headers: Record<string, string> = {}) =>
    sandbox.app.inject({ method: 'GET', url: pathOf(url), headers });

  it('takes the request’s language, unsigned, and shows no English in the card form', async () => {
    const url = await open('pt');
    const page = await show(url, { 'accept-language': 'en' });
    expect(htmlLang(page.body)).toBe('pt-BR');
    expect(heading(page.body)).toBe('Pagar com cartão');
    for (const text of ['Número do cartão', 'Validade (MM/AA)', 'Pagar RUB\u00a0150,00', 'Pedido ORDER-']) {
      expect(page.body).toContain(text);
    }
    for (const english of ['Card number', 'Expiry', 'Pay', 'Test cards', 'Order ORDER-', '150.00']) {
      expect(page.body).not.toContain(english);
    }
    const refused = await sandbox.app.inject({
      method: 'POST',
      url: pathOf(firstForm(page.body).action),
      ...form({ card_number: '4242 4242 4242 4241', expiry: '12/39', cvc: '123' }),
    });
    expect(refused.statusCode).toBe(422);
    expect(htmlLang(refused.body)).toBe('pt-BR');
    expect(refused.body).toContain('Informe um número de cartão válido.');
  });

  it('keeps the request’s language on the 3-D Secure check', async () => {
    const url = await open('RU');
    const paid = await sandbox.app.inject({
      method: 'POST',
      url: pathOf(url),
      ...form({ card_number: '4000 0000 0000 3220', expiry: '12/39', cvc: '123' }),
    });
    expect(paid.statusCode).toBe(303);
    const check = await show(String(paid.headers.location), { 'accept-language': 'hi' });
    expect(htmlLang(check.body)).toBe('ru');
    expect(heading(check.body)).toBe('Проверка 3-D Secure');
    expect(check.body).toContain('Пройти проверку');
    // The hosted page itself, opened again while the check waits.
    const waiting = await show(url);
    expect(heading(waiting.body)).toBe('Ожидается проверка 3-D Secure');
  });

  it('ignores a language it does not speak instead of refusing the request', async () => {
    for (const language of ['de', 'pt-PT', 7, { code: 'ru' }]) {
      const page = await show(await open(language), { 'accept-language': 'hi-IN' });
      expect(page.statusCode, JSON.stringify(language)).toBe(200);
      expect(htmlLang(page.body)).toBe('hi');
    }
  });

  it('prefers the request’s language to lang, lang to Accept-Language, and that to English', async () => {
    const withField = await open('hi');
    expect(htmlLang((await show(`${withField}?lang=ru`, { 'accept-language': 'pt' })).body)).toBe('hi');

    const url = await open();
    const ru = await show(`${url}?lang=ru`, { 'accept-language': 'pt' });
    expect(htmlLang(ru.body)).toBe('ru');
    // The form posts back with the language it was asked for.
    expect(new URL(firstForm(ru.body).action).searchParams.get('lang')).toBe('ru');
    expect(htmlLang((await show(url, { 'accept-language': 'fr;q=0.9, pt-PT;q=0.5, en;q=0.4' })).body)).toBe('pt-BR');
    expect(htmlLang((await show(url, { 'accept-language': 'en;q=0.2, hi-IN;q=0.3' })).body)).toBe('hi');
    const english = await show(url);
    expect(htmlLang(english.body)).toBe('en');
    expect(heading(english.body)).toBe('Pay by card');
  });

  it('carries lang from the store’s form post on to the card form', async () => {
    const opened = await sandbox.app.inject({
      method: 'POST',
      url: '/sandbox/hosted?lang=hi',
      ...form({ Request: encodeHostedPageRequest(request(), API_KEY) }),
    });
    expect(opened.statusCode).toBe(303);
    const page = await show(String(opened.headers.location));
    expect(htmlLang(page.body)).toBe('hi');
    expect(page.body).toContain('कार्ड नंबर');
  });

  it('refuses a bad signature in the request’s language, and still refuses it', async () => {
    const signed = decode(encodeHostedPageRequest(request(), API_KEY));
    const tampered = Buffer.from(JSON.stringify({ ...signed, order_id: 'another', language: 'ru' })).toString('base64');
    const response = await post(tampered);
    expect(response.statusCode).toBe(403);
    expect(htmlLang(response.body)).toBe('ru');
    expect(response.body).toContain('Подпись запроса недействительна.');
    // Without one, in the browser's.
    const unreadable = await sandbox.app.inject({
      method: 'POST',
      url: '/sandbox/hosted',
      ...form({ Request: 'not base64 json' }, { 'accept-language': 'pt-BR' }),
    });
    expect(unreadable.statusCode).toBe(422);
    expect(htmlLang(unreadable.body)).toBe('pt-BR');
    expect(unreadable.body).toContain('Não foi possível ler a solicitação de pagamento.');
  });
});
