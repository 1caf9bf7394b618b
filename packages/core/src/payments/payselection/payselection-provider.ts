/**
 * The payment port over Payselection's gateway API (https://api.payselection.com). What each call
 * relies on is cited where it is made; the wire shapes come from Payselection's own SDKs:
 * Payselection-PayApp-SDK-PHP (README.md, src/Library.php, src/BaseHook.php,
 * src/Response/*) and Payselection-PayApp-SDK-Python (src/payselection/core/urls.py, gateway_payment,
 * webhook/payment/schema.py).
 *
 * Methods served: the Pay Widget, the store's own card form (Pay with card data, 3-D Secure 1 and 2)
 * and SBP by QR. Pix and UPI are not Payselection's. The hosted page is not served: Payselection's
 * hosted page (webform.payselection.com `webpayments/create`) answers a link to send the browser to,
 * not the signed form post the port's `hosted_page` result is.
 */
import { createHash, randomUUID } from 'node:crypto';
import { ErrorKeys } from '@store/contract';
import QRCode from 'qrcode';
import { z } from 'zod';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import { decimalStringToMinor, minorToDecimalString } from '../amounts.ts';
import { detectCardType } from '../card-type.ts';
import {
  type CallbackHeaders,
  CallbackVerificationError,
  type CardOutcome,
  type CardPaymentRequest,
  type CreatePaymentRequest,
  type PaymentCallbackEvent,
  type PaymentEventType,
  type PaymentFailureReason,
  type PaymentProvider,
  PaymentProviderUnavailableError,
  type PaymentResultByMethod,
  type PayselectionReceiptData,
  type PayselectionWidgetRequest,
  type ProviderPayment,
  type ProviderPaymentMethod,
  type ProviderPaymentStatus,
  type ProviderRefund,
  type QrPaymentRequest,
  type ReceiptItem,
  type RefundRequest,
  type WidgetPaymentRequest,
} from '../provider.ts';
import {
  payselectionRequestSignature,
  payselectionWebhookSignature,
  signedByAnyKey,
} from './payselection-signature.ts';

export const PAYSELECTION_PROVIDER_NAME = 'payselection';
/** The methods this adapter serves; any other is refused with a ValidationError on `method`. */
export const PAYSELECTION_METHODS = ['widget', 'card', 'qr'] as const satisfies readonly ProviderPaymentMethod[];
/** Payselection-PayApp-SDK-Python src/payselection/core/urls.py `GatewayUrlsBuilder.BASE_URL`. */
export const PAYSELECTION_API_URL = 'https://gw.payselection.com';
export const PAYSELECTION_WIDGET_SCRIPT_URL = 'https://widget.payselection.com/lib/pay-widget.js';

export interface PayselectionProviderConfig {
  /** PAYSELECTION_SITE_ID: the merchant's site (service) id, sent as X-SITE-ID. */
  siteId: string;
  /** PAYSELECTION_SECRET_KEY: signs every request. Never logged, never in an error. */
  secretKey: string;
  /** PAYSELECTION_PUBLIC_KEY: the Pay Widget's key, public by design. */
  publicKey: string;
  /**
   * PAYSELECTION_WEBHOOK_SECRETS: a webhook verifies when any of them signed it (old and new during
   * a rotation of the secret key). Default: the secret key alone.
   */
  webhookSecrets?: string[];
  /** PAYSELECTION_API_URL; default https://gw.payselection.com. */
  apiUrl?: string;
  /** The store's notification URL (`/api/payments/callback/payselection`): part of the webhook signature. */
  callbackUrl: string;
  /** The seller on the receipts (54-FZ); the payment address defaults to the callback URL's origin. */
  receiptCompany?: { inn?: string; email?: string; sno?: string; paymentAddress?: string };
  /** Where the Pay Widget's script is; default https://widget.payselection.com/lib/pay-widget.js. */
  widgetScriptUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  clock?: () => Date;
}

// --- Payselection's wire, parsed, never trusted ---------------------------------------------------

const Decimal = z.string().regex(/^\d{1,12}(\.\d{1,2})?$/);

