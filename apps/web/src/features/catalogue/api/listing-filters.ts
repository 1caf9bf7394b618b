import { type ProductFilterQuery, ProductFilterQuerySchema } from '@store/contract';
import type { QueryParams } from '../../../lib/api-client.ts';

/** What a shopper can set on a listing; the same names travel in the page URL and in the API call. */
export type ListingFilters = Pick<
  ProductFilterQuery,
  'page' | 'sort' | 'minPrice' | 'maxPrice' | 'country' | 'currency'
>;

export const FILTER_KEYS = ['page', 'sort', 'minPrice', 'maxPrice', 'country', 'currency'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/**
 * Reads filters from a page URL with the contract's own field schemas, one field at a time: a shared
 * link with one bad value (`minPrice=abc`) keeps its other filters instead of failing as a whole.
 */
export function parseListingFilters(search: URLSearchParams): ListingFilters {
  const shape = ProductFilterQuerySchema.shape;
  const filters: ListingFilters = {};
  for (const key of FILTER_KEYS) {
    const raw = search.get(key);
    if (raw === null) continue;
    const parsed = shape[key].safeParse(raw);
    if (parsed.success && parsed.data !== undefined) {
      (filters as Record<FilterKey, unknown>)[key] = parsed.data;
    }
  }
  if (filters.minPrice !== undefined && filters.maxPrice !== undefined && filters.minPrice > filters.maxPrice) {
    [filters.minPrice, filters.maxPrice] = [filters.maxPrice, filters.minPrice];
  }
  if (filters.page === 1) delete filters.page;
  return filters;
}

/** Query parameters for the API and for the page URL: unset values are left out. */
export function filtersToParams(filters: ListingFilters): QueryParams {
  return {
    page: filters.page,
    sort: filters.sort,
    minPrice: filters.minPrice,
    maxPrice: filters.maxPrice,
    country: filters.country,
    currency: filters.currency,
  };
}

/** A stable, key-sorted object for query keys, so {a,b} and {b,a} share one cache entry. */
export function filtersKey(filters: ListingFilters) {
  return Object.fromEntries(
    Object.entries(filtersToParams(filters))
      .filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
