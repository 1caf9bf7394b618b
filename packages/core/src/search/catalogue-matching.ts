import { type Bitset, orInto } from './bitset.ts';
import type { CatalogueStore } from './catalogue-store.ts';
import { isNumber, type WordForms, words } from './text.ts';

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

/** One query word resolved: for each product, its match level in two bits (hi: 2, lo: 1). */
export interface ResolvedWord {
  hi: Bitset;
  lo: Bitset;
  /** hi | lo: every product the word finds at all. */
  any: Bitset;
  best: number;
}

/** What a text finds: the candidate products, and the words that found them. */
export interface Match {
  candidates: Bitset;
  resolved: ResolvedWord[];
}

/**
 * The shopper's text against the store's words: each word found exactly, by its beginning or with a
 * typo, in its own script or its Latin spelling, and the products that have the words.
 */
export class CatalogueMatcher {
  private readonly wordCache = new Map<string, ResolvedWord | null>();
  private readonly wordCacheMax: number;
  /** The candidates of the query being answered: every query is answered synchronously, one at a time. */
  private readonly scratch: Bitset;

  constructor(private readonly store: CatalogueStore) {
    this.scratch = new Uint32Array(store.words);
    this.wordCacheMax = Math.max(32, Math.floor(WORD_CACHE_BYTES / (8 * store.words)));
  }

  /** Drops the resolved words, once products are found under other words. */
  forgetWords(): void {
    this.wordCache.clear();
  }

  /**
   * The products matching every word of the text that finds anything; when no product has them all,
   * those matching the most of them (the first such combination, keeping the earlier words, which
   * are typed out, over the last, which may be half typed). The candidates are valid until the next
   * match.
   */
  match(text: string): Match | undefined {
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

  /** Slots of the products whose article (the id) is `id`, or begins with it and is one or two digits longer. */
  articles(id: number, limit: number): number[] {
    if (id < 1) return [];
    const found: number[] = [];
    const ranges: Array<[number, number]> = [
      [id, id],
      [id * 10, id * 10 + 9],
      [id * 100, id * 100 + 99],
    ];
    for (const [from, to] of ranges) {
      for (let candidate = from; candidate <= to && found.length < limit; candidate++) {
        const slot = this.store.slotOfId.get(candidate);
        if (slot !== undefined) found.push(slot);
      }
    }
    return found;
  }

  /** The live products every word finds, into the scratch set; false when there are none. */
  private intersect(resolved: ResolvedWord[]): boolean {
    const candidates = this.scratch;
    const { live } = this.store;
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
    const { store } = this;
    const spellings = form.latin ? [form.word, form.latin] : [form.word];
    const exact = new Set<string>();
    const prefix = new Set<string>();
    // The last word may still be being typed: "play" is as much PlayStation as Google Play. A
    // number is taken as typed, so "steam 50" puts 50 before 500.
    const stillTyping = last && !isNumber(form.word);
    for (const text of spellings) {
      if (store.hasTerm(text)) exact.add(text);
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
      store.ensureSortedWords();
      for (const { id } of store.trie.search(text, distance, last && length >= 4)) {
        const term = store.trieWords[id] as string;
        if (!exact.has(term) && !prefix.has(term)) typo.add(term);
      }
    }
    if (exact.size + prefix.size + typo.size === 0) return null;
    // Per product, the best level in two bits: exact both (3), a prefix hi (2), a typo lo (1).
    const exactBits = store.union(exact);
    const hi = store.union(prefix);
    orInto(hi, exactBits);
    const lo = store.union(typo);
    for (let w = 0; w < lo.length; w++) lo[w] = ((lo[w] as number) & ~(hi[w] as number)) | (exactBits[w] as number);
    const any = new Uint32Array(store.words);
    for (let w = 0; w < any.length; w++) any[w] = (hi[w] as number) | (lo[w] as number);
    const best = exact.size > 0 ? EXACT : prefix.size > 0 ? PREFIX : TYPO;
    return { hi, lo, any, best };
  }

  /** Terms that begin with the text: words of any length, numbers a little longer. */
  private prefixed(text: string, last: boolean): string[] {
    const { store } = this;
    store.ensureSortedWords();
    if (isNumber(text)) {
      if (!last) return [];
      const found: string[] = [];
      for (let length = text.length + 1; length <= text.length + NUMBER_PREFIX_DIGITS; length++) {
        const list = store.numbers.get(length);
        if (!list) continue;
        for (let i = lowerBound(list, text); i < list.length && (list[i] as string).startsWith(text); i++) {
          found.push(list[i] as string);
        }
      }
      return found;
    }
    if (!last && text.length < 2) return [];
    const found: string[] = [];
    const list = store.sortedWords;
    for (let i = lowerBound(list, text); i < list.length && (list[i] as string).startsWith(text); i++) {
      found.push(list[i] as string);
    }
    return found;
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
