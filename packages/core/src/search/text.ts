import anyAscii from 'any-ascii';

/**
 * How the catalogue and the shopper's text are cut into words, the same way on both sides, so that
 * "Steam", "STEAM" and "stéam" are one word, "1,000" is one number, and a word in Cyrillic or
 * Devanagari is also known by its Latin transliteration ("стим" as "stim", "नेटफ्लिक्स" as
 * "netphliks"), which lets a Russian or Hindi spelling meet a Latin name.
 */

/** Letters with their combining marks (Devanagari's vowel signs and virama are marks), and digits. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/** Thousands separators between digits: "1,000" and "1 000" (no-break or thin space) are 1000. */
const THOUSANDS = /(\d)[,\u00a0\u202f](?=\d{3}(?!\d))/g;
/** Accents of Latin and Cyrillic letters ("é", "ё", "й"), not Devanagari's signs. */
const LATIN_DIACRITICS = /[\u0300-\u036f]/g;
const NUMBER = /^\d+$/;
const NON_LATIN = /[^\p{Script=Latin}\d]/u;

export interface WordForms {
  /** The word lower-cased, without Latin or Cyrillic accents, in its own script. */
  word: string;
  /** Its Latin transliteration when the word is in another script, lower-cased ASCII. */
  latin: string | undefined;
}

/** Lower-cases and drops accents, keeping every script's own letters. */
export function normalize(text: string): string {
  return text.normalize('NFD').replace(LATIN_DIACRITICS, '').normalize('NFC').toLowerCase();
}

export function isNumber(word: string): boolean {
  return NUMBER.test(word);
}

/** Latin letters for a word in another script; undefined for a Latin word or a number. */
export function latinOf(word: string): string | undefined {
  if (!NON_LATIN.test(word)) return undefined;
  const latin = anyAscii(word)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  return latin && latin !== word ? latin : undefined;
}

/** The words of a text, in order, each with its Latin form. */
export function words(text: string): WordForms[] {
  const found = normalize(text).replace(THOUSANDS, '$1').match(WORD) ?? [];
  return found.map((word) => ({ word, latin: latinOf(word) }));
}

/**
 * Every form under which a catalogue text is found: each word, each word's Latin form, and each two
 * neighbouring words written as one ("Game Pass" is also "gamepass", "Google Play" "googleplay"), as
 * shoppers type names they know as one brand. Numbers are not joined: "steam 50" stays two words.
 */
export function indexTerms(text: string): string[] {
  const terms: string[] = [];
  const forms = words(text);
  forms.forEach(({ word, latin }, i) => {
    terms.push(word);
    if (latin) terms.push(latin);
    const next = forms[i + 1];
    if (!next || isNumber(word) || isNumber(next.word)) return;
    terms.push(word + next.word);
    if (latin || next.latin) terms.push((latin ?? word) + (next.latin ?? next.word));
  });
  return terms;
}
