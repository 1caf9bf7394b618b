/**
 * The payment provider port: what the store asks of a card/QR/UPI provider, whichever it is. The
 * sandbox adapter (sandbox-provider.ts) is the first implementation; a real provider is another
 * file behind the same interface.
 *
 * Money is integer minor units everywhere in this file. Card data passes through `createPayment`
 * to the provider and comes back as brand and last four digits only: nothing here keeps or logs more.
 *
 * The provider never completes an order: its answers (`createPayment`, `getPayment`) tell the
 * browser what to show; only a verified callback (`verifyCallback`), stored and processed by the
 * worker, moves an order to paid. `getPayment` feeds that same path when a callback is late.
 */

/** How the customer pays at the provider (docs/payments.md). */
export type ProviderPaymentMethod = 'widget' | 'hosted_page' | 'card' | 'qr' | 'upi';

/**
 * A payment's state at the provider. `init`: waiting for the customer (a widget not yet submitted,
 * a QR not yet paid); `pending`: submitted, waiting for 3-D Secure; `succeeded` and `failed` are
 * final; `refunded`: succeeded, then all of it given back, by refunds or chargebacks (a partial one
 * stays `succeeded` with `refundedMinor` or `chargedBackMinor` above zero).
 */
export type ProviderPaymentStatus = 'init' | 'pending' | 'succeeded' | 'failed' | 'refunded';

/** Why a payment failed, as the provider reports it. */
export type PaymentFailureReason =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | '3ds_failed'
  | 'refused_by_payer'
  | 'cancelled_by_payer'
  /** Left waiting (a QR not paid, a challenge not answered) past the provider's time limit. */
  | 'expired';

/** All that the store may keep of a card (docs/architecture.md, "Money and codes": brand and last four, nothing else). */
export interface CardSummary {
  brand: string;
  last4: string;
}

interface PaymentBase {
  /** The store's order id; the provider echoes it in every callback. */
  orderId: string;
  amountMinor: number;
  /** ISO 4217, upper case (RUB, BRL, INR...). */
  currency: string;
  /** What is bought, as the customer's bank statement or receipt shows it. */
  description: string;
  /**
   * The customer's language (`pt-BR`, `en`, `ru`, `hi`), for the provider's own pages: its card
   * form, 3-D Secure check, transfer and UPI pages. Without it the provider asks the browser.
   */
  language?: string;
}

/** One receipt line of the widget request (docs/payments.md, "The widget request"). */
export interface ReceiptItem {
  name: string;
  unitPriceMinor: number;
  quantity: number;
}

/** The provider's card widget, opened by the page with the returned request. */
export interface WidgetPaymentRequest extends PaymentBase {
  method: 'widget';
  customerEmail: string;
  /** Their sums must add up to `amountMinor`: the provider refuses the request otherwise. */
  items: ReceiptItem[];
  /**
   * A provider that creates the payment at once (Stripe's PaymentIntent) sends it as its idempotency
   * key: the same key opens the same payment. The sandbox's widget creates none until submitted.
   */
  idempotencyKey?: string;
}

/** The provider's hosted payment page, reached by a form POST of a signed request. */
export interface HostedPagePaymentRequest extends PaymentBase {
  method: 'hosted_page';
  /** The customer's address as the store's route saw it (Fastify's request.ip). */
  customerIp: string;
  /** Where the browser returns after paying; on the store's own origin. */
  returnUrl: string;
  /** Sent as the request's `token`: the same key opens the same payment at the provider. */
  idempotencyKey: string;
}

/** Card data from the store's own card form: passed through, never stored. */
export interface CardDetails {
  number: string;
  expMonth: number;
  /** Four digits. */
  expYear: number;
  cvc: string;
}

/** What the card form sends along for 3-D Secure (POST /payment, docs/payments.md, "The card"). */
export interface BrowserInfo {
  ip: string;
  screenHeight?: number;
  screenWidth?: number;
  timeZoneOffset?: number;
  userAgent?: string;
}

