import { type ProductSummary, SORT_MODES, type SortMode, STORE_CURRENCY } from '@store/contract';
import { discountPercent, minorToDisplay } from '../shared/money.ts';
import { ratingTenths } from '../shared/rating.ts';
import {
  type Bitset,
  clearBit,
  forEachSlot,
  hasBit,
  IntList,
  orInto,
  orSlotsInto,
  setBit,
  wordsFor,
} from './bitset.ts';
import type { CategoryFacts, ProductHint, ProductHits, ProductQuery, SearchHints } from './product-search.ts';
import { indexTerms, isNumber, type WordForms, words } from './text.ts';
import { WordTrie } from './word-trie.ts';

/** A product as the index loads it from the database. */
export interface IndexedProduct {
  id: number;
  categoryId: number;
  countryId: number;
  currencyId: number;
  name: string;
  coverPath: string | null;
  coverText: string | null;
  nominalMinor: number;
  priceMinor: number;
  oldPriceMinor: number | null;
  popularity: number;
  purchasedCount: number;
  stockCount: number;
  createdAt: Date;
  /** Its reviews: how many, and their ratings added up. */
  reviewCount: number;
  ratingSum: number;
}

export interface ReferenceData {
  categories: Array<{ id: number; slug: string; name: string; formattedName: string }>;
  countries: Array<{ id: number; code: string; name: string | null; icon: string | null }>;
  currencies: Array<{ id: number; codeName: string; minorUnits: number }>;
  aliases: Array<{ term: string; categoryId: number | null; countryId: number | null; currencyId: number | null }>;
}

/** How well a word of the query matched a word of a product, best first. */
const EXACT = 3;
const PREFIX = 2;
const TYPO = 1;

/** Words this long or longer may have one typo, and this long or longer two. */
const ONE_TYPO_FROM = 5;
const TWO_TYPOS_FROM = 8;
/** Shorter words get a typo only when nothing is spelt like them ("xbx" for Xbox). */
const LAST_RESORT_TYPO_FROM = 3;
/** A number typed is also the beginning of numbers at most this many digits longer ("5": 50, 500). */
const NUMBER_PREFIX_DIGITS = 2;
/**
 * Little words of the four languages that say nothing about a product ("cartão de presente",
 * "gift card for"), some of which are also country codes (DE, IN): dropped from a query that has
 * other words.
 */
const STOPWORDS = new Set([
  'a',
  'an',
  'and',
  'the',
  'of',
  'for',
  'in',
  'to',
  'on',
  'with',
  'de',
  'da',
  'do',
  'das',
  'dos',
  'e',
  'o',
  'para',
  'com',
  'em',
  'no',
  'na',
  'и',
  'в',
  'на',
  'для',
  'с',
  'по',
  'за',
  'का',
  'की',
  'के',
  'में',
  'और',
  'से',
  'को',
]);
/** Combinations of words tried when no product has them all. */
const MAX_COMBINATIONS = 64;
/** Memory the cache of resolved words may hold. */
const WORD_CACHE_BYTES = 16 * 1024 * 1024;
/** A batch of changes at most this big moves products within the sorted listings; a bigger one re-sorts. */
const REPOSITION_MAX = 64;
/**
 * A rating in one 32-bit word: the average in tenths (10 to 50, 0 for none) in the low six bits, the
 * number of reviews above them (up to 67 million, far more than any product gets).
 */
const RATING_TENTHS_BITS = 6;
const RATING_COUNT_MAX = 2 ** (32 - RATING_TENTHS_BITS) - 1;

interface Term {
  /** The only product with the term while there is one (-1: none yet), then `many`. */
  one: number;
  many: IntList | undefined;
  /** The same postings as bits, kept once a term is common enough for bits to be cheaper. */
  bits: Bitset | undefined;
  /** Categories, countries and currencies whose every product has this term (aliases, names). */
  groups: number[];
}

/** Most terms (numbers, rare words) name no group: they share this empty list. */
const NO_GROUPS: number[] = [];
/** Totals of filtered listings remembered until the catalogue changes. */
const COUNT_CACHE_MAX = 20_000;

/** One query word resolved: for each product, its match level in two bits (hi: 2, lo: 1). */
interface ResolvedWord {
  hi: Bitset;
  lo: Bitset;
  /** hi | lo: every product the word finds at all. */
  any: Bitset;
  best: number;
}

type Comparator = (a: number, b: number) => number;

