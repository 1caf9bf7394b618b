import * as z from 'zod/mini';
import { AdminReasonSchema, pageOf } from './admin.ts';
import { ErrorKeys } from './errors.ts';
import { LOCALES, PROMO_CODE_MAX, PROMO_CODE_MIN } from './limits.ts';

// The console's catalogue under /api/admin/products (docs/console.md): the products list, a product
// with its texts in every language, and the changes a manager makes to them. The product's own name
// is the one the shop shows and searches in every language; its description and activation
// instructions have a text per language (English is the product's own, the others its translations).

/** The longest product name, cover path and cover caption the products table holds. */
export const PRODUCT_NAME_MAX = 200;
export const PRODUCT_COVER_MAX = 256;
export const PRODUCT_COVER_TEXT_MAX = 64;
/** The longest description or activation instructions in one language. */
export const PRODUCT_TEXT_MAX = 10_000;
/** The highest price, old price or nominal the console takes, in minor units. */
export const PRODUCT_MINOR_MAX = 1_000_000_000;
export const LOW_STOCK_THRESHOLD_MAX = 1_000_000;

const blankToUndefined = (value: unknown): unknown =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;
const optionalQuery = <T extends z.core.SomeType>(schema: T) =>
  z.pipe(z.transform(blankToUndefined), z.optional(schema));
const queryInt = (min: number, max: number) =>
  z.pipe(
    z.pipe(
      z.string({ error: ErrorKeys.notANumber }).check(z.regex(/^\d{1,9}$/, { error: ErrorKeys.notANumber })),
      z.transform((value: string) => Number(value)),
    ),
    z.int().check(z.minimum(min, { error: ErrorKeys.tooSmall }), z.maximum(max, { error: ErrorKeys.tooLarge })),
  );

const slug = z
  .string({ error: ErrorKeys.requiredField })
  .check(
    z.trim(),
    z.minLength(1, { error: ErrorKeys.requiredField }),
    z.maxLength(64, { error: ErrorKeys.tooLong }),
    z.regex(/^[a-z0-9-]+$/, { error: ErrorKeys.invalidValue }),
  );
const code = (max: number) =>
  z
    .string({ error: ErrorKeys.requiredField })
    .check(
      z.trim(),
      z.minLength(1, { error: ErrorKeys.requiredField }),
      z.maxLength(max, { error: ErrorKeys.tooLong }),
      z.toUpperCase(),
      z.regex(/^[A-Z0-9]+$/, { error: ErrorKeys.invalidValue }),
    );
const minor = (min: number) =>
  z
    .int({ error: ErrorKeys.notANumber })
    .check(z.minimum(min, { error: ErrorKeys.tooSmall }), z.maximum(PRODUCT_MINOR_MAX, { error: ErrorKeys.tooLarge }));
const text = z
  .string({ error: ErrorKeys.invalidValue })
  .check(z.maxLength(PRODUCT_TEXT_MAX, { error: ErrorKeys.tooLong }));

/** A text in each of the store's languages; a language left out is empty. */
const textsByLocale = z.object({
  'pt-BR': z.optional(text),
  en: z.optional(text),
  ru: z.optional(text),
  hi: z.optional(text),
});

