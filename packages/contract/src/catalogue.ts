import { z } from 'zod';
import { ErrorKeys } from './errors.ts';
import {
  HINTS_PER_KIND,
  OFFSET_MAX,
  PAGE_MAX,
  PAGE_SIZE,
  PAGE_SIZE_MAX,
  PRICE_FILTER_MAX_DIGITS,
  SEARCH_MAX,
} from './limits.ts';

// ---------------------------------------------------------------------------------------------
// Query parameters. They arrive as strings; an empty string means "not set", as the original
// client sends filters only when set but a shared link may carry `minPrice=`.

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const wholeNumber = (min: number, max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: ErrorKeys.notANumber })
      .regex(/^\d{1,9}$/, { error: ErrorKeys.notANumber })
      .transform(Number)
      .pipe(z.number().int().min(min, { error: ErrorKeys.tooSmall }).max(max, { error: ErrorKeys.tooLarge }))
      .optional(),
  );

/** Price filter bound in whole units of the store currency: digits only, at most 6 of them. */
const priceBound = z.preprocess(
  blankToUndefined,
  z
    .string()
    .regex(new RegExp(`^\\d{1,${PRICE_FILTER_MAX_DIGITS}}$`), { error: ErrorKeys.notANumber })
    .transform(Number)
    .optional(),
);

const codeList = (pattern: RegExp) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .max(512, { error: ErrorKeys.tooLong })
      .transform((value) =>
        value
          .split(',')
          .map((part) => part.trim().toUpperCase())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(pattern, { error: ErrorKeys.invalidValue })).max(50))
      .optional(),
  );

/** SPEC.md section 3: sort modes the server understands. */
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

const sortParam = z.preprocess(blankToUndefined, SortModeSchema.optional());

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
  ...pagingShape,
};

const minNotAboveMax = <T extends { minPrice?: number | undefined; maxPrice?: number | undefined }>(
  value: T,
  ctx: z.RefinementCtx,
) => {
  if (value.minPrice !== undefined && value.maxPrice !== undefined && value.minPrice > value.maxPrice) {
    ctx.addIssue({ code: 'custom', path: ['minPrice'], message: ErrorKeys.minAboveMax });
  }
};

export const ProductFilterQuerySchema = z.object(filterShape).superRefine(minNotAboveMax);
export type ProductFilterQuery = z.infer<typeof ProductFilterQuerySchema>;

export const PagingQuerySchema = z.object(pagingShape);
export type PagingQuery = z.infer<typeof PagingQuerySchema>;

export const ProductListQuerySchema = z.object({ ...pagingShape, sort: sortParam });
export type ProductListQuery = z.infer<typeof ProductListQuerySchema>;

/** Names the product lists of `GET /{list}`. */
export const PRODUCT_LISTS = ['popular-products', 'novelties', 'discounts'] as const;
export type ProductListName = (typeof PRODUCT_LISTS)[number];

export const SlugParamsSchema = z.object({
  id: z
    .string()
    .min(1, { error: ErrorKeys.requiredField })
    .max(64, { error: ErrorKeys.tooLong })
    .regex(/^[a-z0-9-]+$/, { error: ErrorKeys.invalidValue }),
});

export const ProductIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, { error: ErrorKeys.notANumber })
    .transform(Number)
    .pipe(z.number().int().min(1, { error: ErrorKeys.tooSmall }).max(2_147_483_647, { error: ErrorKeys.tooLarge })),
});

export const SearchParamsSchema = z.object({
  query: z
    .string()
    .transform((value) => value.trim())
    .pipe(z.string().min(1, { error: ErrorKeys.requiredField }).max(SEARCH_MAX, { error: ErrorKeys.tooLong })),
});

// ---------------------------------------------------------------------------------------------
// Responses. Field names follow SPEC.md section 3 (snake_case where the original API used it).

export const MoneySchema = z.object({
  /** Integer minor units: arithmetic is done on this. */
  minor: z.number().int(),
  currency: z.string(),
});

export const CountrySchema = z.object({
  id: z.number().int(),
  /** Null for a region. */
  name: z.string().nullable(),
  code: z.string(),
  icon: z.string().nullable(),
});
export type Country = z.infer<typeof CountrySchema>;

