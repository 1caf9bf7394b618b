/**
 * What the provider contract suite (provider-contract.ts) needs of each adapter under test: the
 * adapter itself, pointed at a local fake of its provider's documented HTTP API, and a way to act
 * as the customer and as the provider's back office at that fake. The same scenarios run against
 * every adapter (create, 3-D Secure, succeed, fail, duplicate callback, out-of-order callback,
 * refund, poll); with a provider's test-mode keys a harness can point at the real test API instead.
 *
 * Nothing here reaches the internet in CI: every harness in the repository starts its fake on a
 * loopback port (or routes the adapter's fetch to it).
 */
import type {
  CallbackHeaders,
  CreatePaymentRequest,
  PaymentProvider,
  PaymentResultByMethod,
  ProviderPaymentMethod,
} from '../provider.ts';

/** A callback as the provider delivers it: what the store's callback route receives. */
export interface CallbackDelivery {
  rawBody: string;
  headers: CallbackHeaders;
}

/** How the customer ends a payment at the provider. */
export type CustomerOutcome = 'succeed' | 'fail';

export interface ProviderContractHarness {
  /** For the suite's titles: `sandbox`, `stripe`, `payselection`. */
  readonly name: string;
  /** The adapter under test. */
  readonly provider: PaymentProvider;
  /** The methods this adapter serves; the suite runs each scenario on the ones that apply. */
  readonly methods: readonly ProviderPaymentMethod[];
  /** The currency the suite charges in (a provider's test account may support only some). */
  readonly currency: string;
  /**
   * A valid request of the given method for a new order, with an amount in minor units. For a
   * card-like method, `threeDs` asks for a card (or test mode) that requires a 3-D Secure check.
   */
  request<M extends ProviderPaymentMethod>(
    method: M,
    options: { orderId: string; amountMinor: number; threeDs?: boolean },
  ): Extract<CreatePaymentRequest, { method: M }>;
  /**
   * Acts as the customer at the provider after `createPayment` answered `created`: submits the
   * widget or the hosted page, answers the 3-D Secure check, pays or refuses the QR or UPI payment.
   * Answers the provider's payment id (a widget payment gets one only here).
   */
  completeAsCustomer<M extends ProviderPaymentMethod>(
    method: M,
    created: PaymentResultByMethod[M],
    outcome: CustomerOutcome,
    orderId: string,
  ): Promise<string>;
  /**
   * The callbacks the provider has sent (or would send) about a payment, oldest first, signed as
   * the provider signs them. The suite replays them, reorders them and tampers with them.
   */
  callbacks(providerPaymentId: string): Promise<CallbackDelivery[]>;
  /**
   * Optional (added after the first version of this interface): the same callback, body unchanged,
   * signed as the provider signs but with a secret the adapter does not hold. Without it the suite
   * checks only the altered body, and says it skipped the wrong secret.
   */
  signWithWrongSecret?(delivery: CallbackDelivery): CallbackDelivery;
  /** Stops the fake. */
  close(): Promise<void>;
}
