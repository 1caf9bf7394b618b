import type { CardOutcome, PaymentProvider } from '@store/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createViaApi,
  firstForm,
  form,
  heading,
  htmlLang,
  PUBLIC_URL,
  pathOf,
  type Receiver,
  STORE_ORIGIN,
  startSandboxWithProvider,
  type TestSandbox,
} from './test-support.ts';

let sandbox: TestSandbox;
let receiver: Receiver;
let provider: PaymentProvider;
let order = 0;

let close: () => Promise<void>;

beforeAll(async () => {
  ({ sandbox, receiver, provider, close } = await startSandboxWithProvider());
});

afterAll(() => close());

async function pay(number: string) {
  order += 1;
  const returnUrl = `${STORE_ORIGIN}/?paymentConfirmOrder=order-${order}`;
  const result = await provider.createPayment({
    method: 'card',
    orderId: `order-${order}`,
    amountMinor: 9_900,
    currency: 'RUB',
    description: 'Top-up',
    card: { number, expMonth: 12, expYear: 2099, cvc: '123' },
    browser: { ip: '203.0.113.7' },
    returnUrl,
    idempotencyKey: `3ds-${order}`,
  });
  return { ...result, returnUrl };
}

/** What the store's page does with a 3DS answer: post PaReq, MD and TermUrl to the ACS. */
async function openAcs(outcome: CardOutcome) {
  if (outcome.status !== '3DS') throw new Error(`expected 3DS, got ${outcome.status}`);
  return sandbox.app.inject({
    method: 'POST',
    url: pathOf(outcome.redirectUrl),
    ...form({ PaReq: outcome.PaReq, MD: outcome.MD, TermUrl: outcome.TermUrl }),
  });
}

/** The tester's click on the challenge page, and for `3DS` the page's post of PaRes to TermUrl. */
async function answer(challengeHtml: string, outcome: 'pass' | 'fail') {
  const challenge = firstForm(challengeHtml);
  const response = await sandbox.app.inject({
    method: 'POST',
    url: pathOf(challenge.action),
    ...form({ ...challenge.fields, outcome }),
  });
  if (response.statusCode !== 200) return response;
  const term = firstForm(response.body);
  expect(term.action).toBe(`${PUBLIC_URL}/3ds/term`);
  expect(Object.keys(term.fields).sort()).toEqual(['MD', 'PaRes']);
  return sandbox.app.inject({ method: 'POST', url: pathOf(term.action), ...form(term.fields) });
}

