import * as z from 'zod/mini';
import { EmailSchema } from './accounts.ts';
import { rateMicros } from './display.ts';
import { type ErrorKey, ErrorKeys } from './errors.ts';
import { CARD_TYPE_LOOKUP_DIGITS, CVV_MAX, CVV_MIN, STORE_CURRENCY, TOPUP_MIN } from './limits.ts';
import { ORDER_STATUSES, PAYMENT_STATUS_VALUES, PAYMENT_TYPES, TOPUP_MAX } from './orders.ts';
import { cleanText } from './text.ts';

// Payments (docs/payments.md, "The store's payment calls"). The card form is on the checkout page, so
// these are written with zod/mini like the rest of what the web app loads.

/** The card types the store recognises, each with a logo. */
export const CARD_TYPES = ['MasterCard', 'Visa', 'Mir', 'AmericanExpress'] as const;
export type CardType = (typeof CARD_TYPES)[number];

/** Longest card number of any network (ISO/IEC 7812). */
export const CARD_NUMBER_MAX_DIGITS = 19;

/**
 * POST /card-type: the digits typed so far, at least the first 8 (the form asks once per 8-digit
 * prefix); the mask's spaces are allowed. Only the first 8 digits are looked at, so the form may send
 * just those.
 */
export const CardTypeRequestSchema = z.object({
  number: z.pipe(
    z
      .string({ error: ErrorKeys.requiredField })
      .check(
        z.trim(),
        z.minLength(1, { error: ErrorKeys.requiredField }),
        z.regex(/^[\d ]+$/, { error: ErrorKeys.invalidValue }),
      ),
    z.pipe(
      z.transform((value: string) => value.replaceAll(' ', '')),
      z
        .string()
        .check(
          z.minLength(CARD_TYPE_LOOKUP_DIGITS, { error: ErrorKeys.tooShort }),
          z.maxLength(CARD_NUMBER_MAX_DIGITS, { error: ErrorKeys.tooLong }),
        ),
    ),
  ),
});
export type CardTypeRequest = z.infer<typeof CardTypeRequestSchema>;

/** The brand, or null when the prefix is none of the four. */
export const CardTypeResponseSchema = z.object({ type: z.nullable(z.enum(CARD_TYPES)) });
export type CardTypeResponse = z.infer<typeof CardTypeResponseSchema>;

// ---------------------------------------------------------------------------------------------
// The payment calls (POST /payment, /payment-sbp, /orders/create-qr, /orders/create-upi,
// /payment/initialize, /orders/confirm/{id}, the provider's callback) and what they answer, as
// docs/payments.md, "The store's payment calls", lists them.

/** Shortest card number of any network the provider takes (ISO/IEC 7812 allows 8, no card uses it). */
export const CARD_NUMBER_MIN_DIGITS = 12;

/** The Luhn check digit of ISO/IEC 7812: every card number passes it, most typing slips do not. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const blankToUndefined = (value: unknown): unknown =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

const optional = <T extends z.ZodMiniType>(schema: T) => z.pipe(z.transform(blankToUndefined), z.optional(schema));

const uuid = z.string({ error: ErrorKeys.requiredField }).check(z.regex(UUID, { error: ErrorKeys.invalidValue }));

/** A whole number, or its digits as a form field gives them. */
const wholeNumber = (min: number, max: number, maxDigits: number) =>
  z.pipe(
    z.pipe(
      z.transform((value: unknown) => (typeof value === 'number' ? String(value) : value)),
      z
        .string({ error: ErrorKeys.notANumber })
        .check(z.trim(), z.regex(new RegExp(`^-?\\d{1,${maxDigits}}$`), { error: ErrorKeys.notANumber })),
    ),
    z.pipe(
      z.transform((value: string) => Number(value)),
      z.int().check(z.minimum(min, { error: ErrorKeys.tooSmall }), z.maximum(max, { error: ErrorKeys.tooLarge })),
    ),
  );

/**
 * The browser's key for one payment attempt (a random id it makes once per click of Pay): the same
 * key opens the same payment at the provider, so a retried or doubled request never charges twice.
 */
export const AttemptTokenSchema = z
  .string({ error: ErrorKeys.requiredField })
  .check(
    z.minLength(8, { error: ErrorKeys.tooShort }),
    z.maxLength(64, { error: ErrorKeys.tooLong }),
    z.regex(/^[A-Za-z0-9_-]+$/, { error: ErrorKeys.invalidValue }),
  );