/** The store's own card form: the card goes to the provider's card API. */
export interface CardPaymentRequest extends PaymentBase {
  method: 'card';
  card: CardDetails;
  browser: BrowserInfo;
  /** Where the browser lands after a 3-D Secure challenge; on the store's own origin. */
  returnUrl: string;
  /** The same key returns the same payment: a retried request never charges twice. */
  idempotencyKey: string;
}

/** Instant bank transfer: PIX in Brazil, SBP (a pay link in the QR) elsewhere. */
export interface QrPaymentRequest extends PaymentBase {
  method: 'qr';
  scheme: 'pix' | 'sbp';
  payer?: { personalId?: string; firstName?: string };
  /** Where the provider's confirm page links back to, if anywhere; on the store's own origin. */
  returnUrl?: string;
  idempotencyKey: string;
  /**
   * The payment may not be paid after this (the order's own expiry): the provider's code stops
   * working then, or at its own limit if that comes first.
   */
  expiresAt?: Date;
}

/** The UPI-style order (POST /orders/create-upi, docs/payments.md). */
export interface UpiPaymentRequest extends PaymentBase {
  method: 'upi';
  customer: {
    firstName: string;
    accountNumber: string;
    email: string;
    phone: string;
    zip: string;
    address: string;
  };
  /** Each on the store's own origin: the provider refuses any other (no open redirect). */
  successUrl: string;
  declineUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
  /** As a QR payment's: the payment may not be paid after this. */
  expiresAt?: Date;
}

export type CreatePaymentRequest =
  | WidgetPaymentRequest
  | HostedPagePaymentRequest
  | CardPaymentRequest
  | QrPaymentRequest
  | UpiPaymentRequest;

/**
 * The widget's parameters for the page: load `scriptUrl`, then
 * `SandboxPay.pay(request, { onSuccess, onError, onClose })`. The provider creates the payment when
 * the customer submits the widget's form, so there is no provider payment id yet: the callback
 * names the order.
 */
export interface WidgetPayment {
  kind: 'widget';
  providerPaymentId: null;
  scriptUrl: string;
  request: WidgetRequest;
}

/** The widget request (docs/payments.md), as the provider's widget takes it. */
export interface WidgetRequest {
  order_id: string;
  /** Decimal string with two places ("150.00"): amounts never travel as floats. */
  amount: string;
  currency: string;
  description: string;
  receipt: {
    email: string;
    items: Array<{
      name: string;
      price: string;
      quantity: number;
      sum: string;
      payment_method: 'full_prepayment';
      payment_object: 'service';
      vat: 'none';
    }>;
    payments: [{ type: 'electronic'; sum: string }];
  };
}

/**
 * Payselection's Pay Widget (payselection/payselection-widget.ts): load `scriptUrl`, then
 * `new pw.PayWidget().pay({ serviceId, key }, request, callbacks)`. As with the sandbox's widget the
 * payment exists only once the customer submits it, so the callback names the order.
 */
export interface PayselectionWidgetPayment {
  kind: 'payselection_widget';
  providerPaymentId: null;
  scriptUrl: string;
  /** The merchant's site id, public. */
  serviceId: string;
  /** The widget's public key from the merchant's back office: public, unlike the secret key. */
  key: string;
  request: PayselectionWidgetRequest;
}

/** A receipt in Payselection's `ReceiptData` layout (FFD 1.05, ATOL-style): amounts as numbers of roubles. */
export interface PayselectionReceiptData {
  timestamp: string;
  external_id: string;
  receipt: {
    client: { email: string };
    company: { email?: string; inn?: string; sno?: string; payment_address: string };
    items: Array<{
      name: string;
      price: number;
      quantity: number;
      sum: number;
      payment_method: 'full_prepayment';
      payment_object: 'service';
      vat: { type: 'none' };
    }>;
    payments: [{ type: 1; sum: number }];
    total: number;
  };
}

