import * as z from 'zod/mini';
import { DisplayRateSchema } from './display.ts';
import { ErrorKeys } from './errors.ts';
import {
  HINTS_PER_KIND,
  LOCALES,
  OFFSET_MAX,
  PAGE_MAX,
  PAGE_SIZE,
  PAGE_SIZE_MAX,
  PRICE_FILTER_MAX_DIGITS,
  SEARCH_MAX,
} from './limits.ts';
import { cleanText } from './text.ts';

// The catalogue's schemas are what the web app's first page parses, so they are written with
// zod/mini: the same validation as zod's classic API, in a fraction of the JavaScript a visitor
// downloads. Server-only schemas (accounts, jobs, mail) keep the classic API.

// ---------------------------------------------------------------------------------------------
// Query parameters. They arrive as strings; an empty string means "not set", as the original
// client sends filters only when set but a shared link may carry `minPrice=`.

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** Runs `schema` on the value with blank strings turned into undefined (zod's preprocess). */
export const blankIsUnset = <T extends z.core.$ZodType>(schema: T) => z.pipe(z.transform(blankToUndefined), schema);

const toNumber = z.transform((value: string) => Number(value));

const wholeNumber = (min: number, max: number) =>
  blankIsUnset(
    z.optional(
      z.pipe(
        z.pipe(
          z.string({ error: ErrorKeys.notANumber }).check(z.regex(/^\d{1,9}$/, { error: ErrorKeys.notANumber })),
          toNumber,
        ),
        z.int().check(z.minimum(min, { error: ErrorKeys.tooSmall }), z.maximum(max, { error: ErrorKeys.tooLarge })),
      ),
    ),
  );

/** Price filter bound in whole units of the store currency: digits only, at most 6 of them. */
const priceBound = blankIsUnset(
  z.optional(
    z.pipe(
      z.string().check(z.regex(new RegExp(`^\\d{1,${PRICE_FILTER_MAX_DIGITS}}$`), { error: ErrorKeys.notANumber })),
      toNumber,
    ),
  ),
);

const codeList = (pattern: RegExp) =>
  blankIsUnset(
    z.optional(
      z.pipe(
        z.pipe(
          z.string().check(z.maxLength(512, { error: ErrorKeys.tooLong })),
          z.transform((value: string) =>
            value
              .split(',')
              .map((part) => part.trim().toUpperCase())
              .filter(Boolean),
          ),
        ),
        z.array(z.string().check(z.regex(pattern, { error: ErrorKeys.invalidValue }))).check(z.maxLength(50)),
      ),
    ),
  );

/** Sort modes the server understands. */
export const SORT_MODES = ['popular', 'counts', 'novelties', 'sale', 'purchased', 'decreasing', 'increase'] as const;
export const SortModeSchema = z.enum(SORT_MODES, { error: ErrorKeys.unknownOption });
export type SortMode = z.infer<typeof SortModeSchema>;

/** The five user-facing filters and the sort mode each one sends. */
export const USER_SORTS = {
  popular: 'popular',
  inStock: 'counts',
  new: 'novelties',
  priceLowToHigh: 'increase',
  priceHighToLow: 'decreasing',
} as const satisfies Record<string, SortMode>;

const sortParam = blankIsUnset(z.optional(SortModeSchema));

/**
 * The interface language of a call that answers prices or texts: prices come with the rate of the
 * language's currency (DISPLAY_CURRENCY_BY_LOCALE), texts in the language.
 */
const langParam = blankIsUnset(z.optional(z.enum(LOCALES, { error: ErrorKeys.unknownOption })));

const pagingShape = {
  page: wholeNumber(1, PAGE_MAX),
  offset: wholeNumber(0, OFFSET_MAX),
  limit: wholeNumber(1, PAGE_SIZE_MAX),
};

const filterShape = {
  sort: sortParam,
  minPrice: priceBound,
  maxPrice: priceBound,
  currency: codeList(/^[A-Z]{3}$/),
  country: codeList(/^[A-Z0-9]{2,8}$/),
  lang: langParam,
  ...pagingShape,
};

const minNotAboveMax = <T extends { minPrice?: number | undefined; maxPrice?: number | undefined }>(
  value: T,
  ctx: z.core.$RefinementCtx<T>,
) => {
  if (value.minPrice !== undefined && value.maxPrice !== undefined && value.minPrice > value.maxPrice) {
    ctx.addIssue({ code: 'custom', path: ['minPrice'], message: ErrorKeys.minAboveMax });
  }
};

export const ProductFilterQuerySchema = z.object(filterShape).check(z.superRefine(minNotAboveMax));
export type ProductFilterQuery = z.infer<typeof ProductFilterQuerySchema>;

export const PagingQuerySchema = z.object(pagingShape);
export type PagingQuery = z.infer<typeof PagingQuerySchema>;

export const ProductListQuerySchema = z.object({ ...pagingShape, sort: sortParam, lang: langParam });
export type ProductListQuery = z.infer<typeof ProductListQuerySchema>;

/** Names the product lists of `GET /{list}`. */
export const PRODUCT_LISTS = ['popular-products', 'novelties', 'discounts'] as const;
export type ProductListName = (typeof PRODUCT_LISTS)[number];

export const SlugParamsSchema = z.object({
  id: z
    .string()
    .check(
      z.minLength(1, { error: ErrorKeys.requiredField }),
      z.maxLength(64, { error: ErrorKeys.tooLong }),
      z.regex(/^[a-z0-9-]+$/, { error: ErrorKeys.invalidValue }),
    ),
});

/** `GET /countries?category=`: only the countries the category has products for. */
export const CountriesQuerySchema = z.object({
  category: blankIsUnset(z.optional(SlugParamsSchema.shape.id)),
});
export type CountriesQuery = z.infer<typeof CountriesQuerySchema>;

export const ProductIdParamsSchema = z.object({
  id: z.pipe(
    z.pipe(z.string().check(z.regex(/^\d{1,9}$/, { error: ErrorKeys.notANumber })), toNumber),
    z.int().check(z.minimum(1, { error: ErrorKeys.tooSmall }), z.maximum(2_147_483_647, { error: ErrorKeys.tooLarge })),
  ),
});

/**
 * A product page's language: its description and activation instructions come in it (English when
 * the product has no text in it). The web app sends the interface language.
 */
export const ProductDetailQuerySchema = z.object({ lang: langParam });
export type ProductDetailQuery = z.infer<typeof ProductDetailQuerySchema>;

/** `?lang=` alone: hints and the basket, whose prices come with the language's display rate. */
export const LangQuerySchema = ProductDetailQuerySchema;
export type LangQuery = ProductDetailQuery;

export const SearchParamsSchema = z.object({
  query: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: ErrorKeys.requiredField }),
      z.maxLength(SEARCH_MAX, { error: ErrorKeys.tooLong }),
      cleanText(),
    ),
});