/** The card number as typed, the mask's spaces allowed: 12 to 19 digits that pass the Luhn check. */
export const CardNumberSchema = z.pipe(
  z.pipe(
    z
      .string({ error: ErrorKeys.requiredField })
      .check(z.regex(/^[\d ]{1,40}$/, { error: ErrorKeys.invalidCardNumber })),
    z.transform((value: string) => value.replaceAll(' ', '')),
  ),
  z.string().check(
    z.minLength(CARD_NUMBER_MIN_DIGITS, { error: ErrorKeys.invalidCardNumber }),
    z.maxLength(CARD_NUMBER_MAX_DIGITS, { error: ErrorKeys.invalidCardNumber }),
    z.refine((digits: string) => passesLuhn(digits), { error: ErrorKeys.invalidCardNumber }),
  ),
);

/** The expiry month (docs/payments.md, "The card"): 1 to 12, "07" as the MM/YY mask pads it. */
export const CardMonthSchema = wholeNumber(1, 12, 2);

/** The expiry year: two digits as the mask gives them (00 to 99, read as 2000 to 2099), or four. */
export const CardYearSchema = z.pipe(
  wholeNumber(0, 2_099, 4),
  z.pipe(
    z.transform((year: number) => (year < 100 ? 2_000 + year : year)),
    z.int().check(z.minimum(2_000, { error: ErrorKeys.invalidValue })),
  ),
);

/** The CVV (docs/payments.md, "The card"): exactly three digits, 100 to 999. */
export const CvcSchema = z.pipe(
  z.transform((value: unknown) => (typeof value === 'number' ? String(value) : value)),
  z.string({ error: ErrorKeys.requiredField }).check(
    z.refine((value: string) => /^\d{3}$/.test(value) && Number(value) >= CVV_MIN && Number(value) <= CVV_MAX, {
      error: ErrorKeys.invalidValue,
    }),
  ),
);

const CARD_FIELDS = ['card_number', 'month', 'year', 'cvc'] as const;

/**
 * `value` of POST /payment and POST /payment-sbp: an amount in whole units with at most two decimals
 * (150, "150", 26.91). A top-up's is what it tops up by, so it must be a whole number from TOPUP_MIN
 * to TOPUP_MAX (topUpValueIssue, checked with the type). A purchase is charged its order's total as
 * the store keeps it, so the value a page sends with one (the total it shows) is only checked for
 * its shape.
 */
const PaymentValueSchema = z.pipe(
  z.pipe(
    z.transform((value: unknown) => (typeof value === 'number' ? String(value) : value)),
    z
      .string({ error: ErrorKeys.notANumber })
      .check(z.trim(), z.regex(/^\d{1,12}(\.\d{1,2})?$/, { error: ErrorKeys.notANumber })),
  ),
  z.transform((value: string) => Number(value)),
);

/** Why a top-up's value is refused, if it is. */
function topUpValueIssue(value: number): ErrorKey | undefined {
  if (!Number.isInteger(value)) return ErrorKeys.notANumber;
  if (value < TOPUP_MIN) return ErrorKeys.tooSmall;
  if (value > TOPUP_MAX) return ErrorKeys.tooLarge;
  return undefined;
}

/** A top-up that names no order needs its value, a whole number within the limits. */
function checkTopUpValue(
  body: { type: 'purchase' | 'balance'; value?: number | undefined; orderId?: string | undefined },
  ctx: z.core.$RefinementCtx<unknown>,
) {
  if (body.type !== 'balance') return;
  if (body.value === undefined) {
    if (body.orderId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: ErrorKeys.requiredField, input: undefined });
    }
    return;
  }
  // A value its own check refused reaches here as sent: that check has said so already.
  if (typeof body.value !== 'number' || Number.isNaN(body.value)) return;
  const issue = topUpValueIssue(body.value);
  if (issue) ctx.addIssue({ code: 'custom', path: ['value'], message: issue, input: body.value });
}