/** The widget's request (`PaymentRequest`, `CustomerInfo`, `ReceiptData`), as pw.PayWidget takes it. */
export interface PayselectionWidgetRequest {
  MetaData: { PaymentType: 'Pay' };
  PaymentRequest: {
    OrderId: string;
    /** Decimal string with two places ("150.00"). */
    Amount: string;
    Currency: string;
    Description: string;
    ExtraData: { WebhookUrl: string };
  };
  CustomerInfo: { Email: string; ReceiptEmail: string; Language?: string };
  ReceiptData: PayselectionReceiptData;
}

/**
 * Stripe's Payment Element: the page loads `scriptUrl` (Stripe.js), mounts the element with
 * `clientSecret` under `publishableKey`, and confirms the PaymentIntent `providerPaymentId` from the
 * browser; the card never reaches the store.
 */
export interface StripePaymentElement {
  kind: 'stripe_payment_element';
  providerPaymentId: string;
  publishableKey: string;
  clientSecret: string;
  scriptUrl: 'https://js.stripe.com/v3/';
}

/** A form the browser posts to the provider: `<form method="post" action>` with hidden `fields`. */
export interface HostedPagePayment {
  kind: 'form_post';
  providerPaymentId: null;
  action: string;
  fields: { Request: string };
}

/**
 * A hosted page reached by a plain redirect (Stripe Checkout): send the browser to `redirectUrl`.
 * The provider's payment id is known only once the customer pays (its callback names the order).
 */
export interface HostedPageRedirect {
  kind: 'hosted_redirect';
  providerPaymentId: null;
  redirectUrl: string;
}

/** The own card form's answer, by status (docs/payments.md, "The card"). */
export type CardOutcome =
  | { status: 'success' }
  | { status: 'failure'; reason: PaymentFailureReason }
  /** Post PaReq, MD and TermUrl as hidden fields to redirectUrl. */
  | { status: '3DS'; redirectUrl: string; PaReq: string; MD: string; TermUrl: string }
  /** Go to redirectUrl with redirectParams (query for GET, hidden fields for POST). */
  | {
      status: '3DS_REDIRECT';
      redirectMethod: 'GET' | 'POST';
      redirectUrl: string;
      redirectParams: Record<string, string>;
    };

export interface CardPayment {
  kind: 'card';
  providerPaymentId: string;
  card: CardSummary;
  outcome: CardOutcome;
}

/** The QR and bank-transfer data (docs/payments.md): the image as data URL parts, and the pay link. */
export interface QrPayment {
  kind: 'qr';
  providerPaymentId: string;
  image: { media_type: 'image/png'; content: string };
  /** What the QR encodes: a PIX BR Code, or the pay link for SBP. */
  payload: string;
  payLink: string;
  expiresAt: Date;
}

/** Send the browser to the provider's page; it comes back to one of the store's URLs. */
export interface UpiPayment {
  kind: 'redirect';
  providerPaymentId: string;
  redirectUrl: string;
  /** The `upi://pay?...` intent the provider's page offers. */
  intent: string;
}

export interface PaymentResultByMethod {
  widget: WidgetPayment | PayselectionWidgetPayment | StripePaymentElement;
  hosted_page: HostedPagePayment | HostedPageRedirect;
  card: CardPayment;
  qr: QrPayment;
  upi: UpiPayment;
}

