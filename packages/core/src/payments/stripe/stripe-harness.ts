/**
 * The provider contract suite's harness for Stripe: the adapter pointed at the local fake
 * (stripe-fake.ts), with the fake's back office acting as the customer. Test support only.
 */
import type { CreatePaymentRequest, PaymentResultByMethod, ProviderPaymentMethod } from '../provider.ts';
import type { CallbackDelivery, CustomerOutcome, ProviderContractHarness } from '../provider-contract/harness.ts';
import { startStripeFake, TEST_CARDS } from './stripe-fake.ts';
import { createStripeProvider, STRIPE_METHODS } from './stripe-provider.ts';

const SECRET_KEY = 'sk_test_contract';
const WEBHOOK_SECRET = 'whsec_contract';

export async function createStripeHarness(): Promise<ProviderContractHarness> {
  const fake = await startStripeFake({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  const provider = createStripeProvider({
    secretKey: SECRET_KEY,
    publishableKey: 'pk_test_contract',
    webhookSecrets: [WEBHOOK_SECRET],
    apiUrl: fake.url,
    maxNetworkRetries: 0,
    timeoutMs: 2_000,
  });
  /** The orders whose card asks for 3-D Secure. */
  const threeDsOrders = new Set<string>();

  function request(
    method: ProviderPaymentMethod,
    options: { orderId: string; amountMinor: number; threeDs?: boolean },
  ): CreatePaymentRequest {
    if (options.threeDs) threeDsOrders.add(options.orderId);
    const base = {
      orderId: options.orderId,
      amountMinor: options.amountMinor,
      currency: 'BRL',
      description: `Order ${options.orderId}`,
    };
    switch (method) {
      case 'widget':
        return {
          ...base,
          method,
          customerEmail: 'customer@example.com',
          items: [{ name: 'Gift card', unitPriceMinor: options.amountMinor, quantity: 1 }],
          idempotencyKey: `widget-${options.orderId}`,
        };
      case 'hosted_page':
        return {
          ...base,
          method,
          customerIp: '127.0.0.1',
          returnUrl: `https://store.example/?paymentConfirmOrder=${options.orderId}`,
          idempotencyKey: `hosted-${options.orderId}`,
        };
      case 'qr':
        return { ...base, method, scheme: 'pix', idempotencyKey: `qr-${options.orderId}` };
      default:
        throw new Error(`stripe does not serve ${method}`);
    }
  }

  function cardFor(orderId: string, outcome: CustomerOutcome): string {
    if (threeDsOrders.has(orderId)) return TEST_CARDS.threeDs;
    return outcome === 'succeed' ? TEST_CARDS.succeeds : TEST_CARDS.declined;
  }

  return {
    name: 'stripe',
    provider,
    methods: STRIPE_METHODS,
    currency: 'BRL',
    request: request as ProviderContractHarness['request'],
    async completeAsCustomer<M extends ProviderPaymentMethod>(
      method: M,
      created: PaymentResultByMethod[M],
      outcome: CustomerOutcome,
      orderId: string,
    ): Promise<string> {
      const result = created as PaymentResultByMethod[ProviderPaymentMethod];
      if (method === 'qr' && result.kind === 'qr') {
        fake.settlePix(result.providerPaymentId, outcome === 'succeed');
        return result.providerPaymentId;
      }
      if (result.kind === 'stripe_payment_element') {
        fake.confirmCard(result.providerPaymentId, cardFor(orderId, outcome));
        if (threeDsOrders.has(orderId)) fake.answerThreeDs(result.providerPaymentId, outcome === 'succeed');
        return result.providerPaymentId;
      }
      if (result.kind === 'hosted_redirect') {
        const session = result.redirectUrl.split('/').at(-1) ?? '';
        const intent = fake.completeCheckout(session, cardFor(orderId, outcome));
        if (threeDsOrders.has(orderId)) fake.answerThreeDs(intent, outcome === 'succeed');
        return intent;
      }
      throw new Error(`stripe harness cannot complete a ${result.kind}`);
    },
    async callbacks(providerPaymentId: string): Promise<CallbackDelivery[]> {
      // What Stripe sends that the store applies: the events the adapter acknowledges and ignores
      // (refund.updated, checkout.session.completed, disputes) are its own tests' concern.
      return fake
        .callbacks(providerPaymentId)
        .filter((delivery) => !('ignored' in provider.verifyCallback(delivery.rawBody, delivery.headers)));
    },
    close: () => fake.close(),
  };
}