/**
 * POST /payment (docs/payments.md, "Which order a call pays"). `type` says which order is paid:
 * - `balance`: a top-up of `value` whole units (at least 100, at most 7 digits) is created and paid;
 * - `purchase`: the customer's newest unpaid purchase (made by POST /orders/create) is paid; a
 *   `value` sent with it is not used (PaymentValueSchema).
 * `orderId` names the order instead (a card form that first asked without card fields sends back
 * the order it was answered). Without card fields the answer is what the provider's card widget
 * needs; with all four (`card_number`, `month`, `year`, `cvc`) the card is charged through the
 * provider's card API. `screenHeight`, `screenWidth` and `timeZoneOffset` (minutes, as JavaScript's
 * getTimezoneOffset) go to the provider for 3-D Secure. `token` is the attempt's key.
 */
export const PaymentBodySchema = z
  .object({
    type: z.enum(['purchase', 'balance'], { error: ErrorKeys.unknownOption }),
    value: optional(PaymentValueSchema),
    orderId: optional(uuid),
    token: optional(AttemptTokenSchema),
    card_number: optional(CardNumberSchema),
    month: optional(CardMonthSchema),
    year: optional(CardYearSchema),
    cvc: optional(CvcSchema),
    screenHeight: optional(wholeNumber(0, 100_000, 6)),
    screenWidth: optional(wholeNumber(0, 100_000, 6)),
    timeZoneOffset: optional(wholeNumber(-1_440, 1_440, 4)),
  })
  .check(
    z.superRefine((body, ctx) => {
      // A card is all four fields or none: with some, the missing ones are named.
      const given = CARD_FIELDS.filter((field) => body[field] !== undefined);
      if (given.length > 0 && given.length < CARD_FIELDS.length) {
        for (const field of CARD_FIELDS.filter((name) => body[name] === undefined)) {
          ctx.addIssue({ code: 'custom', path: [field], message: ErrorKeys.requiredField, input: undefined });
        }
      }
      checkTopUpValue(body, ctx);
    }),
  );
export type PaymentBody = z.infer<typeof PaymentBodySchema>;

/**
 * POST /payment-sbp, an instant bank transfer by QR code or pay link (docs/payments.md, "The store's
 * payment calls").
 */
export const SbpPaymentBodySchema = z
  .object({
    type: z.enum(['purchase', 'balance'], { error: ErrorKeys.unknownOption }),
    value: optional(PaymentValueSchema),
    orderId: optional(uuid),
  })
  .check(z.superRefine(checkTopUpValue));
export type SbpPaymentBody = z.infer<typeof SbpPaymentBodySchema>;

/**
 * An amount in whole units with at most two decimals ("150", "150.5", 150.50), turned into minor
 * units without passing through a float.
 */
export const DecimalAmountSchema = z.pipe(
  z.pipe(
    z.transform((value: unknown) => (typeof value === 'number' ? String(value) : value)),
    z
      .string({ error: ErrorKeys.notANumber })
      .check(z.trim(), z.regex(/^\d{1,9}(\.\d{1,2})?$/, { error: ErrorKeys.notANumber })),
  ),
  z.transform((value: string) => {
    const [whole = '0', fraction = ''] = value.split('.');
    return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  }),
);

const currency = z
  .string({ error: ErrorKeys.requiredField })
  .check(z.trim(), z.regex(/^[A-Za-z]{3}$/, { error: ErrorKeys.invalidValue }), z.toUpperCase());

const text = (max: number) =>
  z
    .string({ error: ErrorKeys.requiredField })
    .check(
      z.trim(),
      z.minLength(1, { error: ErrorKeys.requiredField }),
      z.maxLength(max, { error: ErrorKeys.tooLong }),
      cleanText(),
    );

/**
 * A CPF is exactly 11 characters: its digits, with or without the mask's dots and dash
 * (docs/payments.md, "The store's payment calls").
 */
const CpfSchema = z.pipe(
  z
    .string({ error: ErrorKeys.requiredField })
    .check(z.trim(), z.regex(/^(\d{11}|\d{3}\.\d{3}\.\d{3}-\d{2})$/, { error: ErrorKeys.invalidValue })),
  z.transform((value: string) => value.replace(/\D/g, '')),
);

/**
 * POST /orders/create-qr: pays an order by QR (PIX when the currency is BRL, the pay link otherwise).
 * `amount` and `currency` are what the page shows and must be the order's (422 otherwise), so a page
 * left open over a changed order never pays the wrong sum. The order is `orderId`, or the newest
 * unpaid one of `type` (purchase by default). `personalId` is the payer's CPF.
 */
