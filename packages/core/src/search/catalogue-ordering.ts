import type { SortMode } from '@store/contract';
import { type Bitset, forEachSlot, hasBit, IntList } from './bitset.ts';
import { filtersOf } from './catalogue-filters.ts';
import type { ResolvedWord } from './catalogue-matching.ts';
import type { CatalogueStore, SlotChanges } from './catalogue-store.ts';
import type { ProductQuery } from './product-search.ts';

/** A batch of changes at most this big moves products within the sorted listings; a bigger one re-sorts. */
const REPOSITION_MAX = 64;
/** Totals of filtered listings remembered until the catalogue changes. */
const COUNT_CACHE_MAX = 20_000;

type Comparator = (a: number, b: number) => number;

/** A page of slots, and how many there are over every page. */
export interface SlotPage {
  total: number;
  slots: number[];
}

/**
 * The sorted listings: per scope (a category, or -1 for the whole store) and sort mode, the live
 * slots in that order, sorted when first asked and kept in order as products change.
 */
export class CatalogueOrders {
  /** `${scope}:${sort}` to the live slots of the scope (-1: every category) in that order. */
  private readonly orders = new Map<string, Int32Array>();
  private readonly counts = new Map<string, number>();
  private readonly comparators: Record<SortMode, Comparator>;

  constructor(private readonly store: CatalogueStore) {
    const { id, price, oldPrice, stock, popularity, purchased, created } = store;
    const byPrice = (a: number, b: number) => (price[a] as number) - (price[b] as number);
    const byId = (a: number, b: number) => (id[a] as number) - (id[b] as number);
    const ratio = (slot: number) => (price[slot] as number) / (oldPrice[slot] as number);
    this.comparators = {
      popular: (a, b) => (popularity[b] as number) - (popularity[a] as number) || byId(a, b),
      counts: (a, b) =>
        (stock[b] as number) - (stock[a] as number) ||
        (popularity[b] as number) - (popularity[a] as number) ||
        byId(a, b),
      novelties: (a, b) => (created[b] as number) - (created[a] as number) || byId(b, a),
      sale: (a, b) => {
        const discountedA = (oldPrice[a] as number) > 0;
        const discountedB = (oldPrice[b] as number) > 0;
        if (discountedA !== discountedB) return discountedA ? -1 : 1;
        return (discountedA ? ratio(a) - ratio(b) : 0) || byId(a, b);
      },
      purchased: (a, b) => (purchased[b] as number) - (purchased[a] as number) || byId(a, b),
      decreasing: (a, b) => byPrice(b, a) || byId(a, b),
      increase: (a, b) => byPrice(a, b) || byId(a, b),
    };
  }

  order(scope: number, sort: SortMode): Int32Array {
    const key = `${scope}:${sort}`;
    let order = this.orders.get(key);
    if (!order) {
      order = this.liveSlots(scope).sort(this.comparators[sort]);
      this.orders.set(key, order);
    }
    return order;
  }

  /**
   * A page of a listing: the scope's sorted order, filtered. Unfiltered, the page is a slice and the
   * total the order's length; filtered, the total is remembered per filter until the catalogue
   * changes, so that a page of a known total stops scanning once it is full.
   */
  listing(scope: number, query: ProductQuery): SlotPage {
    const order = this.order(scope, query.sort ?? 'popular');
    const { offset, limit } = query;
    const { min, max, currencies, countries, discountedOnly } = filtersOf(this.store, query);
    const filtered =
      currencies !== undefined ||
      countries !== undefined ||
      discountedOnly ||
      min > 0 ||
      max < Number.POSITIVE_INFINITY;
    if (!filtered) return { total: order.length, slots: Array.from(order.subarray(offset, offset + limit)) };
    const key = `${scope}|${min}|${max}|${query.currencies}|${query.countries}|${discountedOnly}`;
    const known = this.counts.get(key);
    const { price, oldPrice, currency, country } = this.store;
    const page: number[] = [];
    const end = offset + limit;
    let total = 0;
    for (let i = 0; i < order.length; i++) {
      const slot = order[i] as number;
      const p = price[slot] as number;
      if (p < min || p > max) continue;
      if (currencies && currencies[currency[slot] as number] !== 1) continue;
      if (countries && countries[country[slot] as number] !== 1) continue;
      if (discountedOnly && (oldPrice[slot] as number) <= 0) continue;
      if (total >= offset && total < end) page.push(slot);
      total++;
      if (known !== undefined && total >= end) break;
    }
    if (known === undefined) {
      if (this.counts.size >= COUNT_CACHE_MAX) this.counts.clear();
      this.counts.set(key, total);
    }
    return { total: known ?? total, slots: page };
  }