/** The error body: Payselection-PayApp-SDK-Python core/client.py `_handle_response` (Code, Description, AddDetails). */
const ErrorWire = z.object({
  Code: z.string().optional(),
  Description: z.string().optional(),
  AddDetails: z.record(z.string(), z.unknown()).nullish(),
});

/** Pay's answer: Payselection-PayApp-SDK-PHP src/Response/PayResponse.php. */
const PayAnswerWire = z.object({
  TransactionId: z.string().min(1),
  OrderId: z.string().optional(),
  Amount: Decimal.optional(),
  Currency: z.string().optional(),
  QrCodeString: z.string().optional(),
});

/** `transactions/{id}/extended`: src/Response/TransactionExtResponse.php with src/Model/Transaction/StateDetailsExt.php. */
const TransactionWire = z.object({
  TransactionState: z.string(),
  TransactionId: z.string().min(1),
  OrderId: z.string().min(1),
  StateDetails: z
    .object({
      Amount: Decimal.optional(),
      Currency: z.string().optional(),
      RemainingAmount: Decimal.nullish(),
      DateTime: z.string().nullish(),
      Code: z.string().nullish(),
      ErrorCode: z.string().nullish(),
      Description: z.string().nullish(),
      AcsUrl: z.string().nullish(),
      PaReq: z.string().nullish(),
      MD: z.string().nullish(),
      RedirectUrl: z.string().nullish(),
      RedirectMethod: z.string().nullish(),
      Brand: z.string().nullish(),
      CardMasked: z.string().nullish(),
      QrCodeString: z.string().nullish(),
      PaymentMethod: z.string().nullish(),
    })
    .default({}),
});
type TransactionWire = z.infer<typeof TransactionWire>;

/** `orders/{OrderId}/extended` answers the order's transactions (src/Response/OrderResponse.php). */
const OrderWire = z.array(TransactionWire);

const RefundAnswerWire = z.object({ TransactionId: z.string().min(1) });

const WEBHOOK_EVENTS = ['Payment', 'Fail', 'Refund', '3DS', 'Redirect3DS'] as const;

/** Webhook bodies: Payselection-PayApp-SDK-Python src/payselection/webhook/payment/schema.py. */
const WebhookWire = z.object({
  Event: z.enum(WEBHOOK_EVENTS),
  TransactionId: z.string().min(1),
  OrderId: z.string().min(1),
  Amount: Decimal,
  Currency: z.string().min(3),
  DateTime: z.string(),
  NewAmount: Decimal.optional(),
  PaymentMethod: z.string().nullish(),
  CardMasked: z.string().nullish(),
  Brand: z.string().nullish(),
  ErrorCode: z.string().nullish(),
  ErrorMessage: z.string().nullish(),
  QrCodeString: z.string().nullish(),
});
type WebhookWire = z.infer<typeof WebhookWire>;

// --- Mappings -------------------------------------------------------------------------------------

/** Transaction states: Payselection-PayApp-SDK-Python src/payselection/gateway_payment/enums.py `Statuses`. */
function statusOf(state: string, method: ProviderPaymentMethod): ProviderPaymentStatus {
  switch (state) {
    case 'success':
      return 'succeeded';
    case 'declined':
    case 'voided':
      return 'failed';
    case 'wait_for_3ds':
    case 'redirect':
    case 'preauthorized':
      return 'pending';
    case 'pending':
      // A QR not paid yet waits for the customer; a card payment waits for its bank.
      return method === 'qr' ? 'init' : 'pending';
    default:
      throw new PaymentProviderUnavailableError(`payselection answered an unknown transaction state ${state}`);
  }
}

/**
 * Why a payment failed, from Payselection's error code and text. Payselection's public sources list
 * no code table, so this reads the issuer's ISO 8583 response code where the gateway passes it on
 * (51 insufficient funds, 54 expired card) and otherwise the words of the code or its description;
 * anything else is a plain decline.
 */
