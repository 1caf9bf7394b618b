import { createHmac, timingSafeEqual } from 'node:crypto';
import { ErrorKeys } from '@store/contract';
import { z } from 'zod';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { minorToDecimalString } from './amounts.ts';
import { encodeHostedPageRequest } from './hosted-page-request.ts';
import {
  type CallbackHeaders,
  CallbackVerificationError,
  type CardOutcome,
  type CreatePaymentRequest,
  type PaymentCallbackEvent,
  type PaymentProvider,
  PaymentProviderUnavailableError,
  type PaymentResultByMethod,
  type ProviderPayment,
  type ProviderPaymentMethod,
  type ProviderRefund,
  type RefundRequest,
  type WidgetPaymentRequest,
  type WidgetRequest,
} from './provider.ts';

export interface SandboxProviderConfig {
  /** The sandbox as this process reaches it, with its prefix: http://127.0.0.1:3000/sandbox. */
  apiUrl: string;
  /** The sandbox as browsers reach it: the widget script, the hosted page and every redirect. */
  publicUrl: string;
  /** The merchant's secret key: bearer of every server call and key of the hosted page's signature. */
  apiKey: string;
  /**
   * Standard Webhooks secrets (`whsec_` + base64). A callback is accepted when any of them verifies
   * it: during a rotation the store lists the old and the new one. None: every callback is refused.
   */
  webhookSecrets: string[];
  /** Where the sandbox sends callbacks: the store's callback endpoint. */
  callbackUrl: string;
  /** A test passes its own (one that routes to `app.inject`, or counts calls). */
  fetch?: typeof fetch;
  timeoutMs?: number;
  clock?: () => Date;
}

export const SANDBOX_PROVIDER_NAME = 'sandbox';

/** Every event the sandbox sends is one the store applies: its verified callbacks are never ignored. */
export type SandboxPaymentProvider = Omit<PaymentProvider, 'verifyCallback'> & {
  verifyCallback(rawBody: string | Buffer, headers: CallbackHeaders): PaymentCallbackEvent;
};

const METHODS = ['widget', 'hosted_page', 'card', 'qr', 'upi'] as const;
const STATUSES = ['init', 'pending', 'succeeded', 'failed', 'refunded'] as const;
const FAILURE_REASONS = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  '3ds_failed',
  'refused_by_payer',
  'cancelled_by_payer',
  'expired',
] as const;
const EVENT_TYPES = [
  'payment.pending',
  'payment.succeeded',
  'payment.failed',
  'payment.refunded',
  'payment.charged_back',
] as const;

// The sandbox's wire format, as its README documents it. Parsed, never trusted.
const PaymentWire = z.object({
  id: z.string().min(1),
  order_id: z.string().min(1),
  method: z.enum(METHODS),
  status: z.enum(STATUSES),
  amount_minor: z.int().nonnegative(),
  currency: z.string().min(3),
  refunded_minor: z.int().nonnegative(),
  /** Chargebacks came later than the other fields: a body without them has none. */
  charged_back_minor: z.int().nonnegative().default(0),
  failure_reason: z.enum(FAILURE_REASONS).nullable(),
  card: z.object({ brand: z.string(), last4: z.string().regex(/^\d{4}$/) }).nullable(),
  version: z.int().positive(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
type PaymentWire = z.infer<typeof PaymentWire>;

const NextActionWire = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('3ds'),
    acs_url: z.url(),
    pa_req: z.string(),
    md: z.string(),
    term_url: z.url(),
  }),
  z.object({
    type: z.literal('3ds_redirect'),
    method: z.enum(['GET', 'POST']),
    url: z.url(),
    params: z.record(z.string(), z.string()),
  }),
  z.object({
    type: z.literal('qr'),
    image: z.object({ media_type: z.literal('image/png'), content: z.base64() }),
    payload: z.string().min(1),
    pay_link: z.url(),
    expires_at: z.iso.datetime(),
  }),
  z.object({ type: z.literal('redirect'), url: z.url(), intent: z.string() }),
]);

const CreatedWire = z.object({ payment: PaymentWire, next_action: NextActionWire.nullable() });
const ListWire = z.object({ payments: z.array(PaymentWire) });
const RefundWire = z.object({
  refund: z.object({
    id: z.string(),
    payment_id: z.string(),
    amount_minor: z.int().positive(),
    status: z.literal('succeeded'),
  }),
});
const ErrorWire = z.object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())).optional() });
const EventWire = z.object({ type: z.enum(EVENT_TYPES), timestamp: z.iso.datetime(), data: PaymentWire });

