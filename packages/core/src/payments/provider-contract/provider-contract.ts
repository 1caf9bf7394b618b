/**
 * The provider contract suite: the same scenarios against every adapter of the port (provider.ts),
 * through its harness (harness.ts). An adapter's test file calls `describeProviderContract` with a
 * harness over a local fake of its provider; with test-mode keys, `describeLiveProviderContract`
 * runs the same scenarios against the provider's real test API, when asked for by
 * PROVIDER_CONTRACT_LIVE (docs/payments.md, "Providers").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CallbackVerificationError,
  type PaymentCallbackEvent,
  type PaymentProvider,
  type PaymentResultByMethod,
  type ProviderPaymentMethod,
} from '../provider.ts';
import type { CallbackDelivery, CustomerOutcome, ProviderContractHarness } from './harness.ts';

/** Methods where the customer gives a card: 3-D Secure applies. */
const CARD_LIKE: readonly ProviderPaymentMethod[] = ['card'];
/** Methods whose answer names the provider's payment at once (a widget's is known only once paid). */
const KIND: Record<ProviderPaymentMethod, string> = {
  widget: 'widget',
  hosted_page: 'form_post',
  card: 'card',
  qr: 'qr',
  upi: 'redirect',
};

let orders = 0;
const newOrderId = (name: string) => `contract-${name}-${process.pid}-${Date.now().toString(36)}-${++orders}`;

/**
 * The contract: create (each method the harness lists), 3-D Secure, succeed, fail, duplicate and
 * out-of-order callbacks, refund (part, then the rest), poll, and callbacks tampered with or signed
 * with the wrong secret. Each scenario runs on every method it applies to.
 */