export const CreateQrBodySchema = z.object({
  amount: DecimalAmountSchema,
  currency,
  personalId: optional(CpfSchema),
  firstName: optional(text(64)),
  orderId: optional(uuid),
  type: optional(z.enum(['purchase', 'balance'], { error: ErrorKeys.unknownOption })),
});
export type CreateQrBody = z.infer<typeof CreateQrBodySchema>;

/** An address the provider sends the browser back to: absolute http(s); the server checks its origin. */
const ReturnUrlSchema = z
  .string({ error: ErrorKeys.requiredField })
  .check(
    z.trim(),
    z.maxLength(2_048, { error: ErrorKeys.tooLong }),
    z.regex(/^https?:\/\/[^\s]+$/i, { error: ErrorKeys.invalidValue }),
  );

/**
 * POST /orders/create-upi, with the fields of docs/payments.md, "The store's payment calls".
 * `success_url`, `decline_url` and `cancel_url` must be on the store's own origin (422
 * `validation.foreignOrigin` otherwise): no open redirect.
 */
export const CreateUpiBodySchema = z.object({
  currency,
  description: text(256),
  FirstName: text(64),
  AccountNumber: text(64),
  email: EmailSchema,
  phone: z
    .string({ error: ErrorKeys.requiredField })
    .check(z.trim(), z.regex(/^\+?[\d\s()-]{5,20}$/, { error: ErrorKeys.invalidValue })),
  zip: text(16),
  address: text(256),
  success_url: ReturnUrlSchema,
  decline_url: ReturnUrlSchema,
  cancel_url: ReturnUrlSchema,
  orderId: optional(uuid),
  type: optional(z.enum(['purchase', 'balance'], { error: ErrorKeys.unknownOption })),
});
export type CreateUpiBody = z.infer<typeof CreateUpiBodySchema>;

/** POST /payment/initialize: the hosted payment page for an order; `token` is the attempt's key. */
export const InitializePaymentBodySchema = z.object({ orderId: uuid, token: AttemptTokenSchema });
export type InitializePaymentBody = z.infer<typeof InitializePaymentBodySchema>;

/** POST /orders/confirm/{id} */
export const ConfirmOrderParamsSchema = z.object({ id: uuid });
export type ConfirmOrderParams = z.infer<typeof ConfirmOrderParamsSchema>;

// ---------------------------------------------------------------------------------------------
// What a payment is charged in

/**
 * What a payment is charged in (docs/currency.md, "What a payment is charged in"). The order, the
 * ledger and the balance stay in BRL; each payment is charged in its rail's currency, converted from
 * the order's BRL total at the operator's rate, which the payment locks when it is opened.
 */

/**
 * The error key of a method refused for want of a current rate (a 422 on `currency`). Kept beside the
 * charge rather than in ErrorKeys, whose table every page loads: only the payment screens need it.
 */
export const CHARGE_RATE_UNAVAILABLE = 'validation.chargeRateUnavailable';

/** The currencies the instant-transfer rails settle in: nothing else can be charged on them. */
export const RAIL_CURRENCY = { pix: 'BRL', sbp: 'RUB', upi: 'INR' } as const;

/** The card paths, whose currency is the store's configuration (`PAYMENTS_CHARGE_CURRENCY`). */
export const CARD_CHARGE_METHODS = ['widget', 'hosted_page', 'card'] as const;
export type CardChargeMethod = (typeof CARD_CHARGE_METHODS)[number];

/** A payment is not charged at a rate older than this (the server's `PAYMENTS_RATE_MAX_AGE_HOURS`). */
export const CHARGE_RATE_MAX_AGE_MS = 48 * 3_600_000;

/**
 * `minor` BRL cents in minor units of a currency at `rate` (BRL per unit, at most 6 decimals), rounded
 * half up to the minor unit: charge = floor((2 * minor * 10^6 + micros) / (2 * micros)), micros being
 * the rate in millionths of a BRL, in exact integer arithmetic. Every currency charged has two minor
 * digits, as BRL has. Undefined for a rate that is not one, or an amount that is not whole cents.
 */
export function convertToCharge(minor: number, rate: string): number | undefined {
  const micros = rateMicros(rate);
  if (micros === undefined || !Number.isSafeInteger(minor) || minor < 0) return undefined;
  const twice = BigInt(micros) * 2n;
  const charge = (BigInt(minor) * 2_000_000n + BigInt(micros)) / twice;
  return charge <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(charge) : undefined;
}

