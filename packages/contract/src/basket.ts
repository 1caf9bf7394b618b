import * as z from 'zod/mini';
import { ProductSummarySchema } from './catalogue.ts';
import { DisplayRateSchema } from './display.ts';
import { ErrorKeys, ValidationErrorSchema } from './errors.ts';
import { BASKET_CHANGES_MAX, BASKET_LINE_MAX, BASKET_LINES_MAX, PROMO_CODE_MAX, PROMO_CODE_MIN } from './limits.ts';

// The basket and promo codes (docs/orders.md, "The basket" and "Promo codes"). The basket panel is
// on every page, so these are written with zod/mini like the catalogue.

const productId = z
  .int({ error: ErrorKeys.invalidValue })
  .check(z.minimum(1, { error: ErrorKeys.tooSmall }), z.maximum(2_147_483_647, { error: ErrorKeys.tooLarge }));

/** Units of a product in one change or line: a whole number from 1 to the per-line maximum. */
const units = z
  .int({ error: ErrorKeys.notANumber })
  .check(z.minimum(1, { error: ErrorKeys.tooSmall }), z.maximum(BASKET_LINE_MAX, { error: ErrorKeys.tooLarge }));

/**
 * Ids the client gives a flush or a merge, kept until the server has acknowledged it, so that a
 * retried request is applied once (a UUID from crypto.randomUUID()).
 */
export const RequestIdSchema = z
  .string({ error: ErrorKeys.requiredField })
  .check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { error: ErrorKeys.invalidValue }));

// ---------------------------------------------------------------------------------------------
// Requests

/** A change to the basket (docs/orders.md, "The basket"): id, type (increase or decrease), count. */
export const BasketChangeSchema = z.object({
  id: productId,
  type: z.enum(['increase', 'decrease'], { error: ErrorKeys.unknownOption }),
  count: units,
});
export type BasketChange = z.infer<typeof BasketChangeSchema>;

const noDuplicateIds = <T extends { id: number }>(field: 'id') =>
  z.superRefine((items: T[], ctx) => {
    const seen = new Set<number>();
    items.forEach((item, index) => {
      if (seen.has(item[field])) {
        ctx.addIssue({ code: 'custom', path: [index, field], message: ErrorKeys.duplicateValue });
      }
      seen.add(item[field]);
    });
  });

/**
 * PATCH /basket: the queued changes of one flush (at most 30 queued before a flush; a longer list is
 * refused). A product appears at most once in a flush: the client folds its queue by product before
 * sending, so a duplicate is a client bug, not something to guess about. `flush_id` is optional: a
 * flush that names one is applied once however often it is retried; one without is applied each time
 * it arrives, for a client that does not retry.
 */
export const BasketPatchBodySchema = z.object({
  flush_id: z.optional(RequestIdSchema),
  products: z
    .array(BasketChangeSchema, { error: ErrorKeys.requiredField })
    .check(
      z.minLength(1, { error: ErrorKeys.requiredField }),
      z.maxLength(BASKET_CHANGES_MAX, { error: ErrorKeys.tooLong }),
      noDuplicateIds<BasketChange>('id'),
    ),
});
export type BasketPatchBody = z.infer<typeof BasketPatchBodySchema>;

/** One line of the guest basket sent for merging on login or registration. */
export const BasketMergeLineSchema = z.object({ id: productId, quantity: units });
export type BasketMergeLine = z.infer<typeof BasketMergeLineSchema>;

/**
 * POST /basket/merge: the guest basket, sent once after login or registration and merged on the
 * server with quantities summed. `merge_id` names that local copy: sending the same copy again
 * (a retry, a second login before the copy was removed) does not add it twice.
 */
export const BasketMergeBodySchema = z.object({
  merge_id: RequestIdSchema,
  products: z
    .array(BasketMergeLineSchema, { error: ErrorKeys.requiredField })
    .check(z.maxLength(BASKET_LINES_MAX, { error: ErrorKeys.tooLong }), noDuplicateIds<BasketMergeLine>('id')),
});
export type BasketMergeBody = z.infer<typeof BasketMergeBodySchema>;

const promoCodeText = z
  .string({ error: ErrorKeys.requiredField })
  .check(
    z.trim(),
    z.minLength(PROMO_CODE_MIN, { error: ErrorKeys.tooShort }),
    z.maxLength(PROMO_CODE_MAX, { error: ErrorKeys.tooLong }),
    z.regex(/^[A-Za-z0-9_-]+$/, { error: ErrorKeys.invalidPromoCode }),
  );

/** A promo code as typed: case and surrounding spaces do not matter; stored upper-cased. */
export const PromoCodeSchema = z.pipe(
  promoCodeText,
  z.transform((code: string) => code.toUpperCase()),
);

/**
 * POST /promocode/?price={n}&code={code} (docs/orders.md, "Promo codes"). `price` is the total the
 * client shows, in whole units; the server computes the discount from the server basket, never from
 * this number, and only checks that it is a sane amount.
 */