/** A cover: a path of the shop's own (`/covers/steam.webp`) or an https address. */
const cover = z.nullable(
  z
    .string({ error: ErrorKeys.invalidValue })
    .check(
      z.trim(),
      z.maxLength(PRODUCT_COVER_MAX, { error: ErrorKeys.tooLong }),
      z.regex(/^(?:\/[A-Za-z0-9._~%/-]*|https:\/\/[^\s"'<>]+)$/, { error: ErrorKeys.invalidValue }),
    ),
);

const productFields = {
  name: z
    .string({ error: ErrorKeys.requiredField })
    .check(
      z.trim(),
      z.minLength(1, { error: ErrorKeys.requiredField }),
      z.maxLength(PRODUCT_NAME_MAX, { error: ErrorKeys.tooLong }),
    ),
  descriptions: textsByLocale,
  activation_instructions: textsByLocale,
  /** The sale price in the store currency's minor units. */
  price_minor: minor(1),
  /** The price before a discount (above `price_minor`), or null when not discounted. */
  old_price_minor: z.nullable(minor(1)),
  /** A category's slug. */
  category: slug,
  /** A country's or region's code (BR, US, EU, GLOBAL). */
  country: code(8),
  /** The face value in minor units of `nominal_currency` (a 50 USD card: 5000). */
  nominal_minor: minor(1),
  nominal_currency: code(8),
  cover_path: cover,
  cover_text: z.nullable(
    z
      .string({ error: ErrorKeys.invalidValue })
      .check(z.trim(), z.maxLength(PRODUCT_COVER_TEXT_MAX, { error: ErrorKeys.tooLong })),
  ),
  is_active: z.boolean({ error: ErrorKeys.invalidValue }),
  /** The dashboard lists the product as low on stock at this many available codes or fewer. */
  low_stock_threshold: z
    .int({ error: ErrorKeys.notANumber })
    .check(
      z.minimum(0, { error: ErrorKeys.tooSmall }),
      z.maximum(LOW_STOCK_THRESHOLD_MAX, { error: ErrorKeys.tooLarge }),
    ),
};

/** An old price must be above the price it was discounted to; reported on `old_price_minor`. */
export function oldPriceAbovePrice(priceMinor: number, oldPriceMinor: number | null): boolean {
  return oldPriceMinor === null || oldPriceMinor > priceMinor;
}

/** POST /api/admin/products (manager): a new product; it shows in the shop when active. */
export const ProductCreateBodySchema = z
  .object({
    ...productFields,
    descriptions: z._default(textsByLocale, {}),
    activation_instructions: z._default(textsByLocale, {}),
    old_price_minor: z._default(productFields.old_price_minor, null),
    cover_path: z._default(cover, null),
    cover_text: z._default(productFields.cover_text, null),
    is_active: z._default(productFields.is_active, true),
    low_stock_threshold: z._default(productFields.low_stock_threshold, 5),
  })
  .check(
    z.superRefine((body, ctx) => {
      if (!oldPriceAbovePrice(body.price_minor, body.old_price_minor)) {
        ctx.addIssue({ code: 'custom', path: ['old_price_minor'], message: ErrorKeys.tooSmall });
      }
    }),
  );
export type ProductCreateBody = z.input<typeof ProductCreateBodySchema>;
export type ProductCreateInput = z.output<typeof ProductCreateBodySchema>;

/**
 * PATCH /api/admin/products/{id} (manager): the fields to change; a language left out of
 * `descriptions` or `activation_instructions` keeps its text. The old price is checked against the
 * price the product will have.
 */
export const ProductUpdateBodySchema = z.partial(z.object(productFields));
export type ProductUpdateBody = z.input<typeof ProductUpdateBodySchema>;
export type ProductUpdateInput = z.output<typeof ProductUpdateBodySchema>;

/** GET /api/admin/products: `q` a part of the name or a product's id; newest first. */
export const AdminProductQuerySchema = z.object({
  q: optionalQuery(z.string().check(z.trim(), z.maxLength(PRODUCT_NAME_MAX, { error: ErrorKeys.tooLong }))),
  category: optionalQuery(slug),
  active: optionalQuery(z.enum(['true', 'false'], { error: ErrorKeys.unknownOption })),
  page: optionalQuery(queryInt(1, 100_000)),
  page_size: optionalQuery(queryInt(1, 100)),
});
export type AdminProductQuery = z.output<typeof AdminProductQuerySchema>;

export const AdminProductSchema = z.object({
  id: z.int(),
  name: z.string(),
  category: z.string(),
  category_name: z.string(),
  country: z.string(),
  price_minor: z.int(),
  old_price_minor: z.nullable(z.int()),
  nominal_minor: z.int(),
  nominal_currency: z.string(),
  cover_path: z.nullable(z.string()),
  cover_text: z.nullable(z.string()),
  is_active: z.boolean(),
  /** Available codes. */
  stock: z.int(),
  low_stock_threshold: z.int(),
  created_at: z.string(),
});
export type AdminProduct = z.infer<typeof AdminProductSchema>;

export const AdminProductPageSchema = pageOf(AdminProductSchema);
export type AdminProductPage = z.infer<typeof AdminProductPageSchema>;

const textsOut = z.object({ 'pt-BR': z.string(), en: z.string(), ru: z.string(), hi: z.string() });

/** GET /api/admin/products/{id}, and the answer to a change: the product with every language's texts. */
export const AdminProductDetailSchema = z.object({
  product: z.extend(AdminProductSchema, { descriptions: textsOut, activation_instructions: textsOut }),
});
export type AdminProductDetail = z.infer<typeof AdminProductDetailSchema>;

/** GET /api/admin/products/options: what the form's selects offer. */
export const AdminProductOptionsSchema = z.object({
  categories: z.array(z.object({ slug: z.string(), name: z.string() })),
  countries: z.array(z.object({ code: z.string(), name: z.nullable(z.string()) })),
  currencies: z.array(z.object({ code: z.string(), minor_units: z.int() })),
});
export type AdminProductOptions = z.infer<typeof AdminProductOptionsSchema>;

/** The languages a product's texts are kept in, in the console's order. */
export const PRODUCT_TEXT_LOCALES = LOCALES;

// ---------------------------------------------------------------------------------------------
// Promo codes

/** The most categories and products one promo code may be limited to. */
export const PROMO_SCOPE_MAX = 200;

export const PROMO_STATUSES = ['usable', 'inactive', 'not_yet_valid', 'expired', 'used_up'] as const;

/** GET /api/admin/promo-codes: `q` a part of the code; newest first. */
export const AdminPromoQuerySchema = z.object({
  q: optionalQuery(z.string().check(z.trim(), z.maxLength(PROMO_CODE_MAX, { error: ErrorKeys.tooLong }))),
  active: optionalQuery(z.enum(['true', 'false'], { error: ErrorKeys.unknownOption })),
  page: optionalQuery(queryInt(1, 100_000)),
  page_size: optionalQuery(queryInt(1, 100)),
});
export type AdminPromoQuery = z.output<typeof AdminPromoQuerySchema>;

const instant = z.string({ error: ErrorKeys.invalidValue }).check(
  z.regex(/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/, {
    error: ErrorKeys.invalidValue,
  }),
  z.refine((value: string) => !Number.isNaN(Date.parse(value)), { error: ErrorKeys.invalidValue }),
);

/**
 * POST /api/admin/promo-codes (manager): a percent off the lines of the given categories and
 * products (neither: the whole basket), within an optional window and number of uses.
 */
export const PromoCreateBodySchema = z
  .object({
    code: z
      .string({ error: ErrorKeys.requiredField })
      .check(
        z.trim(),
        z.minLength(PROMO_CODE_MIN, { error: ErrorKeys.tooShort }),
        z.maxLength(PROMO_CODE_MAX, { error: ErrorKeys.tooLong }),
        z.regex(/^[A-Za-z0-9_-]+$/, { error: ErrorKeys.invalidCharacters }),
        z.toUpperCase(),
      ),
    percent: z
      .int({ error: ErrorKeys.notANumber })
      .check(z.minimum(1, { error: ErrorKeys.tooSmall }), z.maximum(100, { error: ErrorKeys.tooLarge })),
    valid_from: z.optional(z.nullable(instant)),
    valid_until: z.optional(z.nullable(instant)),
    max_uses: z.optional(
      z
        .nullable(z.int({ error: ErrorKeys.notANumber }))
        .check(z.refine((value) => value === null || value >= 1, { error: ErrorKeys.tooSmall })),
    ),
    categories: z._default(z.array(slug).check(z.maxLength(PROMO_SCOPE_MAX, { error: ErrorKeys.tooLarge })), []),
    product_ids: z._default(
      z
        .array(z.int({ error: ErrorKeys.notANumber }).check(z.minimum(1, { error: ErrorKeys.tooSmall })))
        .check(z.maxLength(PROMO_SCOPE_MAX, { error: ErrorKeys.tooLarge })),
      [],
    ),
  })
  .check(
    z.superRefine((body, ctx) => {
      if (body.valid_from && body.valid_until && Date.parse(body.valid_from) >= Date.parse(body.valid_until)) {
        ctx.addIssue({ code: 'custom', path: ['valid_until'], message: ErrorKeys.minAboveMax });
      }
    }),
  );
export type PromoCreateBody = z.input<typeof PromoCreateBodySchema>;
export type PromoCreateInput = z.output<typeof PromoCreateBodySchema>;

/** POST /api/admin/promo-codes/{id}/deactivate (manager): why; uses already made stay. */
export const PromoDeactivateBodySchema = z.object({ reason: AdminReasonSchema });
export type PromoDeactivateBody = z.input<typeof PromoDeactivateBodySchema>;

export const AdminPromoSchema = z.object({
  id: z.int(),
  code: z.string(),
  percent: z.int(),
  valid_from: z.nullable(z.string()),
  valid_until: z.nullable(z.string()),
  max_uses: z.nullable(z.int()),
  used_count: z.int(),
  is_active: z.boolean(),
  /** What a customer trying it now would meet. */
  status: z.enum(PROMO_STATUSES),
  categories: z.array(z.string()),
  product_ids: z.array(z.int()),
  created_at: z.string(),
});
export type AdminPromo = z.infer<typeof AdminPromoSchema>;

export const AdminPromoPageSchema = pageOf(AdminPromoSchema);
export type AdminPromoPage = z.infer<typeof AdminPromoPageSchema>;

export const AdminPromoResponseSchema = z.object({ promo: AdminPromoSchema });
export type AdminPromoResponse = z.infer<typeof AdminPromoResponseSchema>;