describe('3DS: PaReq, MD and TermUrl', () => {
  it('passing the challenge succeeds and returns the browser to the store', async () => {
    const payment = await pay('4000000000003220');
    const acs = await openAcs(payment.outcome);
    expect(acs.statusCode).toBe(200);
    expect(acs.body).toContain('Pass the challenge');
    const done = await answer(acs.body, 'pass');
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(payment.returnUrl);
    expect(await provider.getPayment(payment.providerPaymentId)).toMatchObject({ status: 'succeeded' });
  });

  it('failing the challenge fails the payment', async () => {
    const payment = await pay('4000000000003220');
    const done = await answer((await openAcs(payment.outcome)).body, 'fail');
    expect(done.headers.location).toBe(payment.returnUrl);
    expect(await provider.getPayment(payment.providerPaymentId)).toMatchObject({
      status: 'failed',
      failureReason: '3ds_failed',
    });
  });

  it('4000 0084 0000 1629 passes the challenge and is then declined', async () => {
    const payment = await pay('4000008400001629');
    await answer((await openAcs(payment.outcome)).body, 'pass');
    expect(await provider.getPayment(payment.providerPaymentId)).toMatchObject({
      status: 'failed',
      failureReason: 'card_declined',
    });
  });

  it('sends pending, then the result, as callbacks', async () => {
    const payment = await pay('4000000000003220');
    await answer((await openAcs(payment.outcome)).body, 'pass');
    await receiver.waitFor(1);
    const types = async () =>
      receiver.received
        .map((callback) => JSON.parse(callback.body))
        .filter((event) => event.data.id === payment.providerPaymentId)
        .map((event) => event.type);
    for (let tries = 0; (await types()).length < 2 && tries < 200; tries++) await new Promise((r) => setTimeout(r, 10));
    expect(await types()).toEqual(['payment.pending', 'payment.succeeded']);
  });

  it('refuses a changed TermUrl, a PaReq of another payment and a forged PaRes', async () => {
    const payment = await pay('4000000000003220');
    const outcome = payment.outcome;
    if (outcome.status !== '3DS') throw new Error('expected 3DS');
    const elsewhere = await sandbox.app.inject({
      method: 'POST',
      url: pathOf(outcome.redirectUrl),
      ...form({ PaReq: outcome.PaReq, MD: outcome.MD, TermUrl: 'https://evil.example/term' }),
    });
    expect(elsewhere.statusCode).toBe(422);

    const other = await pay('4000000000003220');
    if (other.outcome.status !== '3DS') throw new Error('expected 3DS');
    const mixed = await sandbox.app.inject({
      method: 'POST',
      url: pathOf(outcome.redirectUrl),
      ...form({ PaReq: other.outcome.PaReq, MD: outcome.MD, TermUrl: outcome.TermUrl }),
    });
    expect(mixed.statusCode).toBe(422);

    const forged = Buffer.from(JSON.stringify({ payment_id: outcome.MD, outcome: 'pass' })).toString('base64url');
    const term = await sandbox.app.inject({
      method: 'POST',
      url: '/sandbox/3ds/term',
      ...form({ PaRes: `${forged}.AAAA`, MD: outcome.MD }),
    });
    expect(term.statusCode).toBe(422);
    expect((await provider.getPayment(payment.providerPaymentId)).status).toBe('pending');
  });
});

describe('3DS_REDIRECT', () => {
  it('leads to the challenge page; passing succeeds and a second answer changes nothing', async () => {
    const payment = await pay('4000002760003184');
    const outcome = payment.outcome;
    if (outcome.status !== '3DS_REDIRECT') throw new Error('expected 3DS_REDIRECT');
    const url = `${outcome.redirectUrl}?${new URLSearchParams(outcome.redirectParams)}`;
    const page = await sandbox.app.inject({ method: 'GET', url: pathOf(url) });
    expect(page.statusCode).toBe(200);
    // The challenge may show inside the widget's frame, so the store's origin may frame it.
    expect(page.headers['content-security-policy']).toContain(`frame-ancestors 'self' ${STORE_ORIGIN}`);
    const done = await answer(page.body, 'pass');
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(payment.returnUrl);
    expect((await provider.getPayment(payment.providerPaymentId)).status).toBe('succeeded');

    const again = await answer(page.body, 'fail');
    expect(again.headers.location).toBe(payment.returnUrl);
    expect((await provider.getPayment(payment.providerPaymentId)).status).toBe('succeeded');
  });

  it('refuses a link with the wrong token', async () => {
    const payment = await pay('4000002760003184');
    const page = await sandbox.app.inject({
      method: 'GET',
      url: `/sandbox/3ds/challenge?payment_id=${payment.providerPaymentId}&token=guessed`,
    });
    expect(page.statusCode).toBe(422);
    const post = await sandbox.app.inject({
      method: 'POST',
      url: '/sandbox/3ds/challenge',
      ...form({ payment_id: payment.providerPaymentId, token: 'guessed', outcome: 'pass' }),
    });
    expect(post.statusCode).toBe(422);
    expect((await provider.getPayment(payment.providerPaymentId)).status).toBe('pending');
  });
});

/** The card API's answer for a challenge: `3ds` (acs_url, pa_req, md, term_url) or `3ds_redirect` (url, params). */
interface NextAction {
  url: string;
  params: Record<string, string>;
  acs_url: string;
  pa_req: string;
  md: string;
  term_url: string;
}

