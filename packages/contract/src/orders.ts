import * as z from 'zod/mini';
import { PromoCodeSchema } from './basket.ts';
import { ErrorKeys, ValidationErrorSchema } from './errors.ts';
import { SEARCH_MAX, TOPUP_MAX_DIGITS, TOPUP_MIN } from './limits.ts';
import { profilePageOf } from './paging.ts';

// Orders, paying from the balance, the payment status poll and delivery of the codes
// (docs/orders.md). The checkout and the profile read these, so they are written with zod/mini like
// the catalogue and the basket.

/**
 * The payment types (docs/orders.md, "Orders"): buy the basket with a payment, top up the balance, buy
 * from the balance.
 */
export const PAYMENT_TYPES = ['purchase', 'balance', 'spending'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

/**
 * The order state machine as the API names it. created -> pending -> paid -> fulfilled |
 * partially_refunded | refunded; created | pending -> failed | cancelled | expired.
 */
export const ORDER_STATUSES = [
  'created',
  'pending',
  'paid',
  'fulfilled',
  'partially_refunded',
  'refunded',
  'failed',
  'cancelled',
  'expired',
] as const;
export type OrderStatusName = (typeof ORDER_STATUSES)[number];

/** The most a top-up may be: TOPUP_MAX_DIGITS digits of whole units. */
export const TOPUP_MAX = 10 ** TOPUP_MAX_DIGITS - 1;

/**
 * How long an unpaid order waits for its payment before it expires. A payment confirmed after that
 * still completes it: the goods are delivered if there are codes left, the money goes to the
 * balance if not.
 */
export const ORDER_TTL_MINUTES = 30;

/** Purchased products per page of the profile. */
export const PURCHASED_PAGE_SIZE = 10;

const uuid = z
  .string({ error: ErrorKeys.requiredField })
  .check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { error: ErrorKeys.invalidValue }));

const blankToUndefined = (value: unknown): unknown =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

// ---------------------------------------------------------------------------------------------
// Requests

/**
 * The top-up amount in whole units of the store currency: a whole number (or its digits as a
 * string, as an input field gives them), at least TOPUP_MIN, at most TOPUP_MAX_DIGITS digits.
 */
export const TopUpAmountSchema = z.pipe(
  z.pipe(
    z.pipe(
      z.transform((value: unknown) => (typeof value === 'number' ? String(value) : value)),
      z.string({ error: ErrorKeys.notANumber }).check(z.trim(), z.regex(/^\d{1,12}$/, { error: ErrorKeys.notANumber })),
    ),
    z.transform((value: string) => Number(value)),
  ),
  z
    .int()
    .check(z.minimum(TOPUP_MIN, { error: ErrorKeys.tooSmall }), z.maximum(TOPUP_MAX, { error: ErrorKeys.tooLarge })),
);

/**
 * POST /orders/create (docs/orders.md, "Orders"): `type` (a payment type), an optional promo `code`
 * for a purchase, and `replenishmentValue` for a top-up. A blank or null code is no code.
 */
export const CreateOrderBodySchema = z.object({
  type: z.optional(z.enum(PAYMENT_TYPES, { error: ErrorKeys.unknownOption })),
  code: z.pipe(z.transform(blankToUndefined), z.optional(PromoCodeSchema)),
  replenishmentValue: z.pipe(z.transform(blankToUndefined), z.optional(TopUpAmountSchema)),
});
export type CreateOrderBody = z.infer<typeof CreateOrderBodySchema>;

/**
 * `?type=spending` (docs/orders.md, "Orders") makes the order a purchase paid from the balance,
 * whatever the body's type says short of `balance`, which is refused.
 */
export const CreateOrderQuerySchema = z.object({
  type: z.optional(z.enum(PAYMENT_TYPES, { error: ErrorKeys.unknownOption })),
});
export type CreateOrderQuery = z.infer<typeof CreateOrderQuerySchema>;

/** POST /payment/spending-balance-handle?orderId= */
export const SpendingQuerySchema = z.object({ orderId: uuid });
export type SpendingQuery = z.infer<typeof SpendingQuerySchema>;

/** POST /payment/status (docs/orders.md, "The payment status"): the order id, nothing else. */
export const PaymentStatusBodySchema = z.object({ orderId: uuid });
export type PaymentStatusBody = z.infer<typeof PaymentStatusBodySchema>;

/** GET /payment-confirm/{orderId} */
export const OrderIdParamsSchema = z.object({ orderId: uuid });
export type OrderIdParams = z.infer<typeof OrderIdParamsSchema>;

/** GET /payment-products/{id}: the id is the order's. */
export const PaymentProductsParamsSchema = z.object({ id: uuid });
export type PaymentProductsParams = z.infer<typeof PaymentProductsParamsSchema>;

/** GET /profile/products/purchased/search?page&search_string */
export const PurchasedSearchQuerySchema = z.object({
  page: z.pipe(
    z.transform(blankToUndefined),
    z.optional(
      z.pipe(
        z.pipe(
          z.string({ error: ErrorKeys.notANumber }).check(z.regex(/^\d{1,5}$/, { error: ErrorKeys.notANumber })),
          z.transform((value: string) => Number(value)),
        ),
        z.int().check(z.minimum(1, { error: ErrorKeys.tooSmall })),
      ),
    ),
  ),
  search_string: z.pipe(
    z.transform(blankToUndefined),
    z.optional(z.string().check(z.trim(), z.maxLength(SEARCH_MAX, { error: ErrorKeys.tooLong }))),
  ),
});
export type PurchasedSearchQuery = z.infer<typeof PurchasedSearchQuerySchema>;