/**
 * What a payment is charged, in every answer that opens one: `amount_minor` in `currency` (what the
 * provider is asked for and the payer's bank shows), the order's BRL amount it stands for, the rate
 * (BRL per unit, "1" for BRL) and when the operator set it (null for BRL), and when the payment locked
 * it.
 */
export const ChargeSchema = z.object({
  amount_minor: z.int(),
  currency: z.string(),
  store_amount_minor: z.int(),
  store_currency: z.string(),
  rate: z.string(),
  rate_set_at: z.nullable(z.string()),
  locked_at: z.string(),
});
export type Charge = z.infer<typeof ChargeSchema>;

/** Whether a charge is in the store's own currency: no conversion to state. */
export const isStoreCharge = (charge: Pick<Charge, 'currency'>) => charge.currency === STORE_CURRENCY;

/** The instant-transfer methods offered to shoppers of each language: the one their bank uses. */
export type InstantMethod = 'pix' | 'sbp' | 'upi';
export const INSTANT_METHODS_BY_LOCALE: Record<string, readonly InstantMethod[]> = {
  'pt-BR': ['pix'],
  ru: ['sbp'],
  hi: ['upi'],
  // English is the language of shoppers from anywhere: every rail the provider offers.
  en: ['pix', 'sbp', 'upi'],
};
export const instantMethodsFor = (locale: string): readonly InstantMethod[] =>
  INSTANT_METHODS_BY_LOCALE[locale] ?? ['pix', 'sbp', 'upi'];

// ---------------------------------------------------------------------------------------------
// Responses

/** The request of docs/payments.md, "The widget request", as the provider's widget takes it. */
export const WidgetRequestSchema = z.object({
  order_id: z.string(),
  /** Decimal string with two places ("150.00"). */
  amount: z.string(),
  currency: z.string(),
  description: z.string(),
  receipt: z.object({
    email: z.string(),
    items: z.array(
      z.object({
        name: z.string(),
        price: z.string(),
        quantity: z.int(),
        sum: z.string(),
        payment_method: z.literal('full_prepayment'),
        payment_object: z.literal('service'),
        vat: z.literal('none'),
      }),
    ),
    payments: z.tuple([z.object({ type: z.literal('electronic'), sum: z.string() })]),
  }),
});
export type WidgetRequest = z.infer<typeof WidgetRequestSchema>;

const CardSummarySchema = z.object({ brand: z.string(), last4: z.string() });

/**
 * What every answer of a payment call names: the order and the store's payment (attempt), and what
 * that payment is charged (docs/currency.md, "What a payment is charged in"). The server always sends
 * `charge`; a client written before it may ignore it.
 */
const paid = {
  order_id: z.string(),
  payment_id: z.string(),
  charge: z.optional(ChargeSchema),
};

/**
 * POST /payment. Without card fields, `widget`: load `widget.script_url`, then call
 * `SandboxPay.pay(widget.request, { onSuccess, onError, onClose })`. With card fields, the provider's
 * answer (docs/payments.md, "How the browser goes on"): `success` (the order completes when the
 * provider's callback is processed: poll POST /payment/status), `failed` with the provider's `reason`,
 * `3DS` (post PaReq, MD and TermUrl as hidden fields to redirectUrl) or `3DS_REDIRECT` (go to
 * redirectUrl with redirectParams, by redirectMethod). Either way the browser comes back to
 * `/?paymentConfirmOrder={order_id}`.
 */
export const PaymentResponseSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('widget'),
    ...paid,
    total_price: z.number(),
    total_minor: z.int(),
    currency: z.string(),
    widget: z.object({ script_url: z.string(), request: WidgetRequestSchema }),
  }),
  z.object({ status: z.literal('success'), ...paid, card: CardSummarySchema }),
  z.object({ status: z.literal('failed'), ...paid, reason: z.string(), card: CardSummarySchema }),
  z.object({
    status: z.literal('3DS'),
    ...paid,
    card: CardSummarySchema,
    redirectUrl: z.string(),
    PaReq: z.string(),
    MD: z.string(),
    TermUrl: z.string(),
  }),
  z.object({
    status: z.literal('3DS_REDIRECT'),
    ...paid,
    card: CardSummarySchema,
    redirectMethod: z.enum(['GET', 'POST']),
    redirectUrl: z.string(),
    redirectParams: z.record(z.string(), z.string()),
  }),
]);
export type PaymentResponse = z.infer<typeof PaymentResponseSchema>;