export function failureReasonOf(
  code: string | null | undefined,
  text: string | null | undefined,
): PaymentFailureReason {
  const all = `${code ?? ''} ${text ?? ''}`.toLowerCase();
  if (code === '51' || /insufficient|недостаточно/.test(all)) return 'insufficient_funds';
  if (code === '54' || /expired.?card|card.?expired|срок действия/.test(all)) return 'expired_card';
  if (/3ds|3-d ?secure|authenticat/.test(all)) return '3ds_failed';
  if (/reject|refus|отклонен плательщиком/.test(all)) return 'refused_by_payer';
  if (/cancel/.test(all)) return 'cancelled_by_payer';
  if (/timeout|expired|истек/.test(all)) return 'expired';
  return 'card_declined';
}

/**
 * Payselection numbers no version of a transaction, so the adapter derives one that grows with each
 * change a payment can go through: its stage (waiting for the customer 1, for the bank 2, decided 3)
 * times 10^14, plus what was refunded of it. A pending after its success, or the Payment webhook
 * after a Refund one, has the lower version and is recognised as old; each refund, partial or whole,
 * raises it. 10^14 minor units is above any amount the store's decimal strings can carry (12 digits),
 * and 3 * 10^14 + 10^14 stays a safe integer.
 */
const STAGE_WEIGHT = 10 ** 14;
export function payselectionVersion(status: ProviderPaymentStatus, refundedMinor: number): number {
  const stage = status === 'init' ? 1 : status === 'pending' ? 2 : 3;
  return stage * STAGE_WEIGHT + refundedMinor;
}

function amountOf(value: string, what: string): number {
  const minor = decimalStringToMinor(value);
  if (minor === null) throw new PaymentProviderUnavailableError(`payselection answered ${what} that is not an amount`);
  return minor;
}

/** "16.09.2019 16.52.41" (Payselection's DateTime, webhook/payment/schema.py); its zone is not documented: read as UTC. */
function dateOf(value: string | null | undefined): Date | null {
  const match = value ? /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2})[.:](\d{2})[.:](\d{2})$/.exec(value) : null;
  if (!match) return null;
  const [, day, month, year, hour, minute, second] = match.map(Number) as number[];
  const date = new Date(Date.UTC(year as number, (month as number) - 1, day, hour, minute, second));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A transaction's currency: never guessed, since the store matches every event on it. */
function currencyOf(currency: string | null | undefined, transactionId: string): string {
  if (!currency)
    throw new PaymentProviderUnavailableError(
      `payselection answered transaction ${transactionId} without its currency`,
    );
  return currency;
}

function cardOf(masked: string | null | undefined, brand: string | null | undefined) {
  const digits = masked?.replace(/\D/g, '') ?? '';
  if (!masked || digits.length < 4) return null;
  return { brand: brand || detectCardType(digits.slice(0, 8)) || 'unknown', last4: digits.slice(-4) };
}

function methodOf(wire: { PaymentMethod?: string | null; QrCodeString?: string | null }): ProviderPaymentMethod {
  const method = wire.PaymentMethod?.toLowerCase();
  return method === 'qr' || method === 'sbp' || (!method && wire.QrCodeString) ? 'qr' : 'card';
}

