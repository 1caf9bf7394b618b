import { minorToDisplay } from '../shared/money.ts';
import { type RatingSummary, ratingTenths } from '../shared/rating.ts';
import { type Bitset, clearBit, hasBit, IntList, orInto, orSlotsInto, setBit, wordsFor } from './bitset.ts';
import { indexTerms, isNumber } from './text.ts';
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

/** What a batch of changes did to the slots, for the structures built over them. */
export interface SlotChanges {
  /** The categories (by position) whose products changed, and -1, the whole store. */
  scopes: Set<number>;
  /** Slots written: updated in place, or newly taken by a product. */
  touched: Set<number>;
  /** Slots that left the live set. */
  dropped: Set<number>;
  /** Whether some product is now found under other words. */
  wordsChanged: boolean;
}

/**
 * The index's storage: products in columns (typed arrays) by slot, the set of live slots, the
 * categories, countries and currencies as sets of slots ("groups"), and the inverted index from
 * words to products with the lists of words that prefix and typo lookups walk. Slots are taken in
 * order and never given back: a product dropped or moved only leaves the live set.
 */
export class CatalogueStore {
  readonly capacity: number;
  /** 32-bit words in a set of slots. */
  readonly words: number;
  private used = 0;
  private liveCount = 0;

  readonly id: Int32Array;
  readonly category: Uint16Array;
  readonly country: Uint16Array;
  readonly currency: Uint16Array;
  readonly price: Int32Array;
  readonly oldPrice: Int32Array;
  readonly nominal: Int32Array;
  readonly stock: Int32Array;
  readonly popularity: Int32Array;
  readonly purchased: Int32Array;
  readonly created: Float64Array;
  readonly rating: Uint32Array;
  readonly name: string[];
  readonly cover: Array<string | null>;
  readonly coverText: Array<string | null>;
  private readonly strings = new Map<string, string>();

  readonly live: Bitset;
  readonly slotOfId = new Map<number, number>();

  private readonly categoryIndex = new Map<number, number>();
  private readonly countryIndex = new Map<number, number>();
  private readonly currencyIndex = new Map<number, number>();
  readonly categoryOfSlug = new Map<string, number>();
  readonly countryOfCode = new Map<string, number>();
  readonly currencyOfCode = new Map<string, number>();
  /** Group bitsets: categories, then countries, then currencies. */
  readonly groups: Bitset[];

  private readonly terms = new Map<string, Term>();
  readonly trie = new WordTrie();
  readonly trieWords: string[] = [];
  /** Words (not numbers) in code-unit order, for prefix lookups. */
  sortedWords: string[] = [];
  private sortedWordsStale = false;
  /** Numbers by digit count, each in order once sorted. */
  readonly numbers = new Map<number, string[]>();

  constructor(
    readonly reference: ReferenceData,
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
   * Answers undefined, changing nothing, when out of room.
   */
  apply(changed: IndexedProduct[], removedIds: number[]): SlotChanges | undefined {
    const moves = changed.filter((product) => this.needsNewSlot(product)).length;
    if (this.used + moves > this.capacity) return undefined;
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
    return { scopes, touched, dropped, wordsChanged };
  }

  /** Whether a product is new, or changed in what it is found by (its words and groups). */
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

  /** Puts a product in the next slot, live, in its groups and under its words; answers the slot. */
  insert(product: IndexedProduct): number {
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

  /** The rating of the product in a slot, unpacked. */
  ratingOf(slot: number): RatingSummary {
    const packed = this.rating[slot] as number;
    const count = packed >>> RATING_TENTHS_BITS;
    return { average: count > 0 ? (packed & (2 ** RATING_TENTHS_BITS - 1)) / 10 : null, count };
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

  // ---------------------------------------------------------------------------------------------
  // Words

  hasTerm(text: string): boolean {
    return this.terms.has(text);
  }

  /** The slots found under any of the terms, directly or through a group the term names. */
  union(terms: Set<string>): Bitset {
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

  /** Words and numbers are kept in order for prefix lookups, sorted again after new ones came. */
  ensureSortedWords(): void {
    if (!this.sortedWordsStale) return;
    this.sortedWords = [...this.trieWords].sort();
    for (const list of this.numbers.values()) list.sort();
    this.sortedWordsStale = false;
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

  /** Bytes held by the columns, the groups and the postings (strings and maps are not counted). */
  approximateBytes(): number {
    let bytes = this.capacity * (4 * 8 + 2 * 3 + 8) + this.groups.length * this.words * 4;
    for (const term of this.terms.values()) bytes += (term.many?.data.byteLength ?? 0) + (term.bits?.byteLength ?? 0);
    return bytes;
  }
}
