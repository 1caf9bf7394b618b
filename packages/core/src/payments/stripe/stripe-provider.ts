import { ErrorKeys } from '@store/contract';
import QRCode from 'qrcode';
import Stripe from 'stripe';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import {
  type CallbackHeaders,
  CallbackVerificationError,
  type CreatePaymentRequest,
  type IgnoredCallback,
  type PaymentCallbackEvent,
  type PaymentEventType,
  type PaymentFailureReason,
  type PaymentProvider,
  PaymentProviderUnavailableError,
  type PaymentResultByMethod,
  type ProviderPayment,
  type ProviderPaymentMethod,
  type ProviderPaymentStatus,
  type ProviderRefund,
  type RefundRequest,
} from '../provider.ts';

export interface StripeProviderConfig {
  /** STRIPE_SECRET_KEY (`sk_…`): the bearer of every server call. */
  secretKey: string;
  /** STRIPE_PUBLISHABLE_KEY (`pk_…`): handed to the page with the Payment Element. */
  publishableKey: string;
  /** STRIPE_WEBHOOK_SECRETS (`whsec_…`, comma separated): any one verifies; two during a rotation. */
  webhookSecrets: string[];
  /** STRIPE_API_URL: https://api.stripe.com unless a test points it at a local fake. */
  apiUrl?: string;
  /**
   * Unused by the adapter: Stripe's webhook endpoint is registered in its dashboard, as
   * `/api/payments/callback/stripe` on the store's origin (docs/payments.md, "Stripe").
   */
  callbackUrl?: string;
  timeoutMs?: number;
  /** Retries of a failed network call, each under the same idempotency key (Stripe's SDK); 1 by default. */
  maxNetworkRetries?: number;
  clock?: () => Date;
}

export const STRIPE_PROVIDER_NAME = 'stripe';

/**
 * What the adapter serves. Not `card`: the store's own card form would send raw card numbers to the
 * store's server and on to Stripe's API, which Stripe accepts only from accounts that carry the full
 * PCI DSS (SAQ D) burden; card data reaches Stripe through its Payment Element (`widget`) or Checkout
 * (`hosted_page`) instead, and the store never sees it. Not `upi`, nor `qr` with SBP: Stripe has
 * neither. `qr` is Pix only.
 */
export const STRIPE_METHODS = ['widget', 'hosted_page', 'qr'] as const satisfies readonly ProviderPaymentMethod[];

export const STRIPE_JS_URL = 'https://js.stripe.com/v3/' as const;

/** Stripe's signatures are refused when older than this (its own default, the store's 5 minutes). */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

/** What the store's method was, kept on the PaymentIntent: card PaymentIntents look alike otherwise. */
const METHOD_KEY = 'store_method';

type StoreMethod = (typeof STRIPE_METHODS)[number];

/** Stripe decline and error codes, as the store's failure reasons. */
export function failureReasonOf(code: string | null | undefined, declineCode?: string | null): PaymentFailureReason {
  const reason = declineCode ?? code;
  switch (reason) {
    case 'insufficient_funds':
      return 'insufficient_funds';
    case 'expired_card':
      return 'expired_card';
    case 'authentication_required':
    case 'authentication_not_handled':
    case 'payment_intent_authentication_failure':
      return '3ds_failed';
  }
  if (code === 'payment_intent_authentication_failure') return '3ds_failed';
  if (code === 'expired_card') return 'expired_card';
  return 'card_declined';
}

/**
 * The version of a payment's state, growing with every change at Stripe. Stripe's objects carry no
 * revision, so it is composed, most significant first:
 *   - when the state arose, in Stripe's seconds: an event's `created`, or for a payment read from the
 *     API the latest of its own timestamps (created, charged, last refund, dispute, cancelled), so that
 *     the state the API shows is never newer than the event that announced it;
 *   - the status's rank (init < pending < failed < succeeded): two changes in the same second;
 *   - how much of it was given back (refunds and lost disputes), in 2^18ths of the amount: refunds in
 *     the same second.
 * 2^31 seconds × 2^20 stays below 2^53: an exact JavaScript number. An older event arriving after a
 * newer one carries a smaller version, and the store does not apply it.
 */