// ---------------------------------------------------------------------------------------------
// Responses of the calls in docs/api.md, "Catalogue and search" (snake_case where the original API
// used it).

export const MoneySchema = z.object({
  /** Integer minor units: arithmetic is done on this. */
  minor: z.int(),
  currency: z.string(),
});

export const CountrySchema = z.object({
  id: z.int(),
  /** Null for a region. */
  name: z.nullable(z.string()),
  code: z.string(),
  icon: z.nullable(z.string()),
});
export type Country = z.infer<typeof CountrySchema>;

export const CurrencySchema = z.object({
  id: z.int(),
  codeName: z.string(),
});
export type Currency = z.infer<typeof CurrencySchema>;

export const CategorySchema = z.object({
  /** The slug, as used in /category/{id}. */
  id: z.string(),
  name: z.string(),
  formatted_name: z.string(),
  svg_path: z.nullable(z.string()),
  products_count: z.int(),
});
export type Category = z.infer<typeof CategorySchema>;

export const ProductSummarySchema = z.object({
  id: z.int(),
  /** The article shown to shoppers equals the id. */
  article: z.string(),
  name: z.string(),
  /** Price in whole-and-fraction units of `currency`, for display only. */
  price: z.number(),
  price_minor: z.int(),
  old_price: z.nullable(z.number()),
  old_price_minor: z.nullable(z.int()),
  /** Discount in whole percent, 0 when not discounted. */
  discount: z.int(),
  currency: z.string(),
  cover_path: z.nullable(z.string()),
  cover_text: z.nullable(z.string()),
  country_icon: z.nullable(z.string()),
  country: z.object({ code: z.string(), name: z.nullable(z.string()) }),
  nominal: z.object({ amount: z.number(), currency: z.string() }),
  category: z.string(),
  in_stock: z.boolean(),
  created_at: z.string(),
  /** Its reviews: their average to one decimal (null while there are none) and how many. */
  rating: z.object({ average: z.nullable(z.number()), count: z.int() }),
});
export type ProductSummary = z.infer<typeof ProductSummarySchema>;

