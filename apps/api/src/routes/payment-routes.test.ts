import { randomBytes } from 'node:crypto';
import {
  ConfirmOrderResponseSchema,
  ErrorKeys,
  HostedPageResponseSchema,
  OrderDeliverySchema,
  PaymentResponseSchema,
  QrPaymentResponseSchema,
  SbpPaymentResponseSchema,
  UpiPaymentResponseSchema,
} from '@store/contract';
import { createLedgerService } from '@store/core';
import { eventually } from '@store/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectFieldError, registerUser } from '../../test/accounts.ts';
import { CARDS, cardFields, customerWithOrder, listeningTestApp, postForm } from '../../test/payments.ts';

// The payment calls end to end: the store, the embedded sandbox and its callbacks over HTTP, the
// in-process queue applying them. Every order ends where the one completion path takes it.

let ctx: Awaited<ReturnType<typeof listeningTestApp>>;
const sandbox = (path: string) => `/sandbox${path}`;

beforeAll(async () => {
  ctx = await listeningTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.prisma;
const pay = (token: string | undefined, body: unknown) => call(ctx.app, 'POST', '/api/payment', { token, body });
const statusOf = async (token: string, orderId: string) =>
  (await call(ctx.app, 'POST', '/api/payment/status', { token, body: { orderId } })).body.status as string;
const reasonOf = async (token: string, orderId: string) =>
  (await call(ctx.app, 'POST', '/api/payment/status', { token, body: { orderId } })).body.reason as unknown;

async function settles(token: string, orderId: string, expected: string) {
  await eventually(async () => (await statusOf(token, orderId)) === expected, 15_000);
}

describe('OpenAPI', () => {
  it('documents every payment call and the callback', async () => {
    const paths = Object.keys((await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths);
    for (const path of [
      '/api/payment',
      '/api/payment-sbp',
      '/api/orders/create-qr',
      '/api/orders/create-upi',
      '/api/payment/initialize',
      '/api/orders/confirm/{id}',
      '/api/payments/callback',
    ]) {
      expect(paths).toContain(path);
    }
  });
});

describe('POST /payment with the store’s own card form', () => {
  it('charges 4242…: the callback completes the order and the codes are there, with no card data kept', async () => {
    const buyer = await customerWithOrder(ctx.app, db(), { count: 2 });
    const answer = await pay(buyer.token, { type: 'purchase', ...cardFields(CARDS.success) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const paid = PaymentResponseSchema.parse(answer.body);
    expect(paid).toMatchObject({ status: 'success', order_id: buyer.orderId, card: { brand: 'visa', last4: '4242' } });

    await settles(buyer.token, buyer.orderId, 'success');
    const delivery = OrderDeliverySchema.parse(
      (await call(ctx.app, 'GET', `/api/payment-confirm/${buyer.orderId}`, { token: buyer.token })).body,
    );
    expect(delivery.products[0]?.codes.map((code) => code.code).sort()).toEqual(
      [...buyer.codes].sort().filter((code) => delivery.products[0]?.codes.some((shown) => shown.code === code)),
    );
    expect(delivery.products[0]?.codes).toHaveLength(2);

    const payment = await db().payment.findUniqueOrThrow({ where: { id: paid.payment_id } });
    expect(payment).toMatchObject({ method: 'CARD', status: 'SUCCEEDED', cardBrand: 'visa', cardLast4: '4242' });
    // The number, the CVV and the expiry are nowhere in the store's rows.
    const stored = JSON.stringify(
      [payment, await db().paymentEvent.findMany({ where: { orderId: buyer.orderId } })],
      (_key, value) => (typeof value === 'bigint' ? String(value) : value),
    );
    expect(stored).not.toContain('4242424242424242');
    expect(stored).not.toContain('4242 4242 4242 4242');
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
  });

  it('a declined card answers failed with the reason, and the order fails with it', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const answer = PaymentResponseSchema.parse(
      (await pay(buyer.token, { type: 'purchase', ...cardFields(CARDS.declined) })).body,
    );
    expect(answer).toMatchObject({ status: 'failed', reason: 'card_declined' });
    await settles(buyer.token, buyer.orderId, 'error');
    // The status poll says why too, for the pages that learn of the failure only from it.
    expect(await reasonOf(buyer.token, buyer.orderId)).toBe('card_declined');
    const funds = await customerWithOrder(ctx.app, db());
    expect(
      PaymentResponseSchema.parse(
        (await pay(funds.token, { type: 'purchase', ...cardFields(CARDS.insufficientFunds) })).body,
      ),
    ).toMatchObject({ status: 'failed', reason: 'insufficient_funds' });
  });

  it('a 3-D Secure card answers 3DS; the challenge passed at the issuer completes the order', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const answer = PaymentResponseSchema.parse(
      (await pay(buyer.token, { type: 'purchase', ...cardFields(CARDS.threeDs) })).body,
    );
    if (answer.status !== '3DS') throw new Error(`expected 3DS, got ${answer.status}`);
    expect(new URL(answer.redirectUrl).pathname).toBe(sandbox('/3ds/acs'));
    expect(await statusOf(buyer.token, buyer.orderId)).toBe('init');

    // The browser posts PaReq, MD and TermUrl to the issuer, passes the challenge, and the issuer's
    // page posts PaRes to TermUrl.
    const acs = await postForm(ctx.app, sandbox('/3ds/acs'), {
      PaReq: answer.PaReq,
      MD: answer.MD,
      TermUrl: answer.TermUrl,
    });
    expect(acs.statusCode).toBe(200);
    const token = /name="token" value="([^"]+)"/.exec(acs.body)?.[1];
    const challenge = await postForm(ctx.app, sandbox('/3ds/challenge'), {
      payment_id: answer.MD,
      token: token ?? '',
      outcome: 'pass',
    });
    const paRes = /name="PaRes" value="([^"]+)"/.exec(challenge.body)?.[1];
    const term = await postForm(ctx.app, sandbox('/3ds/term'), { PaRes: paRes ?? '', MD: answer.MD });
    expect(term.statusCode).toBe(303);
    expect(term.headers.location).toBe(`${ctx.publicUrl}/?paymentConfirmOrder=${buyer.orderId}`);
    await settles(buyer.token, buyer.orderId, 'success');
  });

  it('3DS_REDIRECT names the challenge page; a failed challenge fails the order', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const answer = PaymentResponseSchema.parse(
      (await pay(buyer.token, { type: 'purchase', ...cardFields(CARDS.threeDsRedirect) })).body,
    );
    if (answer.status !== '3DS_REDIRECT') throw new Error(`expected 3DS_REDIRECT, got ${answer.status}`);
    expect(answer.redirectMethod).toBe('GET');
    expect(new URL(answer.redirectUrl).pathname).toBe(sandbox('/3ds/challenge'));
    const { payment_id, token } = answer.redirectParams;
    const failed = await postForm(ctx.app, sandbox('/3ds/challenge'), {
      payment_id: payment_id ?? '',
      token: token ?? '',
      outcome: 'fail',
    });
    expect(failed.statusCode).toBe(303);
    await settles(buyer.token, buyer.orderId, 'error');
    expect(await reasonOf(buyer.token, buyer.orderId)).toBe('3ds_failed');
  });

  it('tops up the balance from POST /payment {type: balance, value, card} alone', async () => {
    const customer = await registerUser(ctx.app);
    const answer = await pay(customer.token, { type: 'balance', value: 150, ...cardFields(CARDS.mir) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const paid = PaymentResponseSchema.parse(answer.body);
    expect(paid).toMatchObject({ status: 'success', card: { brand: 'mir', last4: '0004' } });
    await settles(customer.token, paid.order_id, 'success');
    expect((await call(ctx.app, 'GET', '/api/user/balance', { token: customer.token })).body).toEqual({
      balance: 150,
      balance_minor: 15_000,
      owed_minor: 0,
    });
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
    // The credit is told by email, through the outbox, once.
    const notices = await db().outboundEmail.findMany({
      where: { toAddress: customer.email, template: 'balance-topup' },
    });
    expect(notices.map((notice) => (notice.data as { balance?: unknown }).balance)).toEqual([
      { orderId: paid.order_id, currency: 'BRL', amountMinor: 15_000, balanceMinor: 15_000, cause: 'topup' },
    ]);
  });

  it('a repeated top-up (the same token, no order named) makes one order and charges once', async () => {
    const customer = await registerUser(ctx.app);
    const token = randomBytes(12).toString('hex');
    const body = { type: 'balance', value: 150, token, ...cardFields(CARDS.success) };
    // A double click: both at once.
    const [first, twin] = (await Promise.all([pay(customer.token, body), pay(customer.token, body)])).map((answer) =>
      PaymentResponseSchema.parse(answer.body),
    );
    if (!first || !twin) throw new Error('two answers expected');
    expect(twin.order_id).toBe(first.order_id);
    expect(twin.payment_id).toBe(first.payment_id);
    await settles(customer.token, first.order_id, 'success');
    // A retry whose first answer was lost, arriving after the top-up was credited.
    const late = PaymentResponseSchema.parse((await pay(customer.token, body)).body);
    expect(late.order_id).toBe(first.order_id);
    const user = await db().user.findUniqueOrThrow({ where: { email: customer.email } });
    expect(await db().order.count({ where: { userId: user.id } })).toBe(1);
    expect(await db().payment.count({ where: { orderId: first.order_id } })).toBe(1);
    expect((await call(ctx.app, 'GET', '/api/user/balance', { token: customer.token })).body).toMatchObject({
      balance_minor: 15_000,
    });
    // The same token for another amount is not that attempt.
    const other = await pay(customer.token, { ...body, value: 200 });
    expect(other.status).toBe(409);
    expect(await createLedgerService({ sql: ctx.database.sql }).verifyBooks()).toEqual([]);
  });

  it('a repeated attempt (the same token) reaches the same payment and charges once', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const token = randomBytes(12).toString('hex');
    const body = { type: 'purchase', orderId: buyer.orderId, token, ...cardFields(CARDS.success) };
    const first = PaymentResponseSchema.parse((await pay(buyer.token, body)).body);
    const again = PaymentResponseSchema.parse((await pay(buyer.token, body)).body);
    expect(again.payment_id).toBe(first.payment_id);
    await settles(buyer.token, buyer.orderId, 'success');
    // A retry whose first answer was lost, arriving after the payment paid the order.
    const late = PaymentResponseSchema.parse((await pay(buyer.token, body)).body);
    expect(late.payment_id).toBe(first.payment_id);
    expect(await db().payment.count({ where: { orderId: buyer.orderId } })).toBe(1);
  });
});