export const PromoQuerySchema = z.object({
  code: PromoCodeSchema,
  price: z.optional(
    z.pipe(
      z.string().check(z.regex(/^\d{1,9}(\.\d{1,2})?$/, { error: ErrorKeys.notANumber })),
      z.transform((value: string) => Number(value)),
    ),
  ),
});
export type PromoQuery = z.infer<typeof PromoQuerySchema>;

// ---------------------------------------------------------------------------------------------
// Responses

/** A basket line (docs/orders.md, "The basket"): the product's fields and `pivot.quantity`. */
export const BasketItemSchema = z.extend(
  z.pick(ProductSummarySchema, {
    id: true,
    article: true,
    name: true,
    price: true,
    price_minor: true,
    currency: true,
    category: true,
    cover_path: true,
    cover_text: true,
    country_icon: true,
    country: true,
    in_stock: true,
  }),
  {
    pivot: z.object({ quantity: z.int().check(z.positive()) }),
    /** The most this line may hold now: the smaller of the stock and BASKET_LINE_MAX. */
    max_quantity: z.int(),
  },
);
export type BasketItem = z.infer<typeof BasketItemSchema>;

/** Why a line holds less than was asked for. */
export const CAP_REASONS = ['stock', 'line_max', 'unavailable', 'basket_full'] as const;
export const CappedLineSchema = z.object({
  id: z.int(),
  /** What the change or merge asked the line to hold. */
  requested: z.int(),
  /** What the line holds now (0: it was removed or never added). */
  quantity: z.int(),
  reason: z.enum(CAP_REASONS),
});
export type CappedLine = z.infer<typeof CappedLineSchema>;

/** GET /basket, PATCH /basket and POST /basket/merge: the whole server basket after the call. */
export const BasketResponseSchema = z.object({
  products: z.array(BasketItemSchema),
  /** Sum of price_minor x quantity over the lines. */
  total_minor: z.int(),
  total: z.number(),
  currency: z.string(),
  /** Lines the call could not set as asked (stock, the per-line maximum, an inactive product). */
  capped: z.array(CappedLineSchema),
  /**
   * The rate the shopper's language shows prices at (`?lang=`); the total charged is `total_minor`
   * in `currency`, the store's, whatever this says.
   */
  display: DisplayRateSchema,
});
export type BasketResponse = z.infer<typeof BasketResponseSchema>;
/** The basket as the store keeps it, before the display rate of the request's language is added. */
export type BasketContents = Omit<BasketResponse, 'display'>;

/** Why a promo code was refused; each is also a message key under `validation.promo.*`. */
export const PROMO_REFUSALS = [
  'unknown',
  'inactive',
  'not_yet_valid',
  'expired',
  'used_up',
  'already_used',
  'held',
  'out_of_scope',
  'empty_basket',
] as const;
export type PromoRefusal = (typeof PROMO_REFUSALS)[number];

/**
 * POST /promocode's 422: when a rule refused the code, `errors.code` holds
 * validation.invalidPromoCode (the shopper sees 'Неверный промокод') and `reason` says which rule;
 * a malformed query (a code of two letters) has the usual field errors and no `reason`.
 */
export const PromoErrorSchema = z.extend(ValidationErrorSchema, { reason: z.optional(z.enum(PROMO_REFUSALS)) });
export type PromoErrorBody = z.infer<typeof PromoErrorSchema>;

/**
 * The `code` of POST /promocode's 401 for a guest (the hint says 'Авторизуйтесь'), beside the usual
 * `message`.
 */
export const PROMO_LOGIN_REQUIRED = 'promo.loginRequired';

/**
 * POST /promocode (docs/orders.md, "Promo codes"): price, priceWithDiscount and discount (percent),
 * computed from the server basket, and which lines the code applies to, so the client can recompute the
 * discount when quantities change (rounded half up on each line's minor units, as the server does).
 */
export const PromoResultSchema = z.object({
  code: z.string(),
  /** Basket total before the discount, in whole units. */
  price: z.number(),
  priceWithDiscount: z.number(),
  /** Percent off the lines in scope. */
  discount: z.int(),
  price_minor: z.int(),
  price_with_discount_minor: z.int(),
  discount_minor: z.int(),
  currency: z.string(),
  /** Product ids of the basket lines the discount applies to. */
  applies_to: z.array(z.int()),
});
export type PromoResult = z.infer<typeof PromoResultSchema>;

/**
 * The discount, in minor units, of `percent` off the lines in scope: each line's discount rounded
 * half up, then summed, so the client and the server arrive at the same number.
 */
export function promoDiscountMinor(
  lines: ReadonlyArray<{ id: number; price_minor: number; quantity: number }>,
  percent: number,
  appliesTo: ReadonlySet<number> | readonly number[],
): number {
  const scope = appliesTo instanceof Set ? appliesTo : new Set(appliesTo as readonly number[]);
  let discount = 0;
  for (const line of lines) {
    if (!scope.has(line.id)) continue;
    discount += Math.floor((line.price_minor * line.quantity * percent + 50) / 100);
  }
  return discount;
}