/** Sandbox field paths in a 422, renamed to the port's request fields (camelCase, as in provider.ts). */
const FIELD_NAMES: Record<string, string> = {
  order_id: 'orderId',
  amount_minor: 'amountMinor',
  'card.number': 'card.number',
  'card.exp_month': 'card.expMonth',
  'card.exp_year': 'card.expYear',
  'card.cvc': 'card.cvc',
  return_url: 'returnUrl',
  success_url: 'successUrl',
  decline_url: 'declineUrl',
  cancel_url: 'cancelUrl',
  'customer.first_name': 'customer.firstName',
  'customer.account_number': 'customer.accountNumber',
  'payer.personal_id': 'payer.personalId',
  'payer.first_name': 'payer.firstName',
  expires_at: 'expiresAt',
};

function toPayment(wire: PaymentWire): ProviderPayment {
  return {
    providerPaymentId: wire.id,
    orderId: wire.order_id,
    method: wire.method,
    status: wire.status,
    amountMinor: wire.amount_minor,
    currency: wire.currency,
    refundedMinor: wire.refunded_minor,
    chargedBackMinor: wire.charged_back_minor,
    failureReason: wire.failure_reason,
    card: wire.card,
    version: wire.version,
    createdAt: new Date(wire.created_at),
    updatedAt: new Date(wire.updated_at),
  };
}