  private liveSlots(scope: number): Int32Array {
    const { live, groups } = this.store;
    const slots = new IntList(1024);
    const within = scope === -1 ? undefined : groups[scope];
    forEachSlot(live, (slot) => {
      if (!within || hasBit(within, slot)) slots.push(slot);
      return true;
    });
    return slots.data.slice(0, slots.length);
  }

  /**
   * After a batch of changes: the remembered totals are dropped; small batches move the changed
   * products within each built order, big ones drop the orders.
   */
  update({ scopes, touched, dropped }: SlotChanges): void {
    this.counts.clear();
    const { live, groups } = this.store;
    const big = touched.size + dropped.size > REPOSITION_MAX;
    for (const [key, order] of this.orders) {
      const [scopeText, sort] = key.split(':') as [string, SortMode];
      const scope = Number(scopeText);
      if (!scopes.has(scope)) continue;
      if (big) {
        this.orders.delete(key);
        continue;
      }
      const compare = this.comparators[sort];
      const kept = order.filter((slot) => !touched.has(slot) && !dropped.has(slot));
      const within = scope === -1 ? undefined : groups[scope];
      const inserted = [...touched].filter((slot) => hasBit(live, slot) && (!within || hasBit(within, slot)));
      const next = new Int32Array(kept.length + inserted.length);
      next.set(kept);
      let length = kept.length;
      for (const slot of inserted) {
        let low = 0;
        let high = length;
        while (low < high) {
          const middle = (low + high) >>> 1;
          if (compare(next[middle] as number, slot) <= 0) low = middle + 1;
          else high = middle;
        }
        next.copyWithin(low + 1, low, length);
        next[low] = slot;
        length++;
      }
      this.orders.set(key, next);
    }
  }

  /** Bytes held by the built orders. */
  approximateBytes(): number {
    let bytes = 0;
    for (const order of this.orders.values()) bytes += order.byteLength;
    return bytes;
  }
}

// -----------------------------------------------------------------------------------------------
// Relevance

/** How well the words found the product in a slot: each word's level, added up. */
function scoreOf(slot: number, resolved: ResolvedWord[]): number {
  const w = slot >>> 5;
  const bit = slot & 31;
  let score = 0;
  for (const word of resolved) {
    score += (((word.hi[w] as number) >>> bit) & 1) * 2 + (((word.lo[w] as number) >>> bit) & 1);
  }
  return score;
}

/** By relevance: the best-scoring first, each score in slot (popularity) order; `take` gets every slot `accept`s. */
export function byRelevance(
  candidates: Bitset,
  resolved: ResolvedWord[],
  accept: (slot: number) => boolean,
  take: (slot: number) => void,
): void {
  const byScore = new Map<number, number[]>();
  forEachSlot(candidates, (slot) => {
    if (!accept(slot)) return true;
    const score = scoreOf(slot, resolved);
    const bucket = byScore.get(score);
    if (bucket) bucket.push(slot);
    else byScore.set(score, [slot]);
    return true;
  });
  for (const score of [...byScore.keys()].sort((a, b) => b - a)) {
    for (const slot of byScore.get(score) as number[]) take(slot);
  }
}

/** Slots of the best matches with distinct names, best first, at most `limit` of them. */
export function hintSlots(
  store: CatalogueStore,
  candidates: Bitset,
  resolved: ResolvedWord[],
  limit: number,
): number[] {
  const ceiling = resolved.reduce((sum, word) => sum + word.best, 0);
  // Distinct names per score, in slot order (most popular first); enough once the best possible
  // score has `limit` of them.
  const buckets = new Map<number, Map<string, number>>();
  forEachSlot(candidates, (slot) => {
    const score = scoreOf(slot, resolved);
    let bucket = buckets.get(score);
    if (!bucket) {
      bucket = new Map();
      buckets.set(score, bucket);
    }
    const name = store.name[slot] as string;
    if (bucket.size < limit && !bucket.has(name)) bucket.set(name, slot);
    return !(score === ceiling && bucket.size >= limit);
  });
  const seen = new Set<string>();
  const slots: number[] = [];
  for (const score of [...buckets.keys()].sort((a, b) => b - a)) {
    for (const [name, slot] of buckets.get(score) as Map<string, number>) {
      if (slots.length >= limit) break;
      if (seen.has(name)) continue;
      seen.add(name);
      slots.push(slot);
    }
  }
  return slots;
}
