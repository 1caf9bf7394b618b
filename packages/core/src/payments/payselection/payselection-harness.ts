/**
 * The provider contract suite's harness for Payselection: the adapter pointed at the local fake of
 * Payselection's gateway (payselection-fake.ts), and the fake's back office as the customer.
 */
import type {
  CreatePaymentRequest,
  PaymentResultByMethod,
  PayselectionWidgetPayment,
  ProviderPaymentMethod,
} from '../provider.ts';
import type { ProviderContractHarness } from '../provider-contract/harness.ts';
import { PAYSELECTION_FAKE_CARDS, startPayselectionFake } from './payselection-fake.ts';
import { createPayselectionProvider, PAYSELECTION_METHODS } from './payselection-provider.ts';

export const PAYSELECTION_TEST_SITE_ID = '20254';
export const PAYSELECTION_TEST_SECRET = 'test-secret-key-of-the-fake';
export const PAYSELECTION_TEST_CALLBACK_URL = 'https://store.test/api/payments/callback/payselection';

export async function createPayselectionHarness(): Promise<ProviderContractHarness> {
  const fake = await startPayselectionFake({ siteId: PAYSELECTION_TEST_SITE_ID, secretKey: PAYSELECTION_TEST_SECRET });
  const provider = createPayselectionProvider({
    siteId: PAYSELECTION_TEST_SITE_ID,
    secretKey: PAYSELECTION_TEST_SECRET,
    publicKey: '04-public-widget-key',
    apiUrl: fake.url,
    callbackUrl: PAYSELECTION_TEST_CALLBACK_URL,
    timeoutMs: 2_000,
  });

  function request<M extends ProviderPaymentMethod>(
    method: M,
    options: { orderId: string; amountMinor: number; threeDs?: boolean },
  ): Extract<CreatePaymentRequest, { method: M }> {
    const base = {
      orderId: options.orderId,
      amountMinor: options.amountMinor,
      currency: 'RUB',
      description: 'Gift card',
      language: 'ru',
    };
    const key = `${options.orderId}-${method}`;
    switch (method) {
      case 'widget':
        return {
          ...base,
          method,
          customerEmail: 'buyer@example.com',
          items: [{ name: 'Gift card', unitPriceMinor: options.amountMinor, quantity: 1 }],
        } as Extract<CreatePaymentRequest, { method: M }>;
      case 'card':
        return {
          ...base,
          method,
          card: {
            number: options.threeDs ? PAYSELECTION_FAKE_CARDS.threeDs2 : PAYSELECTION_FAKE_CARDS.success,
            expMonth: 12,
            expYear: 2030,
            cvc: '123',
          },
          browser: { ip: '203.0.113.7', screenHeight: 900, screenWidth: 1440, timeZoneOffset: -180, userAgent: 'test' },
          returnUrl: `https://store.test/?paymentConfirmOrder=${options.orderId}`,
          idempotencyKey: key,
        } as Extract<CreatePaymentRequest, { method: M }>;
      case 'qr':
        return { ...base, method, scheme: 'sbp', idempotencyKey: key } as Extract<CreatePaymentRequest, { method: M }>;
      default:
        throw new Error(`payselection does not serve ${method}`);
    }
  }

  async function completeAsCustomer<M extends ProviderPaymentMethod>(
    method: M,
    created: PaymentResultByMethod[M],
    outcome: 'succeed' | 'fail',
  ): Promise<string> {
    if (method === 'widget') {
      const widget = created as PayselectionWidgetPayment;
      const card = outcome === 'succeed' ? PAYSELECTION_FAKE_CARDS.success : PAYSELECTION_FAKE_CARDS.declined;
      return fake.submitWidget(widget.request, card);
    }
    if (method === 'qr') {
      const qr = created as PaymentResultByMethod['qr'];
      fake.paySbp(qr.providerPaymentId, outcome === 'succeed');
      return qr.providerPaymentId;
    }
    if (method === 'card') {
      const card = created as PaymentResultByMethod['card'];
      const status = card.outcome.status;
      if (status === '3DS' || status === '3DS_REDIRECT') {
        fake.answer3ds(card.providerPaymentId, outcome === 'succeed');
      } else if ((status === 'success') !== (outcome === 'succeed')) {
        throw new Error(`a card payment already ended ${status}: ask for threeDs to decide it as the customer`);
      }
      return card.providerPaymentId;
    }
    throw new Error(`payselection does not serve ${method}`);
  }

  return {
    name: 'payselection',
    provider,
    methods: PAYSELECTION_METHODS,
    currency: 'RUB',
    request,
    completeAsCustomer,
    callbacks: async (providerPaymentId) => fake.webhooks(providerPaymentId),
    close: () => fake.close(),
  };
}