export const CurrencySchema = z.object({
  id: z.number().int(),
  codeName: z.string(),
});
export type Currency = z.infer<typeof CurrencySchema>;

export const CategorySchema = z.object({
  /** The slug, as used in /category/{id}. */
  id: z.string(),
  name: z.string(),
  formatted_name: z.string(),
  svg_path: z.string().nullable(),
  products_count: z.number().int(),
});
export type Category = z.infer<typeof CategorySchema>;

export const ProductSummarySchema = z.object({
  id: z.number().int(),
  /** The article shown to shoppers equals the id. */
  article: z.string(),
  name: z.string(),
  /** Price in whole-and-fraction units of `currency`, for display only. */
  price: z.number(),
  price_minor: z.number().int(),
  old_price: z.number().nullable(),
  old_price_minor: z.number().int().nullable(),
  /** Discount in whole percent, 0 when not discounted. */
  discount: z.number().int(),
  currency: z.string(),
  cover_path: z.string().nullable(),
  cover_text: z.string().nullable(),
  country_icon: z.string().nullable(),
  country: z.object({ code: z.string(), name: z.string().nullable() }),
  nominal: z.object({ amount: z.number(), currency: z.string() }),
  category: z.string(),
  in_stock: z.boolean(),
  created_at: z.string(),
});
export type ProductSummary = z.infer<typeof ProductSummarySchema>;

export const ProductDetailSchema = ProductSummarySchema.extend({
  description: z.string(),
  activation_instructions: z.string(),
  stock: z.number().int(),
  category_name: z.string(),
  rating: z.object({ average: z.number().nullable(), count: z.number().int() }),
});
export type ProductDetail = z.infer<typeof ProductDetailSchema>;

export const PageInfoSchema = z.object({
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});
export type PageInfo = z.infer<typeof PageInfoSchema>;

export const ProductPageSchema = PageInfoSchema.extend({
  products: z.array(ProductSummarySchema),
});
export type ProductPage = z.infer<typeof ProductPageSchema>;

/** `GET /popular-products`, `/novelties`, `/discounts`: SPEC.md reads `result.products`. */
export const ProductListResponseSchema = z.object({ result: ProductPageSchema });
export type ProductListResponse = z.infer<typeof ProductListResponseSchema>;

export const PriceRangeSchema = z.object({
  /** Whole units of the store currency; the slider's base maximum. */
  min: z.number().int(),
  max: z.number().int(),
});

export const CategoryListingResponseSchema = z.object({
  category: CategorySchema,
  result: ProductPageSchema,
  priceRange: PriceRangeSchema,
});
export type CategoryListingResponse = z.infer<typeof CategoryListingResponseSchema>;

export const SearchResponseSchema = z.object({
  query: z.string(),
  result: ProductPageSchema,
  priceRange: PriceRangeSchema,
});
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

export const CategoriesResponseSchema = z.array(CategorySchema);
export const CountriesResponseSchema = z.array(CountrySchema);
export const CurrenciesResponseSchema = z.array(CurrencySchema);

export const SimilarProductsResponseSchema = z.object({ products: z.array(ProductSummarySchema) });

export const ReviewSchema = z.object({
  id: z.string(),
  rating: z.number().int().min(1).max(5),
  text: z.string(),
  author: z.string(),
  created_at: z.string(),
});
export type Review = z.infer<typeof ReviewSchema>;

export const ReviewsResponseSchema = PageInfoSchema.extend({
  feedbacks: z.array(ReviewSchema),
  average: z.number().nullable(),
});
export type ReviewsResponse = z.infer<typeof ReviewsResponseSchema>;

export const SearchHintsResponseSchema = z.object({
  hintsByName: z.array(z.object({ name: z.string() })).max(HINTS_PER_KIND),
  hintsByArt: z.array(z.object({ id: z.number().int(), name: z.string(), article: z.string() })).max(HINTS_PER_KIND),
});
export type SearchHintsResponse = z.infer<typeof SearchHintsResponseSchema>;

/** Resolves `page`/`offset`/`limit` to one offset and limit: `offset` wins when both are sent. */
export function resolvePaging(query: { page?: number; offset?: number; limit?: number }) {
  const limit = query.limit ?? PAGE_SIZE;
  const offset = query.offset ?? ((query.page ?? 1) - 1) * limit;
  return { limit, offset };
}