export function stripeVersion(
  seconds: number,
  status: ProviderPaymentStatus,
  amountMinor: number,
  givenBackMinor: number,
): number {
  const rank = { init: 0, pending: 1, failed: 2, succeeded: 3, refunded: 3 }[status];
  const share = amountMinor > 0 ? Math.min(1, givenBackMinor / amountMinor) : 0;
  return Math.floor(seconds) * 2 ** 20 + rank * 2 ** 18 + Math.floor(share * (2 ** 18 - 1));
}

function header(headers: CallbackHeaders, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

function methodOf(intent: Stripe.PaymentIntent): ProviderPaymentMethod {
  const stored = intent.metadata?.[METHOD_KEY];
  if (stored === 'widget' || stored === 'hosted_page' || stored === 'qr') return stored;
  return intent.payment_method_types?.includes('pix') ? 'qr' : 'widget';
}

interface IntentState {
  status: ProviderPaymentStatus;
  failureReason: PaymentFailureReason | null;
}

function intentState(intent: Stripe.PaymentIntent, givenBackMinor: number): IntentState {
  switch (intent.status) {
    case 'succeeded':
      return { status: givenBackMinor >= intent.amount ? 'refunded' : 'succeeded', failureReason: null };
    case 'processing':
    case 'requires_action':
    case 'requires_capture':
      return { status: 'pending', failureReason: null };
    case 'canceled': {
      const cancelled = intent.cancellation_reason;
      const reason: PaymentFailureReason =
        cancelled === 'abandoned' || cancelled === 'requested_by_customer'
          ? 'cancelled_by_payer'
          : cancelled === 'automatic' || (cancelled as string) === 'expired'
            ? 'expired'
            : intent.last_payment_error
              ? failureReasonOf(intent.last_payment_error.code, intent.last_payment_error.decline_code)
              : 'cancelled_by_payer';
      return { status: 'failed', failureReason: reason };
    }
    default: {
      // requires_payment_method / requires_confirmation: waiting for the customer, unless an attempt
      // was refused (Stripe returns the PaymentIntent to requires_payment_method with the error).
      const error = intent.last_payment_error;
      if (error) return { status: 'failed', failureReason: failureReasonOf(error.code, error.decline_code) };
      return { status: 'init', failureReason: null };
    }
  }
}

function cardOf(charge: Stripe.Charge | null): { brand: string; last4: string } | null {
  const card = charge?.payment_method_details?.card;
  return card?.last4 ? { brand: card.brand ?? 'unknown', last4: card.last4 } : null;
}

function unixDate(seconds: number): Date {
  return new Date(seconds * 1000);
}

/** Stripe's error, as the port's: never its message when it could name a key. */
function translate(error: unknown, what: string): Error {
  if (!(error instanceof Stripe.errors.StripeError)) {
    return new PaymentProviderUnavailableError(`stripe ${what} failed`, { cause: undefined });
  }
  const code = error.code ?? error.type;
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    (error.statusCode ?? 500) >= 500
  ) {
    return new PaymentProviderUnavailableError(`stripe ${what}: ${error.statusCode ?? 'no answer'} (${code})`);
  }
  if (
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError
  ) {
    // Stripe's message quotes part of the key: only the status is kept.
    return new Error(`stripe refused the secret key (${error.statusCode}) on ${what}`);
  }
  if (error instanceof Stripe.errors.StripeIdempotencyError) {
    return new ConflictError(`stripe ${what}: the idempotency key was used with other parameters`);
  }
  if (error.statusCode === 404 || error.code === 'resource_missing') return new NotFoundError('Payment');
  if (error instanceof Stripe.errors.StripeCardError) {
    return ValidationError.field('card', ErrorKeys.invalidValue, `stripe ${what}: card refused (${code})`);
  }
  const field = error.param ? error.param.replace(/\[.*$/, '') : 'request';
  return ValidationError.field(field, ErrorKeys.invalidValue, `stripe ${what}: ${code}`);
}

/** The port over Stripe's API, with its official SDK. */
export function createStripeProvider(config: StripeProviderConfig) {
  const api = new URL(config.apiUrl ?? 'https://api.stripe.com');
  const protocol = api.protocol === 'http:' ? 'http' : 'https';
  const stripe = new Stripe(config.secretKey, {
    host: api.hostname,
    port: api.port || (protocol === 'http' ? 80 : 443),
    protocol,
    timeout: config.timeoutMs ?? 10_000,
    maxNetworkRetries: config.maxNetworkRetries ?? 1,
    telemetry: false,
  });
  const clock = config.clock ?? (() => new Date());
  const webhookSecrets = config.webhookSecrets.filter((secret) => secret.length > 0);

  async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw translate(error, what);
    }
  }

  /** The payment as the port knows it, from the PaymentIntent with its latest charge expanded. */
  async function toPayment(intent: Stripe.PaymentIntent): Promise<ProviderPayment> {
    const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    const refundedMinor = charge?.amount_refunded ?? 0;
    let chargedBackMinor = 0;
    const times = [intent.created, intent.canceled_at ?? 0, charge?.created ?? 0];
    if (charge?.disputed) {
      const disputes = await call('list disputes', () =>
        stripe.disputes.list({ payment_intent: intent.id, limit: 100 }),
      );
      for (const dispute of disputes.data) {
        times.push(dispute.created);
        if (dispute.status === 'lost') chargedBackMinor += dispute.amount;
      }
    }
    if (refundedMinor > 0) {
      const refunds = await call('list refunds', () => stripe.refunds.list({ payment_intent: intent.id, limit: 100 }));
      for (const refund of refunds.data) times.push(refund.created);
    }
    const { status, failureReason } = intentState(intent, refundedMinor + chargedBackMinor);
    const latest = Math.max(...times);
    return {
      providerPaymentId: intent.id,
      orderId: intent.metadata?.order_id ?? '',
      method: methodOf(intent),
      status,
      amountMinor: intent.amount,
      currency: intent.currency.toUpperCase(),
      refundedMinor,
      chargedBackMinor,
      failureReason,
      card: cardOf(charge),
      version: stripeVersion(latest, status, intent.amount, refundedMinor + chargedBackMinor),
      createdAt: unixDate(intent.created),
      updatedAt: unixDate(latest),
    };
  }

  function metadata(orderId: string, method: StoreMethod) {
    return { order_id: orderId, [METHOD_KEY]: method };
  }

  const create = async (request: CreatePaymentRequest): Promise<PaymentResultByMethod[ProviderPaymentMethod]> => {
    const currency = request.currency.toLowerCase();
    switch (request.method) {
      case 'widget': {
        const intent = await call('create payment intent', () =>
          stripe.paymentIntents.create(
            {
              amount: request.amountMinor,
              currency,
              description: request.description,
              receipt_email: request.customerEmail,
              allowed_payment_method_types: ['card'],
              // 3-D Secure when the card or Stripe's rules ask for it.
              payment_method_options: { card: { request_three_d_secure: 'automatic' } },
              metadata: metadata(request.orderId, 'widget'),
            },
            request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : {},
          ),
        );
        if (!intent.client_secret) throw new PaymentProviderUnavailableError('stripe answered no client secret');
        return {
          kind: 'stripe_payment_element',
          providerPaymentId: intent.id,
          publishableKey: config.publishableKey,
          clientSecret: intent.client_secret,
          scriptUrl: STRIPE_JS_URL,
        };
      }
      case 'hosted_page': {
        const session = await call('create checkout session', () =>
          stripe.checkout.sessions.create(
            {
              mode: 'payment',
              line_items: [
                {
                  quantity: 1,
                  price_data: {
                    currency,
                    unit_amount: request.amountMinor,
                    product_data: { name: request.description },
                  },
                },
              ],
              allowed_payment_method_types: ['card'],
              success_url: request.returnUrl,
              cancel_url: request.returnUrl,
              client_reference_id: request.orderId,
              metadata: metadata(request.orderId, 'hosted_page'),
              payment_intent_data: {
                description: request.description,
                metadata: metadata(request.orderId, 'hosted_page'),
              },
              ...(request.language ? { locale: checkoutLocale(request.language) } : {}),
            },
            { idempotencyKey: request.idempotencyKey },
          ),
        );
        if (!session.url) throw new PaymentProviderUnavailableError('stripe answered a checkout session without a URL');
        return { kind: 'hosted_redirect', providerPaymentId: null, redirectUrl: session.url };
      }
      case 'qr': {
        if (request.scheme !== 'pix') {
          throw ValidationError.field('scheme', ErrorKeys.invalidValue, `stripe does not serve ${request.scheme}`);
        }
        const expiresAfter = request.expiresAt
          ? Math.max(10, Math.floor((request.expiresAt.getTime() - clock().getTime()) / 1000))
          : undefined;
        const intent = await call('create pix payment intent', () =>
          stripe.paymentIntents.create(
            {
              amount: request.amountMinor,
              currency,
              description: request.description,
              allowed_payment_method_types: ['pix'],
              payment_method_data: {
                type: 'pix',
                ...(request.payer?.firstName ? { billing_details: { name: request.payer.firstName } } : {}),
              },
              ...(expiresAfter ? { payment_method_options: { pix: { expires_after_seconds: expiresAfter } } } : {}),
              confirm: true,
              metadata: metadata(request.orderId, 'qr'),
            },
            { idempotencyKey: request.idempotencyKey },
          ),
        );
        const pix = intent.next_action?.pix_display_qr_code;
        if (!pix?.data || !pix.expires_at) {
          throw new PaymentProviderUnavailableError(`stripe left pix payment ${intent.id} without a QR code`);
        }
        const png = await QRCode.toBuffer(pix.data, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 6 });
        return {
          kind: 'qr',
          providerPaymentId: intent.id,
          image: { media_type: 'image/png', content: png.toString('base64') },
          payload: pix.data,
          payLink: pix.hosted_instructions_url ?? '',
          expiresAt: unixDate(pix.expires_at),
        };
      }
      case 'card':
      case 'upi':
        throw ValidationError.field(
          'method',
          ErrorKeys.invalidValue,
          `stripe does not serve ${request.method} (it serves ${STRIPE_METHODS.join(', ')})`,
        );
    }
  };

  /** The event as the port's, from the PaymentIntent or Charge it carries; null when it has no use. */
  function toEvent(event: Stripe.Event): PaymentCallbackEvent | IgnoredCallback {
    const ignored = (providerPaymentId: string | null): IgnoredCallback => ({
      ignored: true,
      provider: STRIPE_PROVIDER_NAME,
      eventId: event.id,
      providerEventType: event.type,
      providerPaymentId,
    });
    const base = (
      type: PaymentEventType,
      fields: Omit<
        PaymentCallbackEvent,
        'provider' | 'eventId' | 'type' | 'occurredAt' | 'payload' | 'version' | 'chargedBackMinor'
      > & { chargedBackMinor?: number },
    ): PaymentCallbackEvent => {
      const chargedBackMinor = fields.chargedBackMinor ?? 0;
      return {
        ...fields,
        chargedBackMinor,
        provider: STRIPE_PROVIDER_NAME,
        eventId: event.id,
        type,
        occurredAt: unixDate(event.created),
        payload: event,
        version: stripeVersion(
          event.created,
          fields.status,
          fields.amountMinor,
          fields.refundedMinor + chargedBackMinor,
        ),
      };
    };
    switch (event.type) {
      case 'payment_intent.processing':
      case 'payment_intent.requires_action':
      case 'payment_intent.succeeded':
      case 'payment_intent.payment_failed':
      case 'payment_intent.canceled': {
        const intent = event.data.object;
        if (!intent.metadata?.order_id) return ignored(intent.id);
        const state = intentState(intent, 0);
        const type: PaymentEventType =
          state.status === 'succeeded'
            ? 'payment.succeeded'
            : state.status === 'failed'
              ? 'payment.failed'
              : 'payment.pending';
        return base(type, {
          providerPaymentId: intent.id,
          orderId: intent.metadata.order_id,
          method: methodOf(intent),
          status: state.status === 'init' ? 'pending' : state.status,
          amountMinor: intent.amount,
          currency: intent.currency.toUpperCase(),
          refundedMinor: 0,
          failureReason: state.failureReason,
          card: null,
        });
      }
      case 'charge.refunded': {
        // The Charge carries the running total of its refunds; `refund.updated` carries one refund
        // and is left to a poll (ignored below, naming its payment).
        const charge = event.data.object;
        const intentId = idOf(charge.payment_intent);
        if (!intentId || !charge.metadata?.order_id) return ignored(intentId);
        const full = charge.amount_refunded >= charge.amount;
        return base('payment.refunded', {
          providerPaymentId: intentId,
          orderId: charge.metadata.order_id,
          method: (charge.metadata[METHOD_KEY] as StoreMethod | undefined) ?? 'widget',
          status: full ? 'refunded' : 'succeeded',
          amountMinor: charge.amount,
          currency: charge.currency.toUpperCase(),
          refundedMinor: charge.amount_refunded,
          failureReason: null,
          card: cardOf(charge),
        });
      }
      case 'refund.updated':
      case 'refund.created':
      case 'refund.failed':
        // A Refund carries itself, not the charge's running total nor the order: the store asks about
        // the payment it names (the callback route). One that fails after it was announced lowers
        // the charge's total, which the store does not follow (docs/payments.md, "Stripe").
        return ignored(idOf(event.data.object.payment_intent));
      case 'charge.dispute.closed':
      case 'charge.dispute.created':
      case 'charge.dispute.updated':
      case 'charge.dispute.funds_withdrawn':
      case 'charge.dispute.funds_reinstated':
        // A Dispute names its PaymentIntent, not the order, nor the refunds already made: the store
        // asks the provider about the payment, and getPayment counts the disputes lost as its
        // chargebacks; one open or won takes nothing back.
        return ignored(idOf(event.data.object.payment_intent));
      case 'checkout.session.completed':
        // The PaymentIntent's own events (payment_intent.succeeded) say what the payment did.
        return ignored(idOf(event.data.object.payment_intent));
      default:
        return ignored(null);
    }
  }

  return {
    name: STRIPE_PROVIDER_NAME,
    methods: STRIPE_METHODS,

    createPayment: create as PaymentProvider['createPayment'],

    async getPayment(providerPaymentId: string): Promise<ProviderPayment> {
      const intent = await call('retrieve payment intent', () =>
        stripe.paymentIntents.retrieve(providerPaymentId, { expand: ['latest_charge'] }),
      );
      return toPayment(intent);
    },

    async listPayments(orderId: string): Promise<ProviderPayment[]> {
      // Stripe's search language: the value quoted, a quote in it escaped.
      const query = `metadata['order_id']:'${orderId.replace(/['\\]/g, '\\$&')}'`;
      const found = await call('search payment intents', () =>
        stripe.paymentIntents.search({ query, limit: 100, expand: ['data.latest_charge'] }),
      );
      const payments = await Promise.all(found.data.map(toPayment));
      return payments.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    },

    verifyCallback(rawBody: string | Buffer, headers: CallbackHeaders): PaymentCallbackEvent | IgnoredCallback {
      const signature = header(headers, 'stripe-signature');
      if (!signature) throw new CallbackVerificationError('missing_headers', 'the Stripe-Signature header is required');
      if (webhookSecrets.length === 0) {
        throw new CallbackVerificationError('bad_signature', 'no webhook secret is configured here');
      }
      let event: Stripe.Event | null = null;
      let stale = false;
      for (const secret of webhookSecrets) {
        try {
          event = stripe.webhooks.constructEvent(
            rawBody,
            signature,
            secret,
            STRIPE_WEBHOOK_TOLERANCE_SECONDS,
            undefined,
            clock().getTime(),
          );
          break;
        } catch (error) {
          if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
            // Stripe checks the signature first: a stale one was signed with this secret.
            if (/tolerance/i.test(error.message)) stale = true;
            continue;
          }
          // Signed, but not JSON.
          throw new CallbackVerificationError('malformed_body', 'the callback body is not a Stripe event');
        }
      }
      if (!event) {
        throw stale
          ? new CallbackVerificationError('stale_timestamp', 'the callback timestamp is outside the 5-minute tolerance')
          : new CallbackVerificationError('bad_signature', 'no webhook secret verifies the signature');
      }
      if (typeof event.id !== 'string' || typeof event.type !== 'string' || !event.data?.object) {
        throw new CallbackVerificationError('malformed_body', 'the callback body is not a Stripe event');
      }
      return toEvent(event);
    },

    async refund({ providerPaymentId, amountMinor, idempotencyKey }: RefundRequest): Promise<ProviderRefund> {
      const refund = await call('create refund', () =>
        stripe.refunds.create({ payment_intent: providerPaymentId, amount: amountMinor }, { idempotencyKey }),
      );
      if (refund.status === 'failed' || refund.status === 'canceled') {
        throw new ConflictError(`stripe refused refund ${refund.id} (${refund.status})`);
      }
      return {
        refundId: refund.id,
        providerPaymentId: idOf(refund.payment_intent) ?? providerPaymentId,
        amountMinor: refund.amount,
        status: 'succeeded',
      };
    },
  } satisfies PaymentProvider & { methods: typeof STRIPE_METHODS };
}

/** Checkout's own languages; Hindi is not one of them, so Stripe asks the browser. */
function checkoutLocale(language: string): Stripe.Checkout.SessionCreateParams.Locale {
  switch (language) {
    case 'pt-BR':
      return 'pt-BR';
    case 'en':
      return 'en';
    case 'ru':
      return 'ru';
    default:
      return 'auto';
  }
}
