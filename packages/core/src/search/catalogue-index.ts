import { SORT_MODES } from '@store/contract';
import { forEachSlot, hasBit } from './bitset.ts';
import { filterOf } from './catalogue-filters.ts';
import { CatalogueMatcher } from './catalogue-matching.ts';
import { byRelevance, CatalogueOrders, hintSlots } from './catalogue-ordering.ts';
import { categoryFactsOf, hintOf, summaryOf } from './catalogue-projection.ts';
import { CatalogueStore, type IndexedProduct, type ReferenceData } from './catalogue-store.ts';
import type { CategoryFacts, ProductHits, ProductQuery, SearchHints } from './product-search.ts';

export type { IndexedProduct, ReferenceData } from './catalogue-store.ts';

/**
 * The catalogue in memory, for search, hints and listings: products in columns (typed arrays),
 * an inverted index from words to products, and per-category sorted orders. Products are kept in
 * slots numbered by popularity when the index was built, so walking a set of slots in order walks
 * the most popular products first; a changed product that must be found under other words moves to
 * a new slot at the end, and its old slot is dropped from the live set.
 *
 * The parts: the storage (`CatalogueStore`), what a text matches (`CatalogueMatcher`), the sorted
 * listings and relevance (`CatalogueOrders`), and the shapes answered (`catalogue-projection.ts`).
 */
export class CatalogueIndex {
  readonly capacity: number;
  private readonly store: CatalogueStore;
  private readonly matcher: CatalogueMatcher;
  private readonly orders: CatalogueOrders;
  private facts: Map<string, CategoryFacts> | undefined;

  constructor(reference: ReferenceData, capacity: number) {
    this.store = new CatalogueStore(reference, capacity);
    this.capacity = this.store.capacity;
    this.matcher = new CatalogueMatcher(this.store);
    this.orders = new CatalogueOrders(this.store);
  }

  /** Builds an index of `products` with room to grow before it must be built again. */
  static build(reference: ReferenceData, products: IndexedProduct[]): CatalogueIndex {
    const index = new CatalogueIndex(reference, Math.ceil(products.length * 1.25) + 1024);
    const ordered = [...products].sort((a, b) => b.popularity - a.popularity || a.id - b.id);
    for (const product of ordered) index.store.insert(product);
    index.store.ensureSortedWords();
    // Sorted now rather than by the first shopper to ask: every category's listings, and the
    // store-wide lists the home page shows. The other store-wide orders are sorted when first asked.
    reference.categories.forEach((_, scope) => {
      for (const sort of SORT_MODES) index.orders.order(scope, sort);
    });
    for (const sort of ['popular', 'novelties', 'sale'] as const) index.orders.order(-1, sort);
    return index;
  }

  get size(): number {
    return this.store.size;
  }

  /** Slots used, live or dropped; past the capacity the index must be built again. */
  get slotsUsed(): number {
    return this.store.slotsUsed;
  }

  /**
   * Applies changed products (inserted or updated; inactive ones are dropped) and removed ids.
   * Answers false when the index is out of room and must be built again.
   */
  apply(changed: IndexedProduct[], removedIds: number[]): boolean {
    const changes = this.store.apply(changed, removedIds);
    if (!changes) return false;
    if (changes.wordsChanged) this.matcher.forgetWords();
    this.facts = undefined;
    this.orders.update(changes);
    return true;
  }

  hints(text: string, limit: number): SearchHints {
    const { store } = this;
    const byArticle = /^\d{1,9}$/.test(text.trim())
      ? this.matcher.articles(Number(text.trim()), limit).map((slot) => hintOf(store, slot))
      : [];
    const match = this.matcher.match(text);
    if (!match) return { byName: [], byArticle };
    const byName = hintSlots(store, match.candidates, match.resolved, limit).map((slot) => hintOf(store, slot));
    return { byName, byArticle };
  }

  products(query: ProductQuery): ProductHits {
    const { store } = this;
    if (query.category !== undefined && !store.categoryOfSlug.has(query.category)) {
      return { total: 0, products: [], priceRange: null };
    }
    const scope = query.category === undefined ? -1 : (store.categoryOfSlug.get(query.category) as number);
    if (query.text === undefined) {
      const { total, slots } = this.orders.listing(scope, query);
      return { total, products: slots.map((slot) => summaryOf(store, slot)), priceRange: null };
    }

    const pass = filterOf(store, query);
    const page: number[] = [];
    let total = 0;
    const take = (slot: number) => {
      if (total >= query.offset && page.length < query.limit) page.push(slot);
      total++;
    };

    const match = this.matcher.match(query.text);
    if (!match) return { total: 0, products: [], priceRange: null };
    const { candidates, resolved } = match;
    const inScope = scope === -1 ? undefined : store.groups[scope];
    const { price } = store;
    let minMinor = Number.POSITIVE_INFINITY;
    let maxMinor = Number.NEGATIVE_INFINITY;
    forEachSlot(candidates, (slot) => {
      const p = price[slot] as number;
      if (p < minMinor) minMinor = p;
      if (p > maxMinor) maxMinor = p;
      return true;
    });
    const priceRange = { minMinor, maxMinor };

    if (query.sort !== undefined) {
      const order = this.orders.order(scope, query.sort);
      for (let i = 0; i < order.length; i++) {
        const slot = order[i] as number;
        if (hasBit(candidates, slot) && pass(slot)) take(slot);
      }
    } else {
      byRelevance(candidates, resolved, (slot) => (!inScope || hasBit(inScope, slot)) && pass(slot), take);
    }
    return { total, products: page.map((slot) => summaryOf(store, slot)), priceRange };
  }

  categoryFacts(): Map<string, CategoryFacts> {
    this.facts ??= categoryFactsOf(this.store);
    return this.facts;
  }

  /** Bytes held by the typed arrays and postings (strings and maps are not counted). */
  approximateBytes(): number {
    return this.store.approximateBytes() + this.orders.approximateBytes();
  }
}
