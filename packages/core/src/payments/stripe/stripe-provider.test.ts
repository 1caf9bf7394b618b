import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../shared/errors.ts';
import {
  CallbackVerificationError,
  type PaymentCallbackEvent,
  PaymentProviderUnavailableError,
  type QrPaymentRequest,
  type WidgetPaymentRequest,
} from '../provider.ts';
import { type StripeFake, startStripeFake, TEST_CARDS } from './stripe-fake.ts';
import { createStripeHarness } from './stripe-harness.ts';
import { createStripeProvider, STRIPE_METHODS } from './stripe-provider.ts';

const SECRET_KEY = 'sk_test_51FakeSecretKeyNeverShown';
const WEBHOOK_SECRET = 'whsec_current_secret_value';
const OLD_WEBHOOK_SECRET = 'whsec_previous_secret_value';

let fake: StripeFake;
let provider: ReturnType<typeof createStripeProvider>;

beforeAll(async () => {
  fake = await startStripeFake({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  provider = createStripeProvider({
    secretKey: SECRET_KEY,
    publishableKey: 'pk_test_public',
    webhookSecrets: [OLD_WEBHOOK_SECRET, WEBHOOK_SECRET],
    apiUrl: fake.url,
    timeoutMs: 500,
    maxNetworkRetries: 0,
  });
});
afterAll(() => fake.close());

let orders = 0;
const orderId = () => `00000000-0000-4000-8000-${String(++orders).padStart(12, '0')}`;

function widget(order: string, key?: string): WidgetPaymentRequest {
  return {
    method: 'widget',
    orderId: order,
    amountMinor: 15_000,
    currency: 'BRL',
    description: 'Order',
    customerEmail: 'a@example.com',
    items: [{ name: 'Card', unitPriceMinor: 15_000, quantity: 1 }],
    ...(key ? { idempotencyKey: key } : {}),
  };
}

/** Our own HMAC over `${t}.${body}`, not the SDK's helper. */
function sign(body: string, secret: string, t: number) {
  return { 'stripe-signature': `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}` };
}

function events(paymentIntent: string): PaymentCallbackEvent[] {
  return fake
    .callbacks(paymentIntent)
    .map((c) => provider.verifyCallback(c.rawBody, c.headers))
    .filter((e): e is PaymentCallbackEvent => !('ignored' in e));
}

describe('stripe provider: payments', () => {
  it('serves the widget, hosted page and Pix, not the own card form, SBP or UPI', async () => {
    expect(STRIPE_METHODS).toEqual(['widget', 'hosted_page', 'qr']);
    const qr: QrPaymentRequest = {
      method: 'qr',
      scheme: 'sbp',
      orderId: orderId(),
      amountMinor: 100,
      currency: 'RUB',
      description: 'x',
      idempotencyKey: 'k-sbp',
    };
    await expect(provider.createPayment(qr)).rejects.toBeInstanceOf(ValidationError);
    await expect(
      provider.createPayment({
        method: 'card',
        orderId: orderId(),
        amountMinor: 100,
        currency: 'BRL',
        description: 'x',
        card: { number: TEST_CARDS.succeeds, expMonth: 1, expYear: 2030, cvc: '123' },
        browser: { ip: '127.0.0.1' },
        returnUrl: 'https://store.example/',
        idempotencyKey: 'k-card',
      }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it('opens a Payment Element once per key and follows a card that pays', async () => {
    const order = orderId();
    const first = await provider.createPayment(widget(order, 'key-widget-1'));
    const again = await provider.createPayment(widget(order, 'key-widget-1'));
    expect(first).toMatchObject({ kind: 'stripe_payment_element', publishableKey: 'pk_test_public' });
    if (first.kind !== 'stripe_payment_element') throw new Error('not stripe');
    expect(again.providerPaymentId).toBe(first.providerPaymentId);
    expect(first.clientSecret).toMatch(/^pi_.+_secret_/);
    const intent = fake.intents.get(first.providerPaymentId);
    expect(intent).toMatchObject({ currency: 'brl', amount: 15_000, metadata: { order_id: order } });
    expect(await provider.getPayment(first.providerPaymentId)).toMatchObject({ status: 'init', orderId: order });

    fake.confirmCard(first.providerPaymentId, TEST_CARDS.succeeds);
    expect(await provider.getPayment(first.providerPaymentId)).toMatchObject({
      status: 'succeeded',
      method: 'widget',
      currency: 'BRL',
      card: { brand: 'visa', last4: '4242' },
    });
    expect(events(first.providerPaymentId).map((e) => e.type)).toEqual(['payment.pending', 'payment.succeeded']);
  });

  it.each([
    [TEST_CARDS.declined, 'card_declined'],
    [TEST_CARDS.insufficientFunds, 'insufficient_funds'],
  ])('maps the decline of %s to %s', async (card, reason) => {
    const created = await provider.createPayment(widget(orderId()));
    const id = created.providerPaymentId as string;
    fake.confirmCard(id, card);
    expect(await provider.getPayment(id)).toMatchObject({ status: 'failed', failureReason: reason });
    expect(events(id).at(-1)).toMatchObject({ type: 'payment.failed', failureReason: reason });
  });

  it.each([
    [true, 'succeeded', null],
    [false, 'failed', '3ds_failed'],
  ])('3-D Secure answered %s ends %s', async (pass, status, reason) => {
    const created = await provider.createPayment(widget(orderId()));
    const id = created.providerPaymentId as string;
    fake.confirmCard(id, TEST_CARDS.threeDs);
    expect(await provider.getPayment(id)).toMatchObject({ status: 'pending' });
    fake.answerThreeDs(id, pass);
    expect(await provider.getPayment(id)).toMatchObject({ status, failureReason: reason });
  });

  it('sends the hosted page to Checkout and finds its payment by the order', async () => {
    const order = orderId();
    const page = await provider.createPayment({
      method: 'hosted_page',
      orderId: order,
      amountMinor: 2_000,
      currency: 'BRL',
      description: 'Order',
      customerIp: '127.0.0.1',
      returnUrl: 'https://store.example/?paymentConfirmOrder=1',
      idempotencyKey: 'key-hosted-1',
      language: 'pt-BR',
    });
    if (page.kind !== 'hosted_redirect') throw new Error('not a redirect');
    expect(page.redirectUrl).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const session = page.redirectUrl.split('/').at(-1) as string;
    expect(await provider.listPayments(order)).toEqual([]);
    const first = fake.completeCheckout(session, TEST_CARDS.declined);
    const second = fake.completeCheckout(session, TEST_CARDS.succeeds);
    const listed = await provider.listPayments(order);
    expect(listed.map((p) => [p.providerPaymentId, p.status, p.method])).toEqual([
      [second, 'succeeded', 'hosted_page'],
      [first, 'failed', 'hosted_page'],
    ]);
  });

  it('shows a Pix BR Code as a PNG the store draws, and learns it was paid', async () => {
    const qr = await provider.createPayment({
      method: 'qr',
      scheme: 'pix',
      orderId: orderId(),
      amountMinor: 5_000,
      currency: 'BRL',
      description: 'Order',
      idempotencyKey: 'key-pix-1',
    });
    expect(qr.payload).toContain('br.gov.bcb.pix');
    expect(Buffer.from(qr.image.content, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(qr.expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(await provider.getPayment(qr.providerPaymentId)).toMatchObject({ status: 'pending', method: 'qr' });
    fake.settlePix(qr.providerPaymentId, true);
    expect(await provider.getPayment(qr.providerPaymentId)).toMatchObject({ status: 'succeeded', card: null });
  });

  it('refunds once per key, in part then in full, and a lost dispute is charged back', async () => {
    const created = await provider.createPayment(widget(orderId()));
    const id = created.providerPaymentId as string;
    fake.confirmCard(id, TEST_CARDS.succeeds);
    const first = await provider.refund({ providerPaymentId: id, amountMinor: 5_000, idempotencyKey: 'refund-1' });
    const replay = await provider.refund({ providerPaymentId: id, amountMinor: 5_000, idempotencyKey: 'refund-1' });
    expect(replay.refundId).toBe(first.refundId);
    expect(await provider.getPayment(id)).toMatchObject({ status: 'succeeded', refundedMinor: 5_000 });
    fake.dispute(id, 4_000, 'lost');
    expect(await provider.getPayment(id)).toMatchObject({
      status: 'succeeded',
      refundedMinor: 5_000,
      chargedBackMinor: 4_000,
    });
    await provider.refund({ providerPaymentId: id, amountMinor: 10_000, idempotencyKey: 'refund-2' });
    const done = await provider.getPayment(id);
    expect(done).toMatchObject({ status: 'refunded', refundedMinor: 15_000 });

    const seen = events(id);
    expect(seen.map((e) => e.type)).toEqual([
      'payment.pending',
      'payment.succeeded',
      'payment.refunded',
      'payment.refunded',
    ]);
    expect(seen.at(-1)).toMatchObject({ status: 'refunded', refundedMinor: 15_000 });
    // Each event's version is above the one before: a late older event is told apart.
    const versions = seen.map((e) => e.version);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
    expect(new Set(versions).size).toBe(versions.length);
    // The dispute names no order: acknowledged, and the payment it names is to be asked about.
    const dispute = fake.callbacks(id).find((c) => c.rawBody.includes('charge.dispute.closed'));
    expect(provider.verifyCallback(dispute?.rawBody ?? '', dispute?.headers ?? {})).toMatchObject({
      ignored: true,
      providerPaymentId: id,
    });
  });

  it('says the provider is unavailable on a 500, a 429 or a timeout, and not found for an unknown payment', async () => {
    fake.inject({ status: 500 });
    await expect(provider.createPayment(widget(orderId()))).rejects.toBeInstanceOf(PaymentProviderUnavailableError);
    fake.inject({ status: 429 });
    await expect(provider.getPayment('pi_x')).rejects.toBeInstanceOf(PaymentProviderUnavailableError);
    fake.inject({ hangMs: 800 });
    await expect(provider.getPayment('pi_x')).rejects.toBeInstanceOf(PaymentProviderUnavailableError);
    await expect(provider.getPayment('pi_unknown')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('names no secret in the errors it throws', async () => {
    const wrongKey = createStripeProvider({
      secretKey: 'sk_test_wrongKeyThatMustNotLeak',
      publishableKey: 'pk',
      webhookSecrets: [WEBHOOK_SECRET],
      apiUrl: fake.url,
      maxNetworkRetries: 0,
    });
    const thrown: unknown[] = [];
    await wrongKey.getPayment('pi_x').catch((e) => thrown.push(e));
    fake.inject({ status: 500 });
    await provider.getPayment('pi_x').catch((e) => thrown.push(e));
    try {
      provider.verifyCallback('{}', sign('{}', 'whsec_other', Math.floor(Date.now() / 1000)));
    } catch (e) {
      thrown.push(e);
    }
    expect(thrown).toHaveLength(3);
    for (const error of thrown) {
      const text = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`;
      for (const secret of ['sk_test_wrongKeyThatMustNotLeak', SECRET_KEY, WEBHOOK_SECRET, OLD_WEBHOOK_SECRET]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(secret.slice(-8));
      }
    }
  });
});

describe('stripe provider: webhook signatures', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    id: 'evt_1',
    object: 'event',
    created: 1_800_000_000,
    type: 'payment_intent.succeeded',
    data: {
      object: {
        id: 'pi_1',
        object: 'payment_intent',
        amount: 1_000,
        currency: 'brl',
        status: 'succeeded',
        metadata: { order_id: 'order-1', store_method: 'widget' },
        last_payment_error: null,
        created: 1_799_999_990,
      },
    },
  });
  const reason = (run: () => unknown) => {
    try {
      run();
      return 'accepted';
    } catch (error) {
      if (error instanceof CallbackVerificationError) return error.reason;
      throw error;
    }
  };

  it('accepts a valid signature under either secret of a rotation, as the event', () => {
    expect(provider.verifyCallback(body, sign(body, WEBHOOK_SECRET, now()))).toMatchObject({
      provider: 'stripe',
      eventId: 'evt_1',
      type: 'payment.succeeded',
      providerPaymentId: 'pi_1',
      orderId: 'order-1',
      amountMinor: 1_000,
      currency: 'BRL',
      status: 'succeeded',
    });
    expect(reason(() => provider.verifyCallback(Buffer.from(body), sign(body, OLD_WEBHOOK_SECRET, now())))).toBe(
      'accepted',
    );
  });

  it('refuses a wrong secret, a changed byte, a stale timestamp and no header', () => {
    expect(reason(() => provider.verifyCallback(body, sign(body, 'whsec_wrong', now())))).toBe('bad_signature');
    const headers = sign(body, WEBHOOK_SECRET, now());
    expect(reason(() => provider.verifyCallback(body.replace('1000', '1001'), headers))).toBe('bad_signature');
    expect(reason(() => provider.verifyCallback(body, sign(body, WEBHOOK_SECRET, now() - 301)))).toBe(
      'stale_timestamp',
    );
    expect(reason(() => provider.verifyCallback(body, {}))).toBe('missing_headers');
    expect(reason(() => provider.verifyCallback('not json', sign('not json', WEBHOOK_SECRET, now())))).toBe(
      'malformed_body',
    );
  });

  it('acknowledges an event type the store does not use', () => {
    const other = JSON.stringify({
      id: 'evt_2',
      object: 'event',
      created: 1,
      type: 'customer.created',
      data: { object: {} },
    });
    expect(provider.verifyCallback(other, sign(other, WEBHOOK_SECRET, now()))).toEqual({
      ignored: true,
      provider: 'stripe',
      eventId: 'evt_2',
      providerEventType: 'customer.created',
      providerPaymentId: null,
    });
  });
});

describe('stripe harness', () => {
  it('acts as the customer on each method and hands on the callbacks the store applies', async () => {
    const harness = await createStripeHarness();
    try {
      const outcomes: string[] = [];
      for (const method of harness.methods) {
        const order = orderId();
        const created = await harness.provider.createPayment(
          harness.request(method, { orderId: order, amountMinor: 1_500, threeDs: method === 'widget' }),
        );
        const id = await harness.completeAsCustomer(method, created, 'succeed', order);
        const last = (await harness.callbacks(id)).at(-1);
        outcomes.push(`${method}:${(await harness.provider.getPayment(id)).status}`);
        expect(harness.provider.verifyCallback(last?.rawBody ?? '', last?.headers ?? {})).toMatchObject({
          type: 'payment.succeeded',
          orderId: order,
          amountMinor: 1_500,
        });
      }
      expect(outcomes).toEqual(['widget:succeeded', 'hosted_page:succeeded', 'qr:succeeded']);
    } finally {
      await harness.close();
    }
  });
});