/** A payment as the provider knows it now. */
export interface ProviderPayment {
  providerPaymentId: string;
  orderId: string;
  method: ProviderPaymentMethod;
  status: ProviderPaymentStatus;
  amountMinor: number;
  currency: string;
  /** What the merchant gave back of it so far (refunds through the provider's API or dashboard). */
  refundedMinor: number;
  /** What the card's bank took back of it so far (chargebacks the merchant lost). */
  chargedBackMinor: number;
  failureReason: PaymentFailureReason | null;
  card: CardSummary | null;
  /** Grows with every change, as in callbacks: what the store applied last is told apart from news. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export type PaymentEventType =
  | 'payment.pending'
  | 'payment.succeeded'
  | 'payment.failed'
  | 'payment.refunded'
  | 'payment.charged_back';

/**
 * A verified callback. `eventId` is the provider's unique id for the event (the Standard Webhooks
 * `webhook-id`): the same event delivered twice carries the same id, so storing it under a unique
 * key makes a duplicate a no-op. `version` grows with every change of the payment: an event older
 * than one already applied changes nothing (callbacks arrive out of order). Its fields are the
 * payment as the provider knew it at that version.
 */
export interface PaymentCallbackEvent extends Omit<ProviderPayment, 'createdAt' | 'updatedAt'> {
  provider: string;
  eventId: string;
  type: PaymentEventType;
  occurredAt: Date;
  /** The parsed body, for `payment_events.payload`. */
  payload: unknown;
}

/**
 * A verified callback the store does not apply as such: an event type it does not use, or one whose
 * body does not carry the whole payment (a Stripe dispute names its PaymentIntent, not the order).
 * The endpoint acknowledges it (200) so the provider stops sending it, and stores nothing; when
 * `providerPaymentId` is set, that payment changed and asking the provider (`getPayment`) learns how.
 */
export interface IgnoredCallback {
  ignored: true;
  provider: string;
  eventId: string;
  /** The provider's own name for the event (`checkout.session.completed`), for the log. */
  providerEventType: string;
  providerPaymentId: string | null;
}

export interface RefundRequest {
  providerPaymentId: string;
  amountMinor: number;
  /** The same key refunds once, however often it is sent. */
  idempotencyKey: string;
  /**
   * What the refund receipt shows, for a provider that issues fiscal receipts (Payselection: a
   * refund carries its own `ReceiptData`). Its items add up to `amountMinor`.
   */
  receipt?: { email: string; items: ReceiptItem[] };
}

export interface ProviderRefund {
  refundId: string;
  providerPaymentId: string;
  amountMinor: number;
  status: 'succeeded';
}

export interface PaymentProvider {
  /** Stored in `payments.provider` and `payment_events.provider`. */
  readonly name: string;
  /**
   * Starts a payment. A request the provider refuses (a Luhn-invalid card, a redirect URL off the
   * store's origin, items not adding up) is a ValidationError naming the field; an unreachable
   * provider is a PaymentProviderUnavailableError.
   */
  createPayment<M extends ProviderPaymentMethod>(
    request: Extract<CreatePaymentRequest, { method: M }>,
  ): Promise<PaymentResultByMethod[M]>;
  /** NotFoundError when the provider does not know it. */
  getPayment(providerPaymentId: string): Promise<ProviderPayment>;
  /** Every payment the provider has for an order, newest first (a widget payment is known only so). */
  listPayments(orderId: string): Promise<ProviderPayment[]>;
  /**
   * Verifies a callback over its raw body and headers and parses it. Throws
   * CallbackVerificationError for a missing or wrong signature, a timestamp outside the tolerance,
   * or a body that is not an event; nothing of such a request may be acted upon. A verified event
   * of no use to the store is an IgnoredCallback, not an error.
   */
  verifyCallback(rawBody: string | Buffer, headers: CallbackHeaders): PaymentCallbackEvent | IgnoredCallback;
  /** Refunds part or all of a succeeded payment; the provider also sends a payment.refunded callback. */
  refund(request: RefundRequest): Promise<ProviderRefund>;
}

/** Request headers as Fastify and Node give them. */
export type CallbackHeaders = Record<string, string | string[] | undefined>;

export type CallbackRejection = 'missing_headers' | 'bad_signature' | 'stale_timestamp' | 'malformed_body';

/** A callback that must not be acted upon; the endpoint answers 400/401 and changes nothing. */
export class CallbackVerificationError extends Error {
  constructor(
    readonly reason: CallbackRejection,
    message: string,
  ) {
    // The answer to a forged request, not a fault to trace: a flood makes thousands a second, and
    // capturing each one's stack cost more than the signature check that refused it.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'CallbackVerificationError';
  }
}

/**
 * The provider could not be reached or failed on its side (network error, timeout, 5xx). Nothing is
 * known about the payment: the caller may retry with the same idempotency key.
 */
export class PaymentProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentProviderUnavailableError';
  }
}
