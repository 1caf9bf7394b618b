import * as z from 'zod/mini';
import { ErrorKeys } from './errors.ts';
import { ORDER_STATUSES, PAYMENT_TYPES } from './orders.ts';
import { profilePageOf } from './paging.ts';

// The customer's orders in the profile and each order's receipt (docs/orders.md, "Order history").

/** Orders per page of the profile's order history. */
export const ORDER_HISTORY_PAGE_SIZE = 10;

/**
 * The short order number a customer reads everywhere (the receipt email, the provider's pages, the
 * store and the receipt): the first block of the order's id, upper-cased.
 */
export function orderNumber(orderId: string): string {
  return orderId.slice(0, 8).toUpperCase();
}

/** How an order was paid, or last tried to be: the provider's methods and the balance. */
export const ORDER_PAYMENT_METHODS = ['card', 'widget', 'hosted_page', 'qr', 'upi', 'balance'] as const;
export type OrderPaymentMethod = (typeof ORDER_PAYMENT_METHODS)[number];

const blankToUndefined = (value: unknown): unknown =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

/** GET /profile/orders?page: the page, 1 when absent. */
export const OrderHistoryQuerySchema = z.object({
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
});
export type OrderHistoryQuery = z.infer<typeof OrderHistoryQuerySchema>;

/** GET /profile/orders/{id} and its receipt: the order's id. */
export const OrderHistoryParamsSchema = z.object({
  id: z
    .string({ error: ErrorKeys.requiredField })
    .check(
      z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { error: ErrorKeys.invalidValue }),
    ),
});
export type OrderHistoryParams = z.infer<typeof OrderHistoryParamsSchema>;

/** A line of an order as it was bought: the name and unit price of then, and its share of the discount. */
export const OrderHistoryLineSchema = z.object({
  product_id: z.int(),
  name: z.string(),
  quantity: z.int(),
  unit_price_minor: z.int(),
  discount_minor: z.int(),
  /** Codes delivered for it (0 while unpaid; fewer than `quantity` where stock ran out). */
  delivered: z.int(),
});
export type OrderHistoryLine = z.infer<typeof OrderHistoryLineSchema>;

/**
 * One order of the customer's: its number, when, its status, how it was paid (or last tried to be),
 * what it cost, what was paid and what went back, its promo code and its lines (none for a top-up).
 * Never a code: the codes of a paid order are read from GET /payment-products/{id}.
 */
export const OrderHistoryItemSchema = z.object({
  id: z.string(),
  number: z.string(),
  type: z.enum(PAYMENT_TYPES),
  status: z.enum(ORDER_STATUSES),
  created_at: z.string(),
  paid_at: z.nullable(z.string()),
  currency: z.string(),
  subtotal_minor: z.int(),
  discount_minor: z.int(),
  total_minor: z.int(),
  /** What the payment that paid it took, in its currency; null while unpaid. */
  paid_minor: z.nullable(z.int()),
  paid_currency: z.nullable(z.string()),
  /** What went back to the customer: to the balance or to the card. */
  refunded_minor: z.int(),
  method: z.nullable(z.enum(ORDER_PAYMENT_METHODS)),
  promo_code: z.nullable(z.string()),
  /** Whether GET /profile/orders/{id}/receipt has a receipt for it: the order was paid. */
  receipt: z.boolean(),
  lines: z.array(OrderHistoryLineSchema),
});
export type OrderHistoryItem = z.infer<typeof OrderHistoryItemSchema>;

/** GET /profile/orders: the customer's orders, newest first. */
export const OrderHistoryPageSchema = profilePageOf('orders', OrderHistoryItemSchema);
export type OrderHistoryPage = z.infer<typeof OrderHistoryPageSchema>;

/** GET /profile/orders/{id} */
export const OrderHistoryDetailSchema = z.object({ order: OrderHistoryItemSchema });
export type OrderHistoryDetail = z.infer<typeof OrderHistoryDetailSchema>;