/**
 * The catalogue in memory, for search, hints and listings: products in columns (typed arrays),
 * an inverted index from words to products, and per-category sorted orders. Products are kept in
 * slots numbered by popularity when the index was built, so walking a set of slots in order walks
 * the most popular products first; a changed product that must be found under other words moves to
 * a new slot at the end, and its old slot is dropped from the live set.
 */
export class CatalogueIndex {
  readonly capacity: number;
  private readonly words: number;
  private used = 0;
  private liveCount = 0;

  private readonly id: Int32Array;
  private readonly category: Uint16Array;
  private readonly country: Uint16Array;
  private readonly currency: Uint16Array;
  private readonly price: Int32Array;
  private readonly oldPrice: Int32Array;
  private readonly nominal: Int32Array;
  private readonly stock: Int32Array;
  private readonly popularity: Int32Array;
  private readonly purchased: Int32Array;
  private readonly created: Float64Array;
  private readonly rating: Uint32Array;
  private readonly name: string[];
  private readonly cover: Array<string | null>;
  private readonly coverText: Array<string | null>;
  private readonly strings = new Map<string, string>();

  private readonly live: Bitset;
  private readonly slotOfId = new Map<number, number>();

  private readonly categoryIndex = new Map<number, number>();
  private readonly countryIndex = new Map<number, number>();
  private readonly currencyIndex = new Map<number, number>();
  private readonly categoryOfSlug = new Map<string, number>();
  private readonly countryOfCode = new Map<string, number>();
  private readonly currencyOfCode = new Map<string, number>();
  /** Group bitsets: categories, then countries, then currencies. */
  private readonly groups: Bitset[];

  private readonly terms = new Map<string, Term>();
  private readonly trie = new WordTrie();
  private readonly trieWords: string[] = [];
  /** Words (not numbers) in code-unit order, for prefix lookups. */
  private sortedWords: string[] = [];
  private sortedWordsStale = false;
  /** Numbers by digit count, each in order once sorted. */
  private readonly numbers = new Map<number, string[]>();

  private readonly wordCache = new Map<string, ResolvedWord | null>();
  private readonly wordCacheMax: number;
  /** `${scope}:${sort}` to the live slots of the scope (-1: every category) in that order. */
  private readonly orders = new Map<string, Int32Array>();
  private facts: Map<string, CategoryFacts> | undefined;
  private readonly counts = new Map<string, number>();
  /** The candidates of the query being answered: every query is answered synchronously, one at a time. */
  private readonly scratch: Bitset;
  private readonly comparators: Record<SortMode, Comparator>;