describe('POST /payment without card fields: the provider’s widget', () => {
  // docs/payments.md, "The widget request".
  it('answers a widget request, which the provider’s widget accepts', async () => {
    const buyer = await customerWithOrder(ctx.app, db(), { count: 3, priceMinor: 1_000 });
    const answer = PaymentResponseSchema.parse((await pay(buyer.token, { type: 'purchase' })).body);
    if (answer.status !== 'widget') throw new Error(`expected widget, got ${answer.status}`);
    expect(answer.widget.script_url).toBe(`${ctx.publicUrl}/sandbox/widget.js`);
    expect(answer.widget.request).toMatchObject({
      order_id: buyer.orderId,
      amount: '30.00',
      currency: 'BRL',
      receipt: {
        email: buyer.email,
        items: [expect.objectContaining({ price: '10.00', quantity: 3, sum: '30.00', vat: 'none' })],
        payments: [{ type: 'electronic', sum: '30.00' }],
      },
    });
    const session = await ctx.app.inject({
      method: 'POST',
      url: sandbox('/widget/sessions'),
      headers: { origin: ctx.publicUrl },
      payload: answer.widget.request,
    });
    expect(session.statusCode, session.body).toBe(201);
    expect(await statusOf(buyer.token, buyer.orderId)).toBe('init');
  });
});