export function describeProviderContract(makeHarness: () => Promise<ProviderContractHarness>) {
  let harness: ProviderContractHarness;
  let provider: PaymentProvider;

  describe('provider contract', () => {
    beforeAll(async () => {
      harness = await makeHarness();
      provider = harness.provider;
    }, 60_000);
    afterAll(async () => {
      await harness?.close();
    });

    const amountMinor = 12_345;

    /** Creates and completes a payment as the customer: its order, its id and the create answer. */
    async function paid<M extends ProviderPaymentMethod>(method: M, outcome: CustomerOutcome, threeDs = false) {
      const orderId = newOrderId(harness.name);
      const created = (await provider.createPayment(
        harness.request(method, { orderId, amountMinor, threeDs }),
      )) as PaymentResultByMethod[M];
      const providerPaymentId = await harness.completeAsCustomer(method, created, outcome, orderId);
      return { orderId, created, providerPaymentId };
    }

    /** The payment's callbacks, verified; at least `least` of them. */
    async function verified(providerPaymentId: string, least = 1) {
      const deliveries = await harness.callbacks(providerPaymentId);
      expect(deliveries.length, 'callbacks sent about the payment').toBeGreaterThanOrEqual(least);
      return deliveries.map((delivery) => ({ delivery, event: applied(delivery) }));
    }

    /** A delivery verified as an event the store applies: the harness sends no other kind. */
    function applied(delivery: CallbackDelivery): PaymentCallbackEvent {
      const event = provider.verifyCallback(delivery.rawBody, delivery.headers);
      if ('ignored' in event)
        throw new Error(`the harness sent an event the store ignores: ${event.providerEventType}`);
      return event;
    }

    const last = <T>(items: T[]): T => {
      const item = items.at(-1);
      if (item === undefined) throw new Error('none');
      return item;
    };

    it('names itself as payments and events record it', () => {
      expect(provider.name).toBe(harness.name);
      expect(harness.methods.length).toBeGreaterThan(0);
    });

    it('creates a payment of each method it lists', async () => {
      for (const method of harness.methods) {
        const orderId = newOrderId(harness.name);
        const created = await provider.createPayment(harness.request(method, { orderId, amountMinor }));
        expect(created.kind, method).toBe(KIND[method]);
        if (method !== 'widget' && method !== 'hosted_page') {
          expect(created.providerPaymentId, method).toEqual(expect.any(String));
          const atProvider = await provider.getPayment(created.providerPaymentId as string);
          expect(atProvider, method).toMatchObject({
            orderId,
            method,
            amountMinor,
            currency: harness.currency,
            refundedMinor: 0,
          });
          expect(['init', 'pending', 'succeeded', 'failed']).toContain(atProvider.status);
        }
      }
    });

    it('asks a card-like payment for 3-D Secure, and settles it by the customer’s answer', async (context) => {
      const cardLike = harness.methods.filter((method) => CARD_LIKE.includes(method));
      if (cardLike.length === 0) context.skip(`${harness.name} lists no card-like method`);
      for (const method of cardLike) {
        for (const outcome of ['succeed', 'fail'] as const) {
          const { created, providerPaymentId } = await paid(method, outcome, true);
          if (created.kind === 'card') expect(['3DS', '3DS_REDIRECT']).toContain(created.outcome.status);
          const payment = await provider.getPayment(providerPaymentId);
          expect(payment.status, `${method} 3-D Secure ${outcome}`).toBe(
            outcome === 'succeed' ? 'succeeded' : 'failed',
          );
          if (outcome === 'fail') expect(payment.failureReason).not.toBeNull();
        }
      }
    });

    it('succeeds, and says so in a signed callback', async () => {
      for (const method of harness.methods) {
        const { orderId, providerPaymentId } = await paid(method, 'succeed');
        const payment = await provider.getPayment(providerPaymentId);
        expect(payment, method).toMatchObject({
          providerPaymentId,
          orderId,
          method,
          status: 'succeeded',
          amountMinor,
          currency: harness.currency,
          refundedMinor: 0,
          failureReason: null,
        });
        const { event } = last(await verified(providerPaymentId));
        expect(event, method).toMatchObject({
          provider: harness.name,
          type: 'payment.succeeded',
          providerPaymentId,
          orderId,
          status: 'succeeded',
          amountMinor,
          currency: harness.currency,
          version: payment.version,
        });
        expect(event.eventId).toEqual(expect.any(String));
      }
    });

    it('fails, with a reason, and says so in a signed callback', async () => {
      for (const method of harness.methods) {
        const { orderId, providerPaymentId } = await paid(method, 'fail');
        const payment = await provider.getPayment(providerPaymentId);
        expect(payment.status, method).toBe('failed');
        expect(payment.failureReason, method).not.toBeNull();
        const { event } = last(await verified(providerPaymentId));
        expect(event, method).toMatchObject({ type: 'payment.failed', providerPaymentId, orderId, status: 'failed' });
      }
    });

    it('gives a callback delivered twice the same event id: the store keeps it once', async () => {
      const method = harness.methods[0] as ProviderPaymentMethod;
      const { providerPaymentId } = await paid(method, 'succeed');
      const { delivery, event } = last(await verified(providerPaymentId));
      const again = applied(delivery);
      expect(again.eventId).toBe(event.eventId);
      expect(again.version).toBe(event.version);
    });

    it('lets a callback that comes after a newer one be told apart by its version', async () => {
      const method = harness.methods[0] as ProviderPaymentMethod;
      const { providerPaymentId } = await paid(method, 'succeed');
      await provider.refund({ providerPaymentId, amountMinor: 100, idempotencyKey: `${providerPaymentId}-oo` });
      const events = (await verified(providerPaymentId, 2)).map(({ event }) => event);
      // Oldest first, as sent: every version grows; replayed newest first, each older one is older.
      const versions = events.map((event) => event.version);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
      expect(new Set(versions).size).toBe(versions.length);
      const [newest, ...older] = [...events].reverse() as [PaymentCallbackEvent, ...PaymentCallbackEvent[]];
      for (const event of older) expect(event.version).toBeLessThan(newest.version);
      expect(new Set(events.map((event) => event.eventId)).size).toBe(events.length);
    });

    it('refunds part, then the rest, and says so in callbacks', async () => {
      for (const method of harness.methods) {
        const { providerPaymentId } = await paid(method, 'succeed');
        const part = 2_345;
        const first = await provider.refund({
          providerPaymentId,
          amountMinor: part,
          idempotencyKey: `${providerPaymentId}-r1`,
        });
        expect(first, method).toMatchObject({ providerPaymentId, amountMinor: part, status: 'succeeded' });
        // The same key refunds once.
        const repeated = await provider.refund({
          providerPaymentId,
          amountMinor: part,
          idempotencyKey: `${providerPaymentId}-r1`,
        });
        expect(repeated.refundId).toBe(first.refundId);
        const partly = await provider.getPayment(providerPaymentId);
        expect(partly, method).toMatchObject({ status: 'succeeded', refundedMinor: part });
        await provider.refund({
          providerPaymentId,
          amountMinor: amountMinor - part,
          idempotencyKey: `${providerPaymentId}-r2`,
        });
        const whole = await provider.getPayment(providerPaymentId);
        expect(whole, method).toMatchObject({ status: 'refunded', refundedMinor: amountMinor });
        expect(whole.version).toBeGreaterThan(partly.version);
        const refunds = (await verified(providerPaymentId, 3))
          .map(({ event }) => event)
          .filter((event) => event.type === 'payment.refunded');
        expect(
          refunds.map((event) => event.refundedMinor),
          method,
        ).toEqual([part, amountMinor]);
        expect(last(refunds).status).toBe('refunded');
      }
    });

    it('answers a payment by id, and an order’s payments newest first', async () => {
      const method = harness.methods.find((one) => one !== 'widget') ?? (harness.methods[0] as ProviderPaymentMethod);
      const orderId = newOrderId(harness.name);
      const ids: string[] = [];
      for (const outcome of ['fail', 'succeed'] as const) {
        const created = await provider.createPayment(harness.request(method, { orderId, amountMinor }));
        ids.push(await harness.completeAsCustomer(method, created, outcome, orderId));
      }
      const [failed, succeeded] = ids as [string, string];
      expect((await provider.getPayment(failed)).status).toBe('failed');
      expect((await provider.getPayment(succeeded)).status).toBe('succeeded');
      const listed = await provider.listPayments(orderId);
      expect(listed.map((payment) => payment.providerPaymentId)).toEqual([succeeded, failed]);
      expect(await provider.listPayments(newOrderId(harness.name))).toEqual([]);
    });

    it('refuses a callback whose body was altered, and one signed with the wrong secret', async (context) => {
      const method = harness.methods[0] as ProviderPaymentMethod;
      const { providerPaymentId } = await paid(method, 'succeed');
      const { delivery } = last(await verified(providerPaymentId));
      const tampered: CallbackDelivery = {
        ...delivery,
        rawBody: delivery.rawBody.replace(String(amountMinor), String(amountMinor + 1)),
      };
      expect(tampered.rawBody).not.toBe(delivery.rawBody);
      expect(() => provider.verifyCallback(tampered.rawBody, tampered.headers)).toThrow(CallbackVerificationError);
      expect(() => provider.verifyCallback(Buffer.from(tampered.rawBody), tampered.headers)).toThrow(
        CallbackVerificationError,
      );
      const { signWithWrongSecret } = harness;
      if (!signWithWrongSecret) return context.skip(`${harness.name}'s harness signs nothing with a wrong secret`);
      const forged = signWithWrongSecret(delivery);
      expect(forged.rawBody).toBe(delivery.rawBody);
      expect(() => provider.verifyCallback(forged.rawBody, forged.headers)).toThrow(CallbackVerificationError);
    });
  });
}