  constructor(
    private readonly reference: ReferenceData,
    capacity: number,
  ) {
    this.capacity = Math.max(1024, capacity);
    this.words = wordsFor(this.capacity);
    const n = this.capacity;
    this.id = new Int32Array(n);
    this.category = new Uint16Array(n);
    this.country = new Uint16Array(n);
    this.currency = new Uint16Array(n);
    this.price = new Int32Array(n);
    this.oldPrice = new Int32Array(n);
    this.nominal = new Int32Array(n);
    this.stock = new Int32Array(n);
    this.popularity = new Int32Array(n);
    this.purchased = new Int32Array(n);
    this.created = new Float64Array(n);
    this.rating = new Uint32Array(n);
    // Filled slot by slot from 0, so they stay packed arrays: `new Array(n)` of more than 100,000
    // would start as a dictionary, many times slower to read and write.
    this.name = [];
    this.cover = [];
    this.coverText = [];
    this.live = new Uint32Array(this.words);
    this.scratch = new Uint32Array(this.words);
    this.wordCacheMax = Math.max(32, Math.floor(WORD_CACHE_BYTES / (8 * this.words)));

    reference.categories.forEach((c, i) => {
      this.categoryIndex.set(c.id, i);
      this.categoryOfSlug.set(c.slug, i);
    });
    reference.countries.forEach((c, i) => {
      this.countryIndex.set(c.id, i);
      this.countryOfCode.set(c.code, i);
    });
    reference.currencies.forEach((c, i) => {
      this.currencyIndex.set(c.id, i);
      this.currencyOfCode.set(c.codeName, i);
    });
    const groupCount = reference.categories.length + reference.countries.length + reference.currencies.length;
    this.groups = Array.from({ length: groupCount }, () => new Uint32Array(this.words));
    this.defineGroupTerms();

    const { id, price, oldPrice, stock, popularity, purchased, created } = this;
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

  /** Builds an index of `products` with room to grow before it must be built again. */
  static build(reference: ReferenceData, products: IndexedProduct[]): CatalogueIndex {
    const index = new CatalogueIndex(reference, Math.ceil(products.length * 1.25) + 1024);
    const ordered = [...products].sort((a, b) => b.popularity - a.popularity || a.id - b.id);
    for (const product of ordered) index.insert(product);
    index.ensureSortedWords();
    // Sorted now rather than by the first shopper to ask: every category's listings, and the
    // store-wide lists the home page shows. The other store-wide orders are sorted when first asked.
    reference.categories.forEach((_, scope) => {
      for (const sort of SORT_MODES) index.order(scope, sort);
    });
    for (const sort of ['popular', 'novelties', 'sale'] as const) index.order(-1, sort);
    return index;
  }

  get size(): number {
    return this.liveCount;
  }

  /** Slots used, live or dropped; past the capacity the index must be built again. */
  get slotsUsed(): number {
    return this.used;
  }

  /**
   * Applies changed products (inserted or updated; inactive ones are dropped) and removed ids.
   * Answers false when the index is out of room and must be built again.
   */
  apply(changed: IndexedProduct[], removedIds: number[]): boolean {
    const moves = changed.filter((product) => this.needsNewSlot(product)).length;
    if (this.used + moves > this.capacity) return false;
    const touched = new Set<number>();
    const dropped = new Set<number>();
    let wordsChanged = false;
    const scopes = new Set<number>([-1]);
    for (const id of removedIds) {
      const slot = this.slotOfId.get(id);
      if (slot === undefined) continue;
      scopes.add(this.category[slot] as number);
      this.drop(slot);
      dropped.add(slot);
    }
    for (const product of changed) {
      const known = this.slotOfId.get(product.id);
      if (known !== undefined) scopes.add(this.category[known] as number);
      if (known !== undefined && !this.needsNewSlot(product)) {
        this.writeColumns(known, product);
        touched.add(known);
        continue;
      }
      if (known !== undefined) {
        this.drop(known);
        dropped.add(known);
      }
      const slot = this.insert(product);
      scopes.add(this.category[slot] as number);
      touched.add(slot);
      wordsChanged = true;
    }
    if (wordsChanged) this.wordCache.clear();
    this.facts = undefined;
    this.counts.clear();
    this.updateOrders(scopes, touched, dropped);
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // Queries

  hints(text: string, limit: number): SearchHints {
    const byArticle = /^\d{1,9}$/.test(text.trim()) ? this.articles(Number(text.trim()), limit) : [];
    const match = this.match(text);
    if (!match) return { byName: [], byArticle };
    const { candidates, resolved } = match;
    const ceiling = resolved.reduce((sum, word) => sum + word.best, 0);
    // Distinct names per score, in slot order (most popular first); enough once the best possible
    // score has `limit` of them.
    const buckets = new Map<number, Map<string, number>>();
    forEachSlot(candidates, (slot) => {
      const score = this.score(slot, resolved);
      let bucket = buckets.get(score);
      if (!bucket) {
        bucket = new Map();
        buckets.set(score, bucket);
      }
      const name = this.name[slot] as string;
      if (bucket.size < limit && !bucket.has(name)) bucket.set(name, slot);
      return !(score === ceiling && bucket.size >= limit);
    });
    const seen = new Set<string>();
    const byName: ProductHint[] = [];
    for (const score of [...buckets.keys()].sort((a, b) => b - a)) {
      for (const [name, slot] of buckets.get(score) as Map<string, number>) {
        if (byName.length >= limit) break;
        if (seen.has(name)) continue;
        seen.add(name);
        byName.push(this.hint(slot));
      }
    }
    return { byName, byArticle };
  }

  products(query: ProductQuery): ProductHits {
    if (query.category !== undefined && !this.categoryOfSlug.has(query.category)) {
      return { total: 0, products: [], priceRange: null };
    }
    const scope = query.category === undefined ? -1 : (this.categoryOfSlug.get(query.category) as number);
    if (query.text === undefined) return this.listing(scope, query);

    const pass = this.filter(query);
    const page: number[] = [];
    let total = 0;
    const take = (slot: number) => {
      if (total >= query.offset && page.length < query.limit) page.push(slot);
      total++;
    };

    const match = this.match(query.text);
    if (!match) return { total: 0, products: [], priceRange: null };
    const { candidates, resolved } = match;
    const inScope = scope === -1 ? undefined : this.groups[scope];
    let minMinor = Number.POSITIVE_INFINITY;
    let maxMinor = Number.NEGATIVE_INFINITY;
    forEachSlot(candidates, (slot) => {
      const price = this.price[slot] as number;
      if (price < minMinor) minMinor = price;
      if (price > maxMinor) maxMinor = price;
      return true;
    });
    const priceRange = { minMinor, maxMinor };

    if (query.sort !== undefined) {
      const order = this.order(scope, query.sort);
      for (let i = 0; i < order.length; i++) {
        const slot = order[i] as number;
        if (hasBit(candidates, slot) && pass(slot)) take(slot);
      }
    } else {
      // By relevance: the best-scoring first, each score in slot (popularity) order.
      const byScore = new Map<number, number[]>();
      forEachSlot(candidates, (slot) => {
        if ((inScope && !hasBit(inScope, slot)) || !pass(slot)) return true;
        const score = this.score(slot, resolved);
        const bucket = byScore.get(score);
        if (bucket) bucket.push(slot);
        else byScore.set(score, [slot]);
        return true;
      });
      for (const score of [...byScore.keys()].sort((a, b) => b - a)) {
        for (const slot of byScore.get(score) as number[]) take(slot);
      }
    }
    return { total, products: page.map((slot) => this.summary(slot)), priceRange };
  }

  /**
   * A page of a listing: the scope's sorted order, filtered. Unfiltered, the page is a slice and the
   * total the order's length; filtered, the total is remembered per filter until the catalogue
   * changes, so that a page of a known total stops scanning once it is full.
   */
  private listing(scope: number, query: ProductQuery): ProductHits {
    const order = this.order(scope, query.sort ?? 'popular');
    const { offset, limit } = query;
    const min = query.minPriceMinor ?? Number.NEGATIVE_INFINITY;
    const max = query.maxPriceMinor ?? Number.POSITIVE_INFINITY;
    const currencies = this.flags(query.currencies, this.currencyOfCode, this.reference.currencies.length);
    const countries = this.flags(query.countries, this.countryOfCode, this.reference.countries.length);
    const discountedOnly = query.discountedOnly === true;
    const filtered =
      currencies !== undefined ||
      countries !== undefined ||
      discountedOnly ||
      min > 0 ||
      max < Number.POSITIVE_INFINITY;
    if (!filtered) {
      const page = Array.from(order.subarray(offset, offset + limit), (slot) => this.summary(slot));
      return { total: order.length, products: page, priceRange: null };
    }
    const key = `${scope}|${min}|${max}|${query.currencies}|${query.countries}|${discountedOnly}`;
    const known = this.counts.get(key);
    const { price, oldPrice, currency, country } = this;
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
    return { total: known ?? total, products: page.map((slot) => this.summary(slot)), priceRange: null };
  }

  categoryFacts(): Map<string, CategoryFacts> {
    if (this.facts) return this.facts;
    const { categories, countries } = this.reference;
    const count = new Int32Array(categories.length);
    const min = new Float64Array(categories.length).fill(Number.POSITIVE_INFINITY);
    const max = new Float64Array(categories.length).fill(Number.NEGATIVE_INFINITY);
    const hasCountry = categories.map(() => new Uint8Array(countries.length));
    forEachSlot(this.live, (slot) => {
      const c = this.category[slot] as number;
      const price = this.price[slot] as number;
      count[c] = (count[c] as number) + 1;
      if (price < (min[c] as number)) min[c] = price;
      if (price > (max[c] as number)) max[c] = price;
      (hasCountry[c] as Uint8Array)[this.country[slot] as number] = 1;
      return true;
    });
    this.facts = new Map(
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
    return this.facts;
  }

  /** Bytes held by the typed arrays and postings (strings and maps are not counted). */
  approximateBytes(): number {
    let bytes = this.capacity * (4 * 8 + 2 * 3 + 8) + this.groups.length * this.words * 4;
    for (const term of this.terms.values()) bytes += (term.many?.data.byteLength ?? 0) + (term.bits?.byteLength ?? 0);
    for (const order of this.orders.values()) bytes += order.byteLength;
    return bytes;
  }

  // ---------------------------------------------------------------------------------------------
  // Matching

  /**
   * The products matching every word of the text that finds anything; when no product has them all,
   * those matching the most of them (the first such combination, keeping the earlier words, which
   * are typed out, over the last, which may be half typed).
   */
  private match(text: string): { candidates: Bitset; resolved: ResolvedWord[] } | undefined {
    const all = words(text);
    const meaningful = all.filter(({ word }) => !STOPWORDS.has(word));
    // The last word is still being typed: it keeps its prefix matching even after a dropped word.
    const forms = meaningful.length > 0 ? meaningful : all;
    const resolved: ResolvedWord[] = [];
    forms.forEach((form, i) => {
      const word = this.resolve(form, i === forms.length - 1);
      if (word) resolved.push(word);
    });
    if (resolved.length === 0) return undefined;
    if (this.intersect(resolved)) return { candidates: this.scratch, resolved };
    // Bounded: a long text of unrelated words must not try every one of its combinations.
    let attempts = MAX_COMBINATIONS;
    for (let keep = resolved.length - 1; keep >= 2 && attempts > 0; keep--) {
      for (const subset of combinations(resolved, keep)) {
        if (attempts-- <= 0) break;
        if (this.intersect(subset)) return { candidates: this.scratch, resolved: subset };
      }
    }
    for (const word of resolved) {
      if (this.intersect([word])) return { candidates: this.scratch, resolved: [word] };
    }
    return undefined;
  }

  /** The live products every word finds, into the scratch set; false when there are none. */
  private intersect(resolved: ResolvedWord[]): boolean {
    const candidates = this.scratch;
    const { live } = this;
    const sets = resolved.map(({ any }) => any);
    let found = false;
    for (let w = 0; w < candidates.length; w++) {
      let word = live[w] as number;
      for (let i = 0; i < sets.length && word !== 0; i++) word &= (sets[i] as Bitset)[w] as number;
      candidates[w] = word;
      if (word !== 0) found = true;
    }
    return found;
  }

  private score(slot: number, resolved: ResolvedWord[]): number {
    const w = slot >>> 5;
    const bit = slot & 31;
    let score = 0;
    for (const word of resolved) {
      score += (((word.hi[w] as number) >>> bit) & 1) * 2 + (((word.lo[w] as number) >>> bit) & 1);
    }
    return score;
  }

  /** Which products a typed word finds, and how well: cached, as shoppers type the same words. */
  private resolve(form: WordForms, last: boolean): ResolvedWord | null {
    const key = `${last ? 1 : 0}${form.word}`;
    const cached = this.wordCache.get(key);
    if (cached !== undefined) {
      this.wordCache.delete(key);
      this.wordCache.set(key, cached);
      return cached;
    }
    const resolved = this.resolveUncached(form, last);
    if (this.wordCache.size >= this.wordCacheMax) {
      const oldest = this.wordCache.keys().next().value;
      if (oldest !== undefined) this.wordCache.delete(oldest);
    }
    this.wordCache.set(key, resolved);
    return resolved;
  }

  private resolveUncached(form: WordForms, last: boolean): ResolvedWord | null {
    const spellings = form.latin ? [form.word, form.latin] : [form.word];
    const exact = new Set<string>();
    const prefix = new Set<string>();
    // The last word may still be being typed: "play" is as much PlayStation as Google Play. A
    // number is taken as typed, so "steam 50" puts 50 before 500.
    const stillTyping = last && !isNumber(form.word);
    for (const text of spellings) {
      if (this.terms.has(text)) exact.add(text);
      for (const term of this.prefixed(text, last)) if (term !== text) (stillTyping ? exact : prefix).add(term);
    }
    const typo = new Set<string>();
    for (const text of spellings) {
      if (isNumber(text)) continue;
      const length = [...text].length;
      const firstResort = length >= ONE_TYPO_FROM;
      const lastResort = length >= LAST_RESORT_TYPO_FROM && exact.size === 0 && prefix.size === 0;
      if (!firstResort && !lastResort) continue;
      const distance = length >= TWO_TYPOS_FROM ? 2 : 1;
      this.ensureSortedWords();
      for (const { id } of this.trie.search(text, distance, last && length >= 4)) {
        const term = this.trieWords[id] as string;
        if (!exact.has(term) && !prefix.has(term)) typo.add(term);
      }
    }
    if (exact.size + prefix.size + typo.size === 0) return null;
    // Per product, the best level in two bits: exact both (3), a prefix hi (2), a typo lo (1).
    const exactBits = this.union(exact);
    const hi = this.union(prefix);
    orInto(hi, exactBits);
    const lo = this.union(typo);
    for (let w = 0; w < lo.length; w++) lo[w] = ((lo[w] as number) & ~(hi[w] as number)) | (exactBits[w] as number);
    const any = new Uint32Array(this.words);
    for (let w = 0; w < any.length; w++) any[w] = (hi[w] as number) | (lo[w] as number);
    const best = exact.size > 0 ? EXACT : prefix.size > 0 ? PREFIX : TYPO;
    return { hi, lo, any, best };
  }

  private union(terms: Set<string>): Bitset {
    const bits = new Uint32Array(this.words);
    const groups = new Set<number>();
    for (const text of terms) {
      const term = this.terms.get(text);
      if (!term) continue;
      if (term.bits) orInto(bits, term.bits);
      else if (term.many) orSlotsInto(bits, term.many.data, term.many.length);
      else if (term.one >= 0) setBit(bits, term.one);
      for (const group of term.groups) groups.add(group);
    }
    for (const group of groups) orInto(bits, this.groups[group] as Bitset);
    return bits;
  }

  /** Terms that begin with the text: words of any length, numbers a little longer. */
  private prefixed(text: string, last: boolean): string[] {
    this.ensureSortedWords();
    if (isNumber(text)) {
      if (!last) return [];
      const found: string[] = [];
      for (let length = text.length + 1; length <= text.length + NUMBER_PREFIX_DIGITS; length++) {
        const list = this.numbers.get(length);
        if (!list) continue;
        for (let i = lowerBound(list, text); i < list.length && (list[i] as string).startsWith(text); i++) {
          found.push(list[i] as string);
        }
      }
      return found;
    }
    if (!last && text.length < 2) return [];
    const found: string[] = [];
    const list = this.sortedWords;
    for (let i = lowerBound(list, text); i < list.length && (list[i] as string).startsWith(text); i++) {
      found.push(list[i] as string);
    }
    return found;
  }

  /** Words and numbers are kept in order for prefix lookups, sorted again after new ones came. */
  private ensureSortedWords(): void {
    if (!this.sortedWordsStale) return;
    this.sortedWords = [...this.trieWords].sort();
    for (const list of this.numbers.values()) list.sort();
    this.sortedWordsStale = false;
  }

  private articles(id: number, limit: number): ProductHint[] {
    if (id < 1) return [];
    const found: ProductHint[] = [];
    const ranges: Array<[number, number]> = [
      [id, id],
      [id * 10, id * 10 + 9],
      [id * 100, id * 100 + 99],
    ];
    for (const [from, to] of ranges) {
      for (let candidate = from; candidate <= to && found.length < limit; candidate++) {
        const slot = this.slotOfId.get(candidate);
        if (slot !== undefined) found.push(this.hint(slot));
      }
    }
    return found;
  }

  private filter(query: ProductQuery): (slot: number) => boolean {
    const min = query.minPriceMinor ?? Number.NEGATIVE_INFINITY;
    const max = query.maxPriceMinor ?? Number.POSITIVE_INFINITY;
    const currencies = this.flags(query.currencies, this.currencyOfCode, this.reference.currencies.length);
    const countries = this.flags(query.countries, this.countryOfCode, this.reference.countries.length);
    const discountedOnly = query.discountedOnly === true;
    const { price, oldPrice, currency, country } = this;
    return (slot) => {
      const p = price[slot] as number;
      if (p < min || p > max) return false;
      if (currencies && currencies[currency[slot] as number] !== 1) return false;
      if (countries && countries[country[slot] as number] !== 1) return false;
      return !discountedOnly || (oldPrice[slot] as number) > 0;
    };
  }

  private flags(codes: string[] | undefined, indexOf: Map<string, number>, size: number): Uint8Array | undefined {
    if (!codes?.length) return undefined;
    const flags = new Uint8Array(size);
    for (const code of codes) {
      const i = indexOf.get(code);
      if (i !== undefined) flags[i] = 1;
    }
    return flags;
  }

  // ---------------------------------------------------------------------------------------------
  // Sorted listings

  private order(scope: number, sort: SortMode): Int32Array {
    const key = `${scope}:${sort}`;
    let order = this.orders.get(key);
    if (!order) {
      order = this.liveSlots(scope).sort(this.comparators[sort]);
      this.orders.set(key, order);
    }
    return order;
  }

  private liveSlots(scope: number): Int32Array {
    const slots = new IntList(1024);
    const within = scope === -1 ? undefined : this.groups[scope];
    forEachSlot(this.live, (slot) => {
      if (!within || hasBit(within, slot)) slots.push(slot);
      return true;
    });
    return slots.data.slice(0, slots.length);
  }

  /** Small batches move the changed products within each built order; big ones drop the orders. */
  private updateOrders(scopes: Set<number>, touched: Set<number>, dropped: Set<number>): void {
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
      const within = scope === -1 ? undefined : this.groups[scope];
      const inserted = [...touched].filter((slot) => hasBit(this.live, slot) && (!within || hasBit(within, slot)));
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

  // ---------------------------------------------------------------------------------------------
  // Storage

  private needsNewSlot(product: IndexedProduct): boolean {
    const slot = this.slotOfId.get(product.id);
    if (slot === undefined) return true;
    return (
      this.name[slot] !== product.name ||
      this.category[slot] !== this.categoryIndex.get(product.categoryId) ||
      this.country[slot] !== this.countryIndex.get(product.countryId) ||
      this.currency[slot] !== this.currencyIndex.get(product.currencyId) ||
      this.nominal[slot] !== product.nominalMinor
    );
  }

  private insert(product: IndexedProduct): number {
    const category = this.categoryIndex.get(product.categoryId);
    const country = this.countryIndex.get(product.countryId);
    const currency = this.currencyIndex.get(product.currencyId);
    if (category === undefined || country === undefined || currency === undefined) {
      throw new Error(`product ${product.id} refers to reference data the index has not loaded`);
    }
    const slot = this.used++;
    this.id[slot] = product.id;
    this.category[slot] = category;
    this.country[slot] = country;
    this.currency[slot] = currency;
    this.writeColumns(slot, product);
    setBit(this.live, slot);
    this.liveCount++;
    this.slotOfId.set(product.id, slot);
    const { categories, countries } = this.reference;
    setBit(this.groups[category] as Bitset, slot);
    setBit(this.groups[categories.length + country] as Bitset, slot);
    setBit(this.groups[categories.length + countries.length + currency] as Bitset, slot);

    const terms = new Set(indexTerms(product.name));
    const units = this.reference.currencies[currency]?.minorUnits ?? 2;
    const amount = minorToDisplay(product.nominalMinor, units);
    if (Number.isInteger(amount)) terms.add(String(amount));
    for (const text of terms) this.post(text, slot);
    return slot;
  }

  private writeColumns(slot: number, product: IndexedProduct): void {
    this.nominal[slot] = product.nominalMinor;
    this.price[slot] = product.priceMinor;
    this.oldPrice[slot] = product.oldPriceMinor ?? -1;
    this.stock[slot] = product.stockCount;
    this.popularity[slot] = product.popularity;
    this.purchased[slot] = product.purchasedCount;
    this.created[slot] = product.createdAt.getTime();
    const reviews = Math.min(product.reviewCount, RATING_COUNT_MAX);
    this.rating[slot] = reviews * 2 ** RATING_TENTHS_BITS + ratingTenths(product.reviewCount, product.ratingSum);
    this.name[slot] = product.name;
    this.cover[slot] = this.intern(product.coverPath);
    this.coverText[slot] = this.intern(product.coverText);
  }

  private drop(slot: number): void {
    if (!hasBit(this.live, slot)) return;
    clearBit(this.live, slot);
    this.liveCount--;
    this.slotOfId.delete(this.id[slot] as number);
  }

  private intern(text: string | null): string | null {
    if (text === null) return null;
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    this.strings.set(text, text);
    return text;
  }

  private term(text: string): Term {
    let term = this.terms.get(text);
    if (!term) {
      term = { one: -1, many: undefined, bits: undefined, groups: NO_GROUPS };
      this.terms.set(text, term);
      if (isNumber(text)) {
        const list = this.numbers.get(text.length);
        if (list) list.push(text);
        else this.numbers.set(text.length, [text]);
        this.sortedWordsStale = true;
      } else {
        this.trie.add(text, this.trieWords.length);
        this.trieWords.push(text);
        this.sortedWordsStale = true;
      }
    }
    return term;
  }

  private post(text: string, slot: number): void {
    const term = this.term(text);
    if (term.bits) setBit(term.bits, slot);
    const { many } = term;
    if (!many) {
      if (term.one === -1) term.one = slot;
      else if (term.one !== slot) {
        term.many = new IntList();
        term.many.push(term.one);
        term.many.push(slot);
        term.one = -1;
      }
      return;
    }
    if (many.data[many.length - 1] === slot) return;
    many.push(slot);
    if (!term.bits && many.length > this.words) {
      term.bits = new Uint32Array(this.words);
      orSlotsInto(term.bits, many.data, many.length);
    }
  }

  private defineGroupTerms(): void {
    const { categories, countries, currencies, aliases } = this.reference;
    const countryBase = categories.length;
    const currencyBase = countryBase + countries.length;
    const add = (group: number, text: string) => {
      for (const term of new Set(indexTerms(text))) {
        const entry = this.term(term);
        if (entry.groups === NO_GROUPS) entry.groups = [group];
        else if (!entry.groups.includes(group)) entry.groups.push(group);
      }
    };
    categories.forEach((c, i) => {
      add(i, `${c.name} ${c.formattedName} ${c.slug.replaceAll('-', ' ')}`);
    });
    countries.forEach((c, i) => {
      add(countryBase + i, `${c.code} ${c.name ?? ''}`);
    });
    currencies.forEach((c, i) => {
      add(currencyBase + i, c.codeName);
    });
    for (const alias of aliases) {
      if (alias.categoryId !== null) {
        const i = this.categoryIndex.get(alias.categoryId);
        if (i !== undefined) add(i, alias.term);
      } else if (alias.countryId !== null) {
        const i = this.countryIndex.get(alias.countryId);
        if (i !== undefined) add(countryBase + i, alias.term);
      } else if (alias.currencyId !== null) {
        const i = this.currencyIndex.get(alias.currencyId);
        if (i !== undefined) add(currencyBase + i, alias.term);
      }
    }
  }

  private hint(slot: number): ProductHint {
    const country = this.reference.countries[this.country[slot] as number];
    const currency = this.reference.currencies[this.currency[slot] as number];
    return {
      id: this.id[slot] as number,
      name: this.name[slot] as string,
      category: this.reference.categories[this.category[slot] as number]?.slug ?? '',
      thumbnail: this.cover[slot] ?? null,
      price: minorToDisplay(this.price[slot] as number),
      currency: STORE_CURRENCY,
      region: { code: country?.code ?? '', name: country?.name ?? null },
      nominal: {
        amount: minorToDisplay(this.nominal[slot] as number, currency?.minorUnits ?? 2),
        currency: currency?.codeName ?? '',
      },
    };
  }

  private ratingOf(slot: number): ProductSummary['rating'] {
    const packed = this.rating[slot] as number;
    const count = packed >>> RATING_TENTHS_BITS;
    return { average: count > 0 ? (packed & (2 ** RATING_TENTHS_BITS - 1)) / 10 : null, count };
  }

  private summary(slot: number): ProductSummary {
    const oldPrice = this.oldPrice[slot] as number;
    const price = this.price[slot] as number;
    const country = this.reference.countries[this.country[slot] as number];
    const currency = this.reference.currencies[this.currency[slot] as number];
    const id = this.id[slot] as number;
    return {
      id,
      article: String(id),
      name: this.name[slot] as string,
      price: minorToDisplay(price),
      price_minor: price,
      old_price: oldPrice < 0 ? null : minorToDisplay(oldPrice),
      old_price_minor: oldPrice < 0 ? null : oldPrice,
      discount: discountPercent(price, oldPrice < 0 ? null : oldPrice),
      currency: STORE_CURRENCY,
      cover_path: this.cover[slot] ?? null,
      cover_text: this.coverText[slot] ?? null,
      country_icon: country?.icon ?? null,
      country: { code: country?.code ?? '', name: country?.name ?? null },
      nominal: {
        amount: minorToDisplay(this.nominal[slot] as number, currency?.minorUnits ?? 2),
        currency: currency?.codeName ?? '',
      },
      category: this.reference.categories[this.category[slot] as number]?.slug ?? '',
      in_stock: (this.stock[slot] as number) > 0,
      created_at: new Date(this.created[slot] as number).toISOString(),
      rating: this.ratingOf(slot),
    };
  }
}

/** Every way to keep `size` of the items, in their order, those keeping the earliest first. */
function* combinations<T>(items: T[], size: number, from = 0): Generator<T[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let i = from; i <= items.length - size; i++) {
    for (const rest of combinations(items, size - 1, i + 1)) yield [items[i] as T, ...rest];
  }
}

/** The first index whose string is not below `text` (code-unit order). */
function lowerBound(list: string[], text: string): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] as string) < text) low = middle + 1;
    else high = middle;
  }
  return low;
}