describe('3-D Secure: the language', () => {
  /** A card payment by the server API, with the fields the store's adapter does not send. */
  async function challenge(number: string, extra: Record<string, unknown> = {}) {
    order += 1;
    const created = await createViaApi(sandbox, {
      method: 'card',
      order_id: `order-${order}`,
      amount_minor: 9_900,
      currency: 'BRL',
      description: 'Top-up',
      callback_url: receiver.url,
      return_url: `${STORE_ORIGIN}/?paymentConfirmOrder=order-${order}`,
      card: { number, exp_month: 12, exp_year: 2099, cvc: '123' },
      browser: { ip: '203.0.113.7' },
      ...extra,
    });
    expect(created.statusCode).toBe(201);
    return created.json().next_action as NextAction;
  }
  const challengeUrl = (action: NextAction, lang?: string) =>
    `${pathOf(action.url)}?${new URLSearchParams({ ...action.params, ...(lang ? { lang } : {}) })}`;
  const open = (url: string, headers: Record<string, string> = {}) =>
    sandbox.app.inject({ method: 'GET', url, headers });

  it('shows the challenge in the payment’s language, whatever lang and the browser say', async () => {
    const action = await challenge('4000002760003184', { language: 'hi' });
    const page = await open(challengeUrl(action, 'ru'), { 'accept-language': 'pt-BR' });
    expect(page.statusCode).toBe(200);
    expect(htmlLang(page.body)).toBe('hi');
    expect(heading(page.body)).toBe('3-D Secure जाँच');
    expect(page.body).toContain('जाँच पास करें');
    expect(page.body).toContain('R$99.00');
  });

  it('without one, takes lang, then Accept-Language, then English', async () => {
    const action = await challenge('4000002760003184');
    const ru = await open(challengeUrl(action, 'ru'), { 'accept-language': 'pt-BR' });
    expect(htmlLang(ru.body)).toBe('ru');
    expect(ru.body).toContain('Пройти проверку');
    expect(new URL(firstForm(ru.body).action).searchParams.get('lang')).toBe('ru');
    const pt = await open(challengeUrl(action), { 'accept-language': 'pt-PT,pt;q=0.9' });
    expect(htmlLang(pt.body)).toBe('pt-BR');
    expect(pt.body).toContain('Aprovar a verificação');
    expect(pt.body).toContain('R$\u00a099,00');
    const en = await open(challengeUrl(action), { 'accept-language': 'ja, de;q=0.5' });
    expect(htmlLang(en.body)).toBe('en');
    expect(en.body).toContain('Pass the challenge');
  });

  it('ignores a language it does not speak', async () => {
    const action = await challenge('4000002760003184', { language: 'de-DE' });
    const page = await open(challengeUrl(action), { 'accept-language': 'ru-RU' });
    expect(htmlLang(page.body)).toBe('ru');
  });

  it('goes through the ACS and the auto-post in the payment’s language', async () => {
    const action = await challenge('4000000000003220', { language: 'pt-BR' });
    const acs = await sandbox.app.inject({
      method: 'POST',
      url: pathOf(action.acs_url),
      ...form({ PaReq: action.pa_req, MD: action.md, TermUrl: action.term_url }, { 'accept-language': 'hi' }),
    });
    expect(htmlLang(acs.body)).toBe('pt-BR');
    const answer = firstForm(acs.body);
    const autoPost = await sandbox.app.inject({
      method: 'POST',
      url: pathOf(answer.action),
      ...form({ ...answer.fields, outcome: 'pass' }),
    });
    expect(htmlLang(autoPost.body)).toBe('pt-BR');
    expect(heading(autoPost.body)).toBe('Voltando para a loja');
    expect(autoPost.body).toContain('>Continuar</button>');
  });

  it('refuses a bad link in the browser’s language', async () => {
    const refused = await open('/sandbox/3ds/challenge?payment_id=nope&token=nope&lang=pt');
    expect(refused.statusCode).toBe(422);
    expect(htmlLang(refused.body)).toBe('pt-BR');
    expect(refused.body).toContain('Este link não indica um pagamento aguardando 3-D Secure.');
  });
});