// ---------------------------------------------------------------------------------------------
// Responses

/**
 * POST /orders/create (docs/orders.md, "Orders"): order_id and total_price (whole units, for
 * display), and what the payment step needs: the total in minor units, the currency, the status and
 * when it expires.
 */
export const CreateOrderResponseSchema = z.object({
  order_id: z.string(),
  total_price: z.number(),
  total_minor: z.int(),
  currency: z.string(),
  type: z.enum(PAYMENT_TYPES),
  /** `created`, or `fulfilled` when a promo code left nothing to pay. */
  status: z.enum(ORDER_STATUSES),
  expires_at: z.nullable(z.string()),
});
export type CreateOrderResponse = z.infer<typeof CreateOrderResponseSchema>;

/**
 * The key of a short balance (POST /payment/spending-balance-handle answers 422 with it under
 * `errors.balance`): the web app opens the insufficient-funds modal on it (docs/orders.md, "Paying
 * from the balance").
 */
export const INSUFFICIENT_FUNDS = ErrorKeys.insufficientFunds;

/** POST /payment/spending-balance-handle: the order after the spend, and the balance left. */
export const SpendResponseSchema = z.object({
  order_id: z.string(),
  status: z.enum(ORDER_STATUSES),
  total_minor: z.int(),
  /** What a shortfall of codes gave back to the balance at once. */
  refunded_minor: z.int(),
  balance: z.number(),
  balance_minor: z.int(),
});
export type SpendResponse = z.infer<typeof SpendResponseSchema>;

/** The 422 of a spend or an order: field errors, as everywhere (docs/api.md, "Errors"). */
export const OrderErrorSchema = ValidationErrorSchema;

/**
 * The payment status (docs/orders.md, "The payment status"): `init` while the order waits for its
 * payment, `error` when it failed, was cancelled or expired unpaid; anything else is a success:
 * `success` when everything was delivered (a top-up credited), `partially_refunded` or `refunded` when
 * codes ran out and their price went back to the balance.
 */
export const PAYMENT_STATUS_VALUES = ['init', 'error', 'success', 'partially_refunded', 'refunded'] as const;
export type PaymentStatusValue = (typeof PAYMENT_STATUS_VALUES)[number];

/**
 * Why a payment failed, as the provider says it; `expired` is also an order left unpaid past its time.
 * A status answer may name a reason not listed here (a new one of the provider's): show it as a failure
 * whose cause is not known.
 */
export const PAYMENT_FAILURE_REASONS = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  '3ds_failed',
  'refused_by_payer',
  'cancelled_by_payer',
  'expired',
] as const;
export type PaymentFailureReasonName = (typeof PAYMENT_FAILURE_REASONS)[number];

export const PaymentStatusResponseSchema = z.object({
  status: z.enum(PAYMENT_STATUS_VALUES),
  order_id: z.string(),
  order_status: z.enum(ORDER_STATUSES),
  type: z.enum(PAYMENT_TYPES),
  refunded_minor: z.int(),
  /** With `error` only: why, when the store knows (PAYMENT_FAILURE_REASONS). */
  reason: z.optional(z.string()),
});
export type PaymentStatusResponse = z.infer<typeof PaymentStatusResponseSchema>;

/** A code of a purchased product, decrypted for its owner. */
export const PurchasedCodeSchema = z.object({ id: z.string(), code: z.string() });
export type PurchasedCode = z.infer<typeof PurchasedCodeSchema>;

/** One line of an order: what was bought, the codes delivered for it and how to activate them. */
export const PurchasedProductSchema = z.object({
  line_id: z.string(),
  order_id: z.string(),
  product_id: z.int(),
  name: z.string(),
  category: z.string(),
  cover_path: z.nullable(z.string()),
  cover_text: z.nullable(z.string()),
  country_icon: z.nullable(z.string()),
  quantity: z.int(),
  /** Codes delivered; fewer than `quantity` when stock ran out and the rest was refunded. */
  delivered: z.int(),
  unit_price: z.number(),
  unit_price_minor: z.int(),
  currency: z.string(),
  activation_instructions: z.string(),
  codes: z.array(PurchasedCodeSchema),
  purchased_at: z.nullable(z.string()),
});
export type PurchasedProduct = z.infer<typeof PurchasedProductSchema>;

export const OrderSummarySchema = z.object({
  id: z.string(),
  type: z.enum(PAYMENT_TYPES),
  status: z.enum(ORDER_STATUSES),
  total: z.number(),
  total_minor: z.int(),
  refunded: z.number(),
  refunded_minor: z.int(),
  currency: z.string(),
  created_at: z.string(),
  paid_at: z.nullable(z.string()),
});
export type OrderSummary = z.infer<typeof OrderSummarySchema>;

/**
 * GET /payment-confirm/{orderId} and GET /payment-products/{id} (docs/orders.md, "Delivery"): the
 * order and its products with their codes (none yet while it is unpaid).
 */
export const OrderDeliverySchema = z.object({
  ok: z.literal(true),
  order: OrderSummarySchema,
  products: z.array(PurchasedProductSchema),
});
export type OrderDelivery = z.infer<typeof OrderDeliverySchema>;

/** GET /profile/products/purchased/search: the customer's purchased products, newest first. */
export const PurchasedSearchResponseSchema = profilePageOf('products', PurchasedProductSchema);
export type PurchasedSearchResponse = z.infer<typeof PurchasedSearchResponseSchema>;
