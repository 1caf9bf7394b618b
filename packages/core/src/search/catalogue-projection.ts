import { type ProductSummary, STORE_CURRENCY } from '@store/contract';
import { discountPercent, minorToDisplay } from '../shared/money.ts';
import { forEachSlot } from './bitset.ts';
import type { CatalogueStore } from './catalogue-store.ts';
import type { CategoryFacts, ProductHint } from './product-search.ts';

/** The index's products, from their slots, in the shapes the search port answers. */

export function hintOf(store: CatalogueStore, slot: number): ProductHint {
  const country = store.reference.countries[store.country[slot] as number];
  const currency = store.reference.currencies[store.currency[slot] as number];
  return {
    id: store.id[slot] as number,
    name: store.name[slot] as string,
    category: store.reference.categories[store.category[slot] as number]?.slug ?? '',
    thumbnail: store.cover[slot] ?? null,
    price: minorToDisplay(store.price[slot] as number),
    currency: STORE_CURRENCY,
    region: { code: country?.code ?? '', name: country?.name ?? null },
    nominal: {
      amount: minorToDisplay(store.nominal[slot] as number, currency?.minorUnits ?? 2),
      currency: currency?.codeName ?? '',
    },
  };
}

export function summaryOf(store: CatalogueStore, slot: number): ProductSummary {
  const oldPrice = store.oldPrice[slot] as number;
  const price = store.price[slot] as number;
  const country = store.reference.countries[store.country[slot] as number];
  const currency = store.reference.currencies[store.currency[slot] as number];
  const id = store.id[slot] as number;
  return {
    id,
    article: String(id),
    name: store.name[slot] as string,
    price: minorToDisplay(price),
    price_minor: price,
    old_price: oldPrice < 0 ? null : minorToDisplay(oldPrice),
    old_price_minor: oldPrice < 0 ? null : oldPrice,
    discount: discountPercent(price, oldPrice < 0 ? null : oldPrice),
    currency: STORE_CURRENCY,
    cover_path: store.cover[slot] ?? null,
    cover_text: store.coverText[slot] ?? null,
    country_icon: country?.icon ?? null,
    country: { code: country?.code ?? '', name: country?.name ?? null },
    nominal: {
      amount: minorToDisplay(store.nominal[slot] as number, currency?.minorUnits ?? 2),
      currency: currency?.codeName ?? '',
    },
    category: store.reference.categories[store.category[slot] as number]?.slug ?? '',
    in_stock: (store.stock[slot] as number) > 0,
    created_at: new Date(store.created[slot] as number).toISOString(),
    rating: store.ratingOf(slot),
  };
}

/** Per category, by slug: how many live products, their price range and the countries they are for. */
export function categoryFactsOf(store: CatalogueStore): Map<string, CategoryFacts> {
  const { categories, countries } = store.reference;
  const count = new Int32Array(categories.length);
  const min = new Float64Array(categories.length).fill(Number.POSITIVE_INFINITY);
  const max = new Float64Array(categories.length).fill(Number.NEGATIVE_INFINITY);
  const hasCountry = categories.map(() => new Uint8Array(countries.length));
  forEachSlot(store.live, (slot) => {
    const c = store.category[slot] as number;
    const price = store.price[slot] as number;
    count[c] = (count[c] as number) + 1;
    if (price < (min[c] as number)) min[c] = price;
    if (price > (max[c] as number)) max[c] = price;
    (hasCountry[c] as Uint8Array)[store.country[slot] as number] = 1;
    return true;
  });
  return new Map(
    categories.map((category, c) => [
      category.slug,
      {
        slug: category.slug,
        productsCount: count[c] as number,
        minPriceMinor: count[c] ? (min[c] as number) : 0,
        maxPriceMinor: count[c] ? (max[c] as number) : 0,
        countries: countries.filter((_, k) => (hasCountry[c] as Uint8Array)[k] === 1).map(({ code }) => code),
      },
    ]),
  );
}