function toPayment(wire: TransactionWire, now: Date): ProviderPayment {
  const details = wire.StateDetails;
  const method = methodOf(details);
  const amountMinor = amountOf(details.Amount ?? '', 'a transaction amount');
  const remaining = details.RemainingAmount ? amountOf(details.RemainingAmount, 'a remaining amount') : amountMinor;
  let status = statusOf(wire.TransactionState, method);
  const refundedMinor = status === 'succeeded' ? Math.max(0, amountMinor - remaining) : 0;
  if (status === 'succeeded' && refundedMinor > 0 && refundedMinor >= amountMinor) status = 'refunded';
  const at = dateOf(details.DateTime) ?? now;
  return {
    providerPaymentId: wire.TransactionId,
    orderId: wire.OrderId,
    method,
    status,
    amountMinor,
    currency: currencyOf(details.Currency, wire.TransactionId),
    refundedMinor,
    chargedBackMinor: 0,
    failureReason: status === 'failed' ? failureReasonOf(details.ErrorCode ?? details.Code, details.Description) : null,
    card: cardOf(details.CardMasked, details.Brand),
    version: payselectionVersion(status, refundedMinor),
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * X-REQUEST-ID is Payselection's idempotency key for a request (a UUID in every SDK example). The
 * store's keys are UUIDs already; another key is turned into a UUID-shaped digest of itself, so the
 * same key always sends the same request id.
 */
export function requestIdFor(idempotencyKey: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idempotencyKey)) {
    return idempotencyKey.toLowerCase();
  }
  const hex = createHash('sha256').update(idempotencyKey).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Payselection's field paths in an error's AddDetails, renamed to the port's request fields. */
const FIELD_NAMES: Record<string, string> = {
  'PaymentDetails.CardNumber': 'card.number',
  'PaymentDetails.ExpMonth': 'card.expMonth',
  'PaymentDetails.ExpYear': 'card.expYear',
  'PaymentDetails.CVC': 'card.cvc',
  OrderId: 'orderId',
  Amount: 'amountMinor',
  Currency: 'currency',
  Description: 'description',
  'ExtraData.ReturnUrl': 'returnUrl',
  'CustomerInfo.IP': 'browser.ip',
};

const roubles = (minor: number) => Number(minorToDecimalString(minor));

/** A receipt in Payselection's ReceiptData layout (PHP SDK README, "Create Payment"), for a sale or a refund. */
function receiptData(
  external: string,
  email: string,
  items: ReceiptItem[],
  totalMinor: number,
  company: { email?: string; inn?: string; sno?: string; payment_address: string },
  now: Date,
): PayselectionReceiptData {
  const sum = items.reduce((total, item) => total + item.unitPriceMinor * item.quantity, 0);
  if (sum !== totalMinor)
    throw ValidationError.field('items', ErrorKeys.invalidValue, 'the receipt items do not add up to the amount');
  return {
    // Payselection's receipt timestamp: "2023-01-11T13:38+0000".
    timestamp: `${now.toISOString().slice(0, 16)}+0000`,
    external_id: external,
    receipt: {
      client: { email },
      company,
      items: items.map((item) => ({
        name: item.name,
        price: roubles(item.unitPriceMinor),
        quantity: item.quantity,
        sum: roubles(item.unitPriceMinor * item.quantity),
        payment_method: 'full_prepayment',
        payment_object: 'service',
        vat: { type: 'none' },
      })),
      payments: [{ type: 1, sum: roubles(totalMinor) }],
      total: roubles(totalMinor),
    },
  };
}

/** Payselection's `Language`: two letters (Python SDK core/schemas/schema.py `CustomerInfo.language`). */
const languageOf = (language: string | undefined) => language?.slice(0, 2).toLowerCase();

/** A header by its name in any case: Node gives them lower-cased, other callers as Payselection spells them. */
function header(headers: CallbackHeaders, name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

const EVENT_TYPE: Record<(typeof WEBHOOK_EVENTS)[number], PaymentEventType> = {
  Payment: 'payment.succeeded',
  Fail: 'payment.failed',
  Refund: 'payment.refunded',
  '3DS': 'payment.pending',
  Redirect3DS: 'payment.pending',
};

/**
 * A webhook carries no event id, and Payselection sends the same notification again until it is
 * acknowledged. What makes an event unique is its transaction, its kind and, for a refund, what was
 * left after it (`NewAmount`): a transaction is paid, fails or asks for 3-D Secure once, while each
 * refund leaves a different amount. So the same notification delivered twice has the same id and a
 * second refund a new one. The DateTime is left out: nothing says a retry keeps it.
 */
export function payselectionEventId(wire: Pick<WebhookWire, 'TransactionId' | 'Event' | 'NewAmount'>): string {
  const parts = [PAYSELECTION_PROVIDER_NAME, wire.TransactionId, wire.Event];
  if (wire.Event === 'Refund') parts.push(wire.NewAmount ?? '');
  return parts.join(':');
}

function eventOf(wire: WebhookWire, payload: unknown, now: Date): PaymentCallbackEvent {
  const method = methodOf(wire);
  const amountMinor = amountOf(wire.Amount, 'a webhook amount');
  let status: ProviderPaymentStatus;
  let refundedMinor = 0;
  let failureReason: PaymentFailureReason | null = null;
  switch (wire.Event) {
    case 'Payment':
      status = 'succeeded';
      break;
    case 'Fail':
      status = 'failed';
      failureReason = failureReasonOf(wire.ErrorCode, wire.ErrorMessage);
      break;
    case '3DS':
    case 'Redirect3DS':
      status = 'pending';
      break;
    case 'Refund': {
      // The event's Amount is the transaction's, as in every event (the SDK's RefundEventWebhook
      // extends the common base), and NewAmount what is left of it after this refund.
      if (!wire.NewAmount) throw new CallbackVerificationError('malformed_body', 'a Refund webhook without NewAmount');
      const left = amountOf(wire.NewAmount, 'a webhook NewAmount');
      if (left > amountMinor)
        throw new CallbackVerificationError('malformed_body', 'a Refund webhook leaves more than was paid');
      refundedMinor = amountMinor - left;
      status = left === 0 ? 'refunded' : 'succeeded';
      break;
    }
  }
  return {
    provider: PAYSELECTION_PROVIDER_NAME,
    eventId: payselectionEventId(wire),
    type: EVENT_TYPE[wire.Event],
    occurredAt: dateOf(wire.DateTime) ?? now,
    providerPaymentId: wire.TransactionId,
    orderId: wire.OrderId,
    method,
    status,
    amountMinor,
    currency: wire.Currency,
    refundedMinor,
    chargedBackMinor: 0,
    failureReason,
    card: cardOf(wire.CardMasked, wire.Brand),
    version: payselectionVersion(status, refundedMinor),
    payload,
  };
}

/** An SBP pay link as Payselection gives it: URL-encoded in the webhook example (docs/examples/08-webhook.md), plain elsewhere. */
function payLinkOf(value: string): string {
  const link = value.startsWith('https%3A') ? decodeURIComponent(value) : value;
  if (!/^https:\/\//.test(link))
    throw new PaymentProviderUnavailableError('payselection answered an SBP payment without a pay link');
  return link;
}

// --- The adapter ----------------------------------------------------------------------------------

/** Every Payselection webhook is one the store applies: none is acknowledged and ignored. */
export type PayselectionPaymentProvider = Omit<PaymentProvider, 'verifyCallback'> & {
  verifyCallback(rawBody: string | Buffer, headers: CallbackHeaders): PaymentCallbackEvent;
};

export function createPayselectionProvider(config: PayselectionProviderConfig): PayselectionPaymentProvider {
  const apiUrl = (config.apiUrl ?? PAYSELECTION_API_URL).replace(/\/+$/, '');
  const apiPath = new URL(apiUrl).pathname.replace(/\/+$/, '');
  const doFetch = config.fetch ?? fetch;
  const timeoutMs = config.timeoutMs ?? 15_000;
  const clock = config.clock ?? (() => new Date());
  const webhookSecrets = (config.webhookSecrets?.length ? config.webhookSecrets : [config.secretKey]).filter(
    (secret) => secret.length > 0,
  );
  const company = {
    ...(config.receiptCompany?.inn ? { inn: config.receiptCompany.inn } : {}),
    ...(config.receiptCompany?.email ? { email: config.receiptCompany.email } : {}),
    ...(config.receiptCompany?.sno ? { sno: config.receiptCompany.sno } : {}),
    payment_address: config.receiptCompany?.paymentAddress ?? new URL(config.callbackUrl).origin,
  };

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodType<T>,
    options: { body?: unknown; requestId?: string } = {},
  ): Promise<T> {
    const body = options.body === undefined ? '' : JSON.stringify(options.body);
    const requestId = options.requestId ?? randomUUID();
    const signature = payselectionRequestSignature(
      { method, path: `${apiPath}${path}`, siteId: config.siteId, requestId, body },
      config.secretKey,
    );
    // Names the call without its body or query: the body may hold card data.
    const what = `payselection ${method} ${path.split('?')[0]}`;
    let response: Response;
    try {
      response = await doFetch(`${apiUrl}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          'x-site-id': config.siteId,
          'x-request-id': requestId,
          'x-request-signature': signature,
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        body: method === 'POST' ? body : undefined,
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw new PaymentProviderUnavailableError(`${what} failed`, { cause: error });
    }
    const text = await response.text().catch(() => '');
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (response.ok) {
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw new PaymentProviderUnavailableError(`${what} answered an unknown shape`);
      return parsed.data;
    }
    const error = ErrorWire.safeParse(json);
    const code = error.success ? error.data.Code : undefined;
    const description = (error.success && error.data.Description) || `payselection answered ${response.status}`;
    if (response.status >= 500) throw new PaymentProviderUnavailableError(`${what} answered ${response.status}`);
    if (response.status === 401 || response.status === 403) {
      // The merchant's keys or site id are wrong: a configuration fault, not the customer's.
      throw new Error(`payselection refused the merchant's signature (${response.status}${code ? ` ${code}` : ''})`);
    }
    if (response.status === 404) throw new NotFoundError('Payment');
    if (response.status === 409) throw new ConflictError(description);
    const errors: Record<string, string[]> = {};
    for (const field of Object.keys((error.success && error.data.AddDetails) || {})) {
      const name = FIELD_NAMES[field];
      if (name) errors[name] = [ErrorKeys.invalidValue];
    }
    if (Object.keys(errors).length === 0) errors.payment = [ErrorKeys.invalidValue];
    throw new ValidationError(errors, description);
  }

  const transaction = (id: string) => call('GET', `/transactions/${encodeURIComponent(id)}/extended`, TransactionWire);

  function widget(request: WidgetPaymentRequest): PaymentResultByMethod['widget'] {
    const now = clock();
    const widgetRequest: PayselectionWidgetRequest = {
      MetaData: { PaymentType: 'Pay' },
      PaymentRequest: {
        OrderId: request.orderId,
        Amount: minorToDecimalString(request.amountMinor),
        Currency: request.currency,
        Description: request.description,
        ExtraData: { WebhookUrl: config.callbackUrl },
      },
      CustomerInfo: {
        Email: request.customerEmail,
        ReceiptEmail: request.customerEmail,
        ...(request.language ? { Language: languageOf(request.language) } : {}),
      },
      ReceiptData: receiptData(
        request.orderId,
        request.customerEmail,
        request.items,
        request.amountMinor,
        company,
        now,
      ),
    };
    return {
      kind: 'payselection_widget',
      providerPaymentId: null,
      scriptUrl: config.widgetScriptUrl ?? PAYSELECTION_WIDGET_SCRIPT_URL,
      serviceId: config.siteId,
      key: config.publicKey,
      request: widgetRequest,
    };
  }

  /** The 3-D Secure step or the result of a card transaction, as the card form shows it. */
  function cardOutcome(wire: TransactionWire, returnUrl: string): CardOutcome {
    const details = wire.StateDetails;
    if (wire.TransactionState === 'wait_for_3ds' && details.AcsUrl && details.PaReq && details.MD) {
      // 3-D Secure 1: the ACS gets PaReq, MD and where to post PaRes back.
      return { status: '3DS', redirectUrl: details.AcsUrl, PaReq: details.PaReq, MD: details.MD, TermUrl: returnUrl };
    }
    if ((wire.TransactionState === 'redirect' || wire.TransactionState === 'wait_for_3ds') && details.RedirectUrl) {
      // 3-D Secure 2: RedirectUrl and RedirectMethod (src/Response/Helpers/StateDetails.php). No
      // separate body is documented, so the URL's query becomes the parameters either way.
      const url = new URL(details.RedirectUrl);
      const redirectParams = Object.fromEntries(url.searchParams);
      url.search = '';
      return {
        status: '3DS_REDIRECT',
        redirectMethod: details.RedirectMethod?.toUpperCase() === 'GET' ? 'GET' : 'POST',
        redirectUrl: url.toString(),
        redirectParams,
      };
    }
    if (wire.TransactionState === 'success') return { status: 'success' };
    if (wire.TransactionState === 'declined' || wire.TransactionState === 'voided') {
      return { status: 'failure', reason: failureReasonOf(details.ErrorCode ?? details.Code, details.Description) };
    }
    throw new PaymentProviderUnavailableError(
      `payselection left card transaction ${wire.TransactionId} ${wire.TransactionState} without a next step`,
    );
  }

  async function card(request: CardPaymentRequest): Promise<PaymentResultByMethod['card']> {
    const digits = request.card.number.replace(/\D/g, '');
    // Pay with card data: PHP SDK README "Create Payment" (PaymentMethod Card, PaymentDetails), the
    // browser fields of 3-D Secure 2 in ExtraData (Python SDK gateway_payment/schemas/pay.py).
    const created = await call('POST', '/payments/requests/single', PayAnswerWire, {
      requestId: requestIdFor(request.idempotencyKey),
      body: {
        OrderId: request.orderId,
        Amount: minorToDecimalString(request.amountMinor),
        Currency: request.currency,
        Description: request.description,
        RebillFlag: false,
        CustomerInfo: {
          IP: request.browser.ip,
          ...(request.language ? { Language: languageOf(request.language) } : {}),
        },
        ExtraData: {
          ReturnUrl: request.returnUrl,
          WebhookUrl: config.callbackUrl,
          ...(request.browser.screenHeight ? { ScreenHeight: String(request.browser.screenHeight) } : {}),
          ...(request.browser.screenWidth ? { ScreenWidth: String(request.browser.screenWidth) } : {}),
          ...(request.browser.timeZoneOffset !== undefined ? { TimeZoneOffset: request.browser.timeZoneOffset } : {}),
          ...(request.browser.userAgent ? { UserAgent: request.browser.userAgent } : {}),
        },
        PaymentMethod: 'Card',
        PaymentDetails: {
          CardNumber: digits,
          ExpMonth: String(request.card.expMonth).padStart(2, '0'),
          ExpYear: String(request.card.expYear % 100).padStart(2, '0'),
          CVC: request.card.cvc,
        },
      },
    });
    // Pay answers the transaction's id; its state and the 3-D Secure data are the transaction's.
    const state = await transaction(created.TransactionId);
    return {
      kind: 'card',
      providerPaymentId: created.TransactionId,
      card: { brand: detectCardType(digits.slice(0, 8)) ?? 'unknown', last4: digits.slice(-4) },
      outcome: cardOutcome(state, request.returnUrl),
    };
  }

  async function qr(request: QrPaymentRequest): Promise<PaymentResultByMethod['qr']> {
    if (request.scheme !== 'sbp') {
      throw ValidationError.field('scheme', ErrorKeys.invalidValue, `payselection does not take ${request.scheme}`);
    }
    // SBP: Pay with PaymentMethod QR (Python SDK gateway_payment/enums.py); the pay link is
    // QrCodeString, in the answer or else in the transaction's details (StateDetailsExt.php).
    const created = await call('POST', '/payments/requests/single', PayAnswerWire, {
      requestId: requestIdFor(request.idempotencyKey),
      body: {
        OrderId: request.orderId,
        Amount: minorToDecimalString(request.amountMinor),
        Currency: request.currency,
        Description: request.description,
        CustomerInfo: { ...(request.language ? { Language: languageOf(request.language) } : {}) },
        ExtraData: { WebhookUrl: config.callbackUrl, ...(request.returnUrl ? { ReturnUrl: request.returnUrl } : {}) },
        PaymentMethod: 'QR',
      },
    });
    const link =
      created.QrCodeString ?? (await transaction(created.TransactionId)).StateDetails.QrCodeString ?? undefined;
    if (!link) throw new PaymentProviderUnavailableError('payselection answered an SBP payment without a pay link');
    const payLink = payLinkOf(link);
    const png = await QRCode.toBuffer(payLink, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 6 });
    // Payselection's answer names no deadline: the order's own, or an hour, whichever is first.
    const hour = new Date(clock().getTime() + 60 * 60 * 1000);
    return {
      kind: 'qr',
      providerPaymentId: created.TransactionId,
      image: { media_type: 'image/png', content: png.toString('base64') },
      payload: payLink,
      payLink,
      expiresAt: request.expiresAt && request.expiresAt < hour ? request.expiresAt : hour,
    };
  }

  const create = async (request: CreatePaymentRequest): Promise<PaymentResultByMethod[ProviderPaymentMethod]> => {
    switch (request.method) {
      case 'widget':
        return widget(request);
      case 'card':
        return card(request);
      case 'qr':
        return qr(request);
      default:
        throw ValidationError.field('method', ErrorKeys.invalidValue, `payselection does not serve ${request.method}`);
    }
  };

  return {
    name: PAYSELECTION_PROVIDER_NAME,

    createPayment: create as PaymentProvider['createPayment'],

    async getPayment(providerPaymentId: string): Promise<ProviderPayment> {
      return toPayment(await transaction(providerPaymentId), clock());
    },

    async listPayments(orderId: string): Promise<ProviderPayment[]> {
      let transactions: TransactionWire[];
      try {
        transactions = await call('GET', `/orders/${encodeURIComponent(orderId)}/extended`, OrderWire);
      } catch (error) {
        // An order Payselection has no transaction of (a widget never submitted) is no error here.
        if (error instanceof NotFoundError) return [];
        throw error;
      }
      const now = clock();
      return transactions
        .map((wire, index) => ({ payment: toPayment(wire, now), index }))
        .sort((a, b) => b.payment.createdAt.getTime() - a.payment.createdAt.getTime() || b.index - a.index)
        .map(({ payment }) => payment);
    },

    verifyCallback(rawBody: string | Buffer, headers: CallbackHeaders): PaymentCallbackEvent {
      const siteId = header(headers, 'x-site-id');
      const signature = header(headers, 'x-webhook-signature');
      if (!siteId || !signature) {
        throw new CallbackVerificationError('missing_headers', 'X-SITE-ID and X-WEBHOOK-SIGNATURE are required');
      }
      if (webhookSecrets.length === 0) {
        throw new CallbackVerificationError('bad_signature', 'no webhook secret is configured here');
      }
      const body = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody);
      // The site id is part of what is signed; another site's notification is refused as unsigned.
      const signed =
        siteId === config.siteId &&
        signedByAnyKey(signature, webhookSecrets, (key) =>
          payselectionWebhookSignature({ notificationUrl: config.callbackUrl, siteId, body }, key),
        );
      if (!signed) throw new CallbackVerificationError('bad_signature', 'no webhook secret verifies the signature');
      let json: unknown;
      try {
        json = JSON.parse(body.toString());
      } catch {
        throw new CallbackVerificationError('malformed_body', 'the webhook body is not JSON');
      }
      const parsed = WebhookWire.safeParse(json);
      if (!parsed.success) {
        throw new CallbackVerificationError('malformed_body', 'the webhook body is not a payment event');
      }
      try {
        return eventOf(parsed.data, json, clock());
      } catch (error) {
        if (error instanceof CallbackVerificationError) throw error;
        throw new CallbackVerificationError('malformed_body', 'the webhook body is not a payment event');
      }
    },

    async refund({ providerPaymentId, amountMinor, idempotencyKey, receipt }: RefundRequest): Promise<ProviderRefund> {
      // The refund needs the payment's currency; the transaction's status gives it.
      const paid = await transaction(providerPaymentId);
      const currency = currencyOf(paid.StateDetails.Currency, providerPaymentId);
      // payments/refund with its refund receipt (PHP SDK README "Create Refund"); X-REQUEST-ID from
      // the store's key, so a retried refund is the same request.
      const answer = await call('POST', '/payments/refund', RefundAnswerWire, {
        requestId: requestIdFor(idempotencyKey),
        body: {
          TransactionId: providerPaymentId,
          Amount: minorToDecimalString(amountMinor),
          Currency: currency,
          WebhookUrl: config.callbackUrl,
          ...(receipt
            ? { ReceiptData: receiptData(idempotencyKey, receipt.email, receipt.items, amountMinor, company, clock()) }
            : {}),
        },
      });
      return { refundId: answer.TransactionId, providerPaymentId, amountMinor, status: 'succeeded' };
    },
  };
}