export const ProductDetailSchema = z.extend(ProductSummarySchema, {
  description: z.string(),
  activation_instructions: z.string(),
  stock: z.int(),
  category_name: z.string(),
  /** The rate its prices are shown at in the requested language. */
  display: DisplayRateSchema,
});
export type ProductDetail = z.infer<typeof ProductDetailSchema>;

export const PageInfoSchema = z.object({
  total: z.int(),
  page: z.int(),
  pages: z.int(),
  offset: z.int(),
  limit: z.int(),
});
export type PageInfo = z.infer<typeof PageInfoSchema>;

export const ProductPageSchema = z.extend(PageInfoSchema, {
  products: z.array(ProductSummarySchema),
});
export type ProductPage = z.infer<typeof ProductPageSchema>;

/** `GET /popular-products`, `/novelties`, `/discounts`: the home page's lists, in `result.products`. */
export const ProductListResponseSchema = z.object({ result: ProductPageSchema, display: DisplayRateSchema });
export type ProductListResponse = z.infer<typeof ProductListResponseSchema>;

export const PriceRangeSchema = z.object({
  /** Whole units of the store currency; the slider's base maximum. */
  min: z.int(),
  max: z.int(),
});

export const CategoryListingResponseSchema = z.object({
  category: CategorySchema,
  result: ProductPageSchema,
  priceRange: PriceRangeSchema,
  display: DisplayRateSchema,
});
export type CategoryListingResponse = z.infer<typeof CategoryListingResponseSchema>;

export const SearchResponseSchema = z.object({
  query: z.string(),
  result: ProductPageSchema,
  priceRange: PriceRangeSchema,
  display: DisplayRateSchema,
});
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

export const CategoriesResponseSchema = z.array(CategorySchema);
export const CountriesResponseSchema = z.array(CountrySchema);
export const CurrenciesResponseSchema = z.array(CurrencySchema);

export const SimilarProductsResponseSchema = z.object({ products: z.array(ProductSummarySchema) });

/**
 * What a hint shows to help choose between products: the cover, the price (in `currency`, the
 * store's) and the region the card is for. Optional: a hint is usable by its name alone.
 */
const hintDetails = {
  thumbnail: z.optional(z.nullable(z.string())),
  price: z.optional(z.number()),
  currency: z.optional(z.string()),
  region: z.optional(z.object({ code: z.string(), name: z.nullable(z.string()) })),
};

export const SearchHintsResponseSchema = z.object({
  hintsByName: z.array(z.object({ name: z.string(), ...hintDetails })).check(z.maxLength(HINTS_PER_KIND)),
  hintsByArt: z
    .array(z.object({ id: z.int(), name: z.string(), article: z.string(), ...hintDetails }))
    .check(z.maxLength(HINTS_PER_KIND)),
  display: DisplayRateSchema,
});
export type SearchHintsResponse = z.infer<typeof SearchHintsResponseSchema>;

/** Resolves `page`/`offset`/`limit` to one offset and limit: `offset` wins when both are sent. */
export function resolvePaging(query: { page?: number; offset?: number; limit?: number }) {
  const limit = query.limit ?? PAGE_SIZE;
  const offset = query.offset ?? ((query.page ?? 1) - 1) * limit;
  return { limit, offset };
}