/** A QR's image: its data-URL parts and what it encodes. */
const QrImageSchema = z.object({ content: z.string(), media_type: z.literal('image/png') });

/**
 * POST /payment-sbp (docs/payments.md, "The store's payment calls"): the QR's image as
 * `sbp.image.content` and `sbp.image.media_type`, what it encodes as `sbp.payload`, the pay link and
 * when it expires.
 */
export const SbpPaymentResponseSchema = z.object({
  ...paid,
  sbp: z.object({ image: QrImageSchema, payload: z.string(), pay_link: z.string(), expires_at: z.string() }),
});
export type SbpPaymentResponse = z.infer<typeof SbpPaymentResponseSchema>;

/**
 * POST /orders/create-qr (docs/payments.md, "The store's payment calls"): QrImage (a `data:` URL,
 * ready for an <img>) and PayLink, with the QR's payload (a PIX BR Code to copy) and when it stops
 * being payable.
 */
export const QrPaymentResponseSchema = z.object({
  ...paid,
  QrImage: z.string(),
  PayLink: z.string(),
  payload: z.string(),
  expires_at: z.string(),
});
export type QrPaymentResponse = z.infer<typeof QrPaymentResponseSchema>;

/** POST /orders/create-upi: send the browser to `redirect_url`; `intent` is the `upi://pay?...` link. */
export const UpiPaymentResponseSchema = z.object({ ...paid, redirect_url: z.string(), intent: z.string() });
export type UpiPaymentResponse = z.infer<typeof UpiPaymentResponseSchema>;

/**
 * POST /payment/initialize: a form to post, `<form method="POST" action>` with each of `fields` as a
 * hidden input (the signed base64 JSON `Request` of docs/sandbox.md, "The hosted page's request").
 */
export const HostedPageResponseSchema = z.object({
  ...paid,
  method: z.literal('POST'),
  action: z.string(),
  fields: z.object({ Request: z.string() }),
});
export type HostedPageResponse = z.infer<typeof HostedPageResponseSchema>;

/**
 * POST /orders/confirm/{id}: the provider was asked about the order's payments and what it said was
 * handed to the one completion path; the status is the order's now (as POST /payment/status), which
 * the completion may change a moment later: keep polling while it is `init`.
 */
export const ConfirmOrderResponseSchema = z.object({
  status: z.enum(PAYMENT_STATUS_VALUES),
  order_id: z.string(),
  order_status: z.enum(ORDER_STATUSES),
  type: z.enum(PAYMENT_TYPES),
  refunded_minor: z.int(),
  /** With `error` only: why, when the store knows (PAYMENT_FAILURE_REASONS). */
  reason: z.optional(z.string()),
  /** How many of the provider's payments for the order had news that was handed on. */
  updates: z.int(),
});
export type ConfirmOrderResponse = z.infer<typeof ConfirmOrderResponseSchema>;

/** POST /payments/callback: the provider only reads the status; the body says what became of it. */
export const CallbackAckSchema = z.object({ received: z.literal(true), duplicate: z.boolean() });

/**
 * The ways to pay this store offers (GET /payments/methods): each routed to a configured provider
 * (docs/payments.md, "Providers"). `pix` and `sbp` are the two schemes of the QR payment.
 */
export const OFFERED_PAYMENT_METHODS = ['widget', 'hosted_page', 'card', 'pix', 'sbp', 'upi'] as const;
export type OfferedPaymentMethod = (typeof OFFERED_PAYMENT_METHODS)[number];
export const PaymentMethodsResponseSchema = z.object({ methods: z.array(z.enum(OFFERED_PAYMENT_METHODS)) });
export type PaymentMethodsResponse = z.infer<typeof PaymentMethodsResponseSchema>;
export type CallbackAck = z.infer<typeof CallbackAckSchema>;

/**
 * The `code` of a 409 to a payment call: a payment of the order has succeeded or is still being
 * decided, so another would charge it twice. The client shows that the order is paid and being
 * processed, and follows its status rather than offering to pay again.
 */
export const PAYMENT_UNDER_WAY = 'payment.underWay';