describe('POST /payment/initialize: the hosted payment page', () => {
  it('answers the signed Request to post; paying on the provider’s page completes the order', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const token = randomBytes(12).toString('hex');
    const answer = await call(ctx.app, 'POST', '/api/payment/initialize', {
      token: buyer.token,
      body: { orderId: buyer.orderId, token },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const form = HostedPageResponseSchema.parse(answer.body);
    expect(form.action).toBe(`${ctx.publicUrl}/sandbox/hosted`);
    const request = JSON.parse(Buffer.from(form.fields.Request, 'base64').toString('utf8'));
    expect(request).toMatchObject({
      token: form.payment_id,
      order_id: buyer.orderId,
      amount: { value: '29.90', currency: 'BRL' },
      return_url: `${ctx.publicUrl}/?paymentConfirmOrder=${buyer.orderId}`,
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // The same attempt again is the same payment.
    const again = HostedPageResponseSchema.parse(
      (
        await call(ctx.app, 'POST', '/api/payment/initialize', {
          token: buyer.token,
          body: { orderId: buyer.orderId, token },
        })
      ).body,
    );
    expect(again.payment_id).toBe(form.payment_id);

    const opened = await postForm(ctx.app, sandbox('/hosted'), form.fields);
    expect(opened.statusCode).toBe(303);
    const paid = await postForm(ctx.app, new URL(String(opened.headers.location)).pathname, {
      card_number: CARDS.success,
      expiry: '12/35',
      cvc: '123',
    });
    expect(paid.statusCode).toBe(303);
    await settles(buyer.token, buyer.orderId, 'success');
    expect(await db().payment.findUniqueOrThrow({ where: { id: form.payment_id } })).toMatchObject({
      method: 'HOSTED_PAGE',
      status: 'SUCCEEDED',
      cardLast4: '4242',
    });
  });
});

describe('the provider’s own pages', () => {
  it('speak the customer’s language: the 3-D Secure check, the hosted page, the widget’s description and the bank’s confirm page', async () => {
    const langOf = (html: string) => /<html lang="([^"]+)"/.exec(html)?.[1];
    const customerIn = async (locale: string) => {
      const buyer = await customerWithOrder(ctx.app, db());
      const changed = await call(ctx.app, 'PATCH', '/api/profile/locale', { token: buyer.token, body: { locale } });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      return buyer;
    };

    const russian = await customerIn('ru');
    const threeDs = PaymentResponseSchema.parse(
      (await pay(russian.token, { type: 'purchase', ...cardFields(CARDS.threeDs) })).body,
    );
    if (threeDs.status !== '3DS') throw new Error(`expected 3DS, got ${threeDs.status}`);
    const acs = await postForm(ctx.app, sandbox('/3ds/acs'), {
      PaReq: threeDs.PaReq,
      MD: threeDs.MD,
      TermUrl: threeDs.TermUrl,
    });
    expect(langOf(acs.body)).toBe('ru');

    const portuguese = await customerIn('pt-BR');
    const form = HostedPageResponseSchema.parse(
      (
        await call(ctx.app, 'POST', '/api/payment/initialize', {
          token: portuguese.token,
          body: { orderId: portuguese.orderId, token: randomBytes(12).toString('hex') },
        })
      ).body,
    );
    expect(JSON.parse(Buffer.from(form.fields.Request, 'base64').toString('utf8')).language).toBe('pt-BR');
    const opened = await postForm(ctx.app, sandbox('/hosted'), form.fields);
    expect(opened.statusCode).toBe(303);
    const page = await ctx.app.inject({ method: 'GET', url: new URL(String(opened.headers.location)).pathname });
    expect(langOf(page.body)).toBe('pt-BR');

    // What the payment is for, as the provider's pages and the bank statement show it.
    const widgetBuyer = await customerIn('pt-BR');
    const widget = PaymentResponseSchema.parse((await pay(widgetBuyer.token, { type: 'purchase' })).body);
    if (widget.status !== 'widget') throw new Error(`expected the widget, got ${widget.status}`);
    expect(widget.widget.request.description).toMatch(/^Produtos digitais, pedido /);

    const hindi = await customerIn('hi');
    const { sbp } = SbpPaymentResponseSchema.parse(
      (await call(ctx.app, 'POST', '/api/payment-sbp', { token: hindi.token, body: { type: 'purchase' } })).body,
    );
    // The bank's page in the customer's language, whatever the browser asks for.
    const bank = await ctx.app.inject({
      method: 'GET',
      url: new URL(sbp.pay_link).pathname,
      headers: { 'accept-language': 'en-US,en;q=0.9' },
    });
    expect(langOf(bank.body)).toBe('hi');
  });
});

describe('instant bank transfer and UPI', () => {
  it('POST /payment-sbp answers a QR image and pay link; confirming at the bank completes the order', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const answer = await call(ctx.app, 'POST', '/api/payment-sbp', { token: buyer.token, body: { type: 'purchase' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { sbp } = SbpPaymentResponseSchema.parse(answer.body);
    expect(sbp.image.media_type).toBe('image/png');
    expect(Buffer.from(sbp.image.content, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(sbp.payload).toBe(sbp.pay_link);
    const confirmed = await postForm(ctx.app, new URL(sbp.pay_link).pathname, { decision: 'confirm' });
    expect(confirmed.statusCode).toBe(200);
    await settles(buyer.token, buyer.orderId, 'success');
  });

  it('POST /orders/create-qr answers a PIX BR Code for BRL, and refuses an amount or currency not the order’s', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const qr = (body: object) => call(ctx.app, 'POST', '/api/orders/create-qr', { token: buyer.token, body });
    const wrong = await qr({ amount: '10.00', currency: 'RUB' });
    expectFieldError(wrong, 'amount', ErrorKeys.amountMismatch);
    expectFieldError(wrong, 'currency', ErrorKeys.currencyMismatch);
    const answer = await qr({ amount: '29.90', currency: 'brl', personalId: '123.456.789-09', firstName: 'Ana' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const body = QrPaymentResponseSchema.parse(answer.body);
    expect(body.QrImage).toMatch(/^data:image\/png;base64,/);
    expect(body.payload).toMatch(/^000201/);
    expect(body.payload).toContain('5303986');
    expect(body.payload).toContain('540529.90');
    expect(new URL(body.PayLink).pathname).toMatch(/^\/sandbox\/qr\//);
  });

  it('POST /orders/create-upi refuses return addresses off the store’s origin and answers the provider’s page', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    const fields = {
      currency: 'BRL',
      description: 'Gift cards',
      FirstName: 'Ana',
      AccountNumber: '12345678',
      email: 'ana@example.com',
      phone: '+55 11 99999-0000',
      zip: '01000-000',
      address: 'Rua A, 1',
      success_url: `${ctx.publicUrl}/payment-confirm/${buyer.orderId}`,
      decline_url: `${ctx.publicUrl}/payment-error/${buyer.orderId}`,
      cancel_url: `${ctx.publicUrl}/checkout`,
    };
    const upi = (body: object) => call(ctx.app, 'POST', '/api/orders/create-upi', { token: buyer.token, body });
    const foreign = await upi({
      ...fields,
      success_url: 'https://evil.example/win',
      cancel_url: `${ctx.publicUrl}.evil.example/`,
    });
    expectFieldError(foreign, 'success_url', ErrorKeys.foreignOrigin);
    expectFieldError(foreign, 'cancel_url', ErrorKeys.foreignOrigin);
    expect(await db().payment.count({ where: { orderId: buyer.orderId } })).toBe(0);

    const answer = await upi(fields);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const page = UpiPaymentResponseSchema.parse(answer.body);
    expect(page.intent).toMatch(/^upi:\/\/pay\?/);
    const paid = await postForm(ctx.app, new URL(page.redirect_url).pathname, { decision: 'pay' });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(fields.success_url);
    await settles(buyer.token, buyer.orderId, 'success');
  });
});

describe('another customer’s order', () => {
  it('is a 404 on every payment call, and nothing is started for it', async () => {
    const owner = await customerWithOrder(ctx.app, db());
    const other = await registerUser(ctx.app);
    const orderId = owner.orderId;
    const attempts = [
      pay(other.token, { type: 'purchase', orderId }),
      pay(other.token, { type: 'purchase', orderId, ...cardFields(CARDS.success) }),
      call(ctx.app, 'POST', '/api/payment-sbp', { token: other.token, body: { type: 'purchase', orderId } }),
      call(ctx.app, 'POST', '/api/orders/create-qr', {
        token: other.token,
        body: { orderId, amount: '29.90', currency: 'BRL' },
      }),
      call(ctx.app, 'POST', '/api/orders/create-upi', {
        token: other.token,
        body: {
          orderId,
          currency: 'BRL',
          description: 'x',
          FirstName: 'Eve',
          AccountNumber: '1',
          email: 'eve@example.com',
          phone: '+5511999990000',
          zip: '1',
          address: 'x',
          success_url: `${ctx.publicUrl}/`,
          decline_url: `${ctx.publicUrl}/`,
          cancel_url: `${ctx.publicUrl}/`,
        },
      }),
      call(ctx.app, 'POST', '/api/payment/initialize', { token: other.token, body: { orderId, token: 'attempt-1' } }),
      call(ctx.app, 'POST', `/api/orders/confirm/${orderId}`, { token: other.token }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status, JSON.stringify(response.body)).toBe(404);
    }
    expect(await db().payment.count({ where: { orderId } })).toBe(0);
  });

  it('and every payment call wants a signed-in customer', async () => {
    expect((await pay(undefined, { type: 'purchase' })).status).toBe(401);
    expect((await call(ctx.app, 'POST', '/api/payment-sbp', { body: { type: 'purchase' } })).status).toBe(401);
  });
});

describe('bad input', () => {
  it('is a 422 naming each field', async () => {
    const buyer = await customerWithOrder(ctx.app, db());
    expectFieldError(
      await pay(buyer.token, { type: 'purchase', ...cardFields('4242 4242 4242 4241') }),
      'card_number',
      ErrorKeys.invalidCardNumber,
    );
    expectFieldError(
      await pay(buyer.token, { type: 'purchase', ...cardFields(CARDS.success), month: '13' }),
      'month',
      ErrorKeys.tooLarge,
    );
    expectFieldError(
      await pay(buyer.token, { type: 'purchase', ...cardFields(CARDS.success), cvc: '099' }),
      'cvc',
      ErrorKeys.invalidValue,
    );
    const partial = await pay(buyer.token, { type: 'purchase', card_number: CARDS.success });
    for (const field of ['month', 'year', 'cvc']) expectFieldError(partial, field, ErrorKeys.requiredField);
    expectFieldError(await pay(buyer.token, { type: 'spending' }), 'type', ErrorKeys.unknownOption);
    expectFieldError(await pay(buyer.token, { type: 'balance' }), 'value', ErrorKeys.requiredField);
    expectFieldError(await pay(buyer.token, { type: 'balance', value: 99 }), 'value', ErrorKeys.tooSmall);
    expectFieldError(
      await pay(buyer.token, { type: 'balance', orderId: buyer.orderId }),
      'orderId',
      ErrorKeys.orderNotPayable,
    );
    expect(await db().payment.count({ where: { orderId: buyer.orderId } })).toBe(0);

    const nothingToPay = await registerUser(ctx.app);
    expectFieldError(await pay(nothingToPay.token, { type: 'purchase' }), 'orderId', ErrorKeys.orderNotPayable);
  });
});

describe('POST /orders/confirm/{id}', () => {
  it('asks the provider when the callbacks do not come, and completes the order through the same path', async () => {
    // A store whose callbacks go nowhere: only asking the provider can tell it the payment succeeded.
    const deaf = await listeningTestApp(
      { PAYMENTS_CALLBACK_URL: 'http://127.0.0.1:9/api/payments/callback' },
      { database: ctx.database },
    );
    try {
      const buyer = await customerWithOrder(deaf.app, db());
      const paid = await call(deaf.app, 'POST', '/api/payment', {
        token: buyer.token,
        body: { type: 'purchase', ...cardFields(CARDS.success) },
      });
      expect(PaymentResponseSchema.parse(paid.body).status).toBe('success');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(
        (await call(deaf.app, 'POST', '/api/payment/status', { token: buyer.token, body: { orderId: buyer.orderId } }))
          .body.status,
      ).toBe('init');

      const confirmed = await call(deaf.app, 'POST', `/api/orders/confirm/${buyer.orderId}`, { token: buyer.token });
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      expect(ConfirmOrderResponseSchema.parse(confirmed.body)).toMatchObject({ order_id: buyer.orderId, updates: 1 });
      await eventually(
        async () =>
          (
            await call(deaf.app, 'POST', '/api/payment/status', {
              token: buyer.token,
              body: { orderId: buyer.orderId },
            })
          ).body.status === 'success',
        15_000,
      );
      // Asked again, the provider has nothing new: nothing is stored twice.
      const again = ConfirmOrderResponseSchema.parse(
        (await call(deaf.app, 'POST', `/api/orders/confirm/${buyer.orderId}`, { token: buyer.token })).body,
      );
      expect(again).toMatchObject({ status: 'success', updates: 0 });
      expect(await db().paymentEvent.count({ where: { orderId: buyer.orderId } })).toBe(1);
    } finally {
      await deaf.close();
    }
  });
});
