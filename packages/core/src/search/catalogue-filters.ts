import type { CatalogueStore } from './catalogue-store.ts';
import type { ProductQuery } from './product-search.ts';

/** A query's filters in the store's terms: a price range, and flags by currency and country position. */
export interface SlotFilters {
  min: number;
  max: number;
  /** Absent: every currency (and country) passes. */
  currencies: Uint8Array | undefined;
  countries: Uint8Array | undefined;
  discountedOnly: boolean;
}

export function filtersOf(store: CatalogueStore, query: ProductQuery): SlotFilters {
  return {
    min: query.minPriceMinor ?? Number.NEGATIVE_INFINITY,
    max: query.maxPriceMinor ?? Number.POSITIVE_INFINITY,
    currencies: flags(query.currencies, store.currencyOfCode, store.reference.currencies.length),
    countries: flags(query.countries, store.countryOfCode, store.reference.countries.length),
    discountedOnly: query.discountedOnly === true,
  };
}

/** Whether the product in a slot passes the query's filters. */
export function filterOf(store: CatalogueStore, query: ProductQuery): (slot: number) => boolean {
  const { min, max, currencies, countries, discountedOnly } = filtersOf(store, query);
  const { price, oldPrice, currency, country } = store;
  return (slot) => {
    const p = price[slot] as number;
    if (p < min || p > max) return false;
    if (currencies && currencies[currency[slot] as number] !== 1) return false;
    if (countries && countries[country[slot] as number] !== 1) return false;
    return !discountedOnly || (oldPrice[slot] as number) > 0;
  };
}

function flags(codes: string[] | undefined, indexOf: Map<string, number>, size: number): Uint8Array | undefined {
  if (!codes?.length) return undefined;
  const flags = new Uint8Array(size);
  for (const code of codes) {
    const i = indexOf.get(code);
    if (i !== undefined) flags[i] = 1;
  }
  return flags;
}