/** Why the live suite of a provider is not run now, or undefined when it is to run. */
export function liveContractSkipReason(
  provider: string,
  variables: readonly string[],
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  if (env.PROVIDER_CONTRACT_LIVE !== provider) return `PROVIDER_CONTRACT_LIVE is not ${provider}`;
  const missing = variables.filter((name) => !env[name]);
  if (missing.length > 0) return `PROVIDER_CONTRACT_LIVE=${provider} without ${missing.join(', ')}`;
  return undefined;
}

/**
 * The contract against a provider's real test mode, with its test keys in `variables`; the harness
 * reads them. Nothing is declared unless PROVIDER_CONTRACT_LIVE names the provider; asked for
 * without the keys, the suite is skipped with the reason in its title. Never in CI: the suite
 * reaches the provider over the internet, which CI does not.
 */
export function describeLiveProviderContract(
  provider: string,
  variables: readonly string[],
  makeHarness: () => Promise<ProviderContractHarness>,
  env: Record<string, string | undefined> = process.env,
) {
  if (env.PROVIDER_CONTRACT_LIVE !== provider) return;
  if (env.CI) throw new Error('PROVIDER_CONTRACT_LIVE is not for CI: the live suite reaches the provider');
  const reason = liveContractSkipReason(provider, variables, env);
  if (reason) {
    describe.skip(`provider contract, ${provider} test mode (${reason})`, () => {
      it('runs with the test keys', () => {});
    });
    return;
  }
  describe(`${provider} test mode`, () => describeProviderContract(makeHarness));
}