function header(headers: CallbackHeaders, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Standard Webhooks: a callback signed further than this from now, either way, is refused. */
const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;
const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A Standard Webhooks secret's key: the bytes `whsec_` is followed by, in base64. */
function webhookKey(secret: string): Buffer {
  const key = Buffer.from(
    secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret,
    'base64',
  );
  // Anyone can sign with an empty key.
  if (key.length === 0) throw new Error('a webhook secret has no key');
  return key;
}

/**
 * Whether one of the header's `v1,<base64>` signatures is the HMAC-SHA256, under one of the keys, of
 * `{id}.{timestamp}.{body}`, the body's bytes as sent. Standard Webhooks' own check, in node:crypto:
 * the standardwebhooks library hashes in JavaScript and, for a wrong signature, throws errors whose
 * stacks it formats: under a flood of forged callbacks, the largest part of what refusing one cost.
 * The sandbox signs with the library; the tests check that both agree.
 */
function signedWithAnyKey(keys: Buffer[], id: string, timestamp: number, body: Buffer, signatures: string): boolean {
  const offered: Buffer[] = [];
  for (const entry of signatures.split(' ')) {
    const [version, signature] = entry.split(',');
    // Compared as base64 text, as the library does: decoded, `…=` and anything after it would read
    // as the same bytes.
    if (version === 'v1' && signature) offered.push(Buffer.from(signature));
  }
  if (offered.length === 0) return false;
  let signed = false;
  for (const key of keys) {
    const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64'));
    // Every key and every signature is compared, so the time taken says nothing of which matched.
    for (const signature of offered) {
      if (signature.length === expected.length && timingSafeEqual(signature, expected)) signed = true;
    }
  }
  return signed;
}

/** The widget request (docs/payments.md), built from the order: sums in decimal strings, one payment. */
export function buildWidgetRequest(request: WidgetPaymentRequest): WidgetRequest {
  const items = request.items.map((item) => ({
    name: item.name,
    price: minorToDecimalString(item.unitPriceMinor),
    quantity: item.quantity,
    sum: minorToDecimalString(item.unitPriceMinor * item.quantity),
    payment_method: 'full_prepayment' as const,
    payment_object: 'service' as const,
    vat: 'none' as const,
  }));
  const total = minorToDecimalString(request.amountMinor);
  return {
    order_id: request.orderId,
    amount: total,
    currency: request.currency,
    description: request.description,
    receipt: { email: request.customerEmail, items, payments: [{ type: 'electronic', sum: total }] },
  };
}

/**
 * The port over the sandbox's HTTP API (apps/sandbox). It talks to the sandbox only over HTTP, in the
 * embedded mode too, so that swapping in a real provider changes this file and nothing else.
 */
export function createSandboxPaymentProvider(config: SandboxProviderConfig): SandboxPaymentProvider {
  const apiUrl = config.apiUrl.replace(/\/+$/, '');
  const publicUrl = config.publicUrl.replace(/\/+$/, '');
  const doFetch = config.fetch ?? fetch;
  const timeoutMs = config.timeoutMs ?? 10_000;
  const clock = config.clock ?? (() => new Date());
  // A process that only asks about payments (the worker) has no secrets: it verifies no callback.
  const webhookKeys = config.webhookSecrets.map(webhookKey);

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodType<T>,
    options: { body?: unknown; idempotencyKey?: string } = {},
  ): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(`${apiUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${config.apiKey}`,
          accept: 'application/json',
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      // The request carried card data: the error names the call, never its body.
      throw new PaymentProviderUnavailableError(`sandbox ${method} ${path.split('?')[0]} failed`, { cause: error });
    }
    const text = await response.text().catch(() => '');
    const json = (() => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return undefined;
      }
    })();
    if (response.ok) {
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw new PaymentProviderUnavailableError(`sandbox answered ${path} with an unknown shape`);
      return parsed.data;
    }
    const error = ErrorWire.safeParse(json);
    const message = error.success ? error.data.message : `sandbox answered ${response.status}`;
    if (response.status === 422) {
      const errors: Record<string, string[]> = {};
      for (const [field, codes] of Object.entries(error.success ? (error.data.errors ?? {}) : {})) {
        errors[FIELD_NAMES[field] ?? field] = [
          codes.includes('required') ? ErrorKeys.requiredField : ErrorKeys.invalidValue,
        ];
      }
      throw new ValidationError(errors, message);
    }
    if (response.status === 404) throw new NotFoundError('Payment');
    if (response.status === 409) throw new ConflictError(message);
    if (response.status === 401 || response.status === 403) {
      throw new Error(`the sandbox refused the merchant's API key (${response.status})`);
    }
    throw new PaymentProviderUnavailableError(`sandbox answered ${response.status} to ${method} ${path.split('?')[0]}`);
  }

  async function createServerPayment(body: Record<string, unknown>, idempotencyKey: string) {
    return call('POST', '/api/v1/payments', CreatedWire, {
      body: { ...body, callback_url: config.callbackUrl },
      idempotencyKey,
    });
  }

  function cardOutcome(created: z.infer<typeof CreatedWire>): CardOutcome {
    const { payment, next_action: action } = created;
    if (action?.type === '3ds') {
      return {
        status: '3DS',
        redirectUrl: action.acs_url,
        PaReq: action.pa_req,
        MD: action.md,
        TermUrl: action.term_url,
      };
    }
    if (action?.type === '3ds_redirect') {
      return {
        status: '3DS_REDIRECT',
        redirectMethod: action.method,
        redirectUrl: action.url,
        redirectParams: action.params,
      };
    }
    if (payment.status === 'succeeded') return { status: 'success' };
    if (payment.status === 'failed') return { status: 'failure', reason: payment.failure_reason ?? 'card_declined' };
    throw new PaymentProviderUnavailableError(
      `sandbox left card payment ${payment.id} ${payment.status} without a next step`,
    );
  }

  const create = async (request: CreatePaymentRequest): Promise<PaymentResultByMethod[ProviderPaymentMethod]> => {
    const base = {
      order_id: request.orderId,
      amount_minor: request.amountMinor,
      currency: request.currency,
      description: request.description,
      ...(request.language ? { language: request.language } : {}),
    };
    switch (request.method) {
      case 'widget':
        return {
          kind: 'widget',
          providerPaymentId: null,
          scriptUrl: `${publicUrl}/widget.js`,
          request: buildWidgetRequest(request),
        };
      case 'hosted_page': {
        const encoded = encodeHostedPageRequest(
          {
            token: request.idempotencyKey,
            order_id: request.orderId,
            request_date: clock().toISOString(),
            amount: { value: minorToDecimalString(request.amountMinor), currency: request.currency },
            request_ip: request.customerIp,
            return_url: request.returnUrl,
            callback_url: config.callbackUrl,
            ...(request.language ? { language: request.language } : {}),
          },
          config.apiKey,
        );
        return {
          kind: 'form_post',
          providerPaymentId: null,
          action: `${publicUrl}/hosted`,
          fields: { Request: encoded },
        };
      }
      case 'card': {
        const created = await createServerPayment(
          {
            ...base,
            method: 'card',
            return_url: request.returnUrl,
            card: {
              number: request.card.number,
              exp_month: request.card.expMonth,
              exp_year: request.card.expYear,
              cvc: request.card.cvc,
            },
            browser: {
              ip: request.browser.ip,
              screen_height: request.browser.screenHeight,
              screen_width: request.browser.screenWidth,
              time_zone_offset: request.browser.timeZoneOffset,
              user_agent: request.browser.userAgent,
            },
          },
          request.idempotencyKey,
        );
        const card = created.payment.card;
        if (!card) throw new PaymentProviderUnavailableError('sandbox answered a card payment without its card');
        return { kind: 'card', providerPaymentId: created.payment.id, card, outcome: cardOutcome(created) };
      }
      case 'qr': {
        const created = await createServerPayment(
          {
            ...base,
            method: 'qr',
            scheme: request.scheme,
            return_url: request.returnUrl,
            payer: request.payer && { personal_id: request.payer.personalId, first_name: request.payer.firstName },
            expires_at: request.expiresAt?.toISOString(),
          },
          request.idempotencyKey,
        );
        const action = created.next_action;
        if (action?.type !== 'qr')
          throw new PaymentProviderUnavailableError('sandbox answered a QR payment without a QR');
        return {
          kind: 'qr',
          providerPaymentId: created.payment.id,
          image: action.image,
          payload: action.payload,
          payLink: action.pay_link,
          expiresAt: new Date(action.expires_at),
        };
      }
      case 'upi': {
        const created = await createServerPayment(
          {
            ...base,
            method: 'upi',
            customer: {
              first_name: request.customer.firstName,
              account_number: request.customer.accountNumber,
              email: request.customer.email,
              phone: request.customer.phone,
              zip: request.customer.zip,
              address: request.customer.address,
            },
            success_url: request.successUrl,
            decline_url: request.declineUrl,
            cancel_url: request.cancelUrl,
            expires_at: request.expiresAt?.toISOString(),
          },
          request.idempotencyKey,
        );
        const action = created.next_action;
        if (action?.type !== 'redirect') {
          throw new PaymentProviderUnavailableError('sandbox answered a UPI payment without its page');
        }
        return {
          kind: 'redirect',
          providerPaymentId: created.payment.id,
          redirectUrl: action.url,
          intent: action.intent,
        };
      }
    }
  };

  return {
    name: SANDBOX_PROVIDER_NAME,

    createPayment: create as PaymentProvider['createPayment'],

    async getPayment(providerPaymentId: string): Promise<ProviderPayment> {
      return toPayment(await call('GET', `/api/v1/payments/${encodeURIComponent(providerPaymentId)}`, PaymentWire));
    },

    async listPayments(orderId: string): Promise<ProviderPayment[]> {
      const list = await call('GET', `/api/v1/payments?order_id=${encodeURIComponent(orderId)}`, ListWire);
      return list.payments.map(toPayment);
    },

    verifyCallback(rawBody: string | Buffer, headers: CallbackHeaders): PaymentCallbackEvent {
      const id = header(headers, 'webhook-id');
      const timestamp = header(headers, 'webhook-timestamp');
      const signature = header(headers, 'webhook-signature');
      if (!id || !timestamp || !signature) {
        throw new CallbackVerificationError(
          'missing_headers',
          'webhook-id, webhook-timestamp and webhook-signature are required',
        );
      }
      if (webhookKeys.length === 0) {
        throw new CallbackVerificationError('bad_signature', 'no webhook secret is configured here');
      }
      const signedAt = Number.parseInt(timestamp, 10);
      if (Number.isNaN(signedAt) || Math.abs(Date.now() / 1000 - signedAt) > WEBHOOK_TOLERANCE_SECONDS) {
        throw new CallbackVerificationError(
          'stale_timestamp',
          'the callback timestamp is outside the 5-minute tolerance',
        );
      }
      const body = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody);
      if (!signedWithAnyKey(webhookKeys, id, signedAt, body, signature)) {
        throw new CallbackVerificationError('bad_signature', 'no webhook secret verifies the signature');
      }
      let json: unknown;
      try {
        json = JSON.parse(body.toString());
      } catch {
        throw new CallbackVerificationError('malformed_body', 'the callback body is not JSON');
      }
      const parsed = EventWire.safeParse(json);
      if (!parsed.success)
        throw new CallbackVerificationError('malformed_body', 'the callback body is not a payment event');
      const { type, timestamp: occurredAt, data } = parsed.data;
      return {
        provider: SANDBOX_PROVIDER_NAME,
        eventId: id,
        type,
        occurredAt: new Date(occurredAt),
        providerPaymentId: data.id,
        orderId: data.order_id,
        method: data.method,
        status: data.status,
        amountMinor: data.amount_minor,
        currency: data.currency,
        refundedMinor: data.refunded_minor,
        chargedBackMinor: data.charged_back_minor,
        failureReason: data.failure_reason,
        card: data.card,
        version: data.version,
        payload: json,
      };
    },

    async refund({ providerPaymentId, amountMinor, idempotencyKey }: RefundRequest): Promise<ProviderRefund> {
      const { refund } = await call(
        'POST',
        `/api/v1/payments/${encodeURIComponent(providerPaymentId)}/refunds`,
        RefundWire,
        { body: { amount_minor: amountMinor }, idempotencyKey },
      );
      return {
        refundId: refund.id,
        providerPaymentId: refund.payment_id,
        amountMinor: refund.amount_minor,
        status: refund.status,
      };
    },
  };
}
