import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorKeys } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../lib/i18n.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Tree = { [key: string]: string | Tree | Tree[] };

function flatten(tree: unknown, prefix = '', out = new Map<string, string>()) {
  if (typeof tree === 'string') {
    out.set(prefix, tree);
  } else if (Array.isArray(tree)) {
    for (const [index, item] of tree.entries()) flatten(item, `${prefix}.${index}`, out);
  } else if (tree && typeof tree === 'object') {
    for (const [key, value] of Object.entries(tree)) flatten(value, prefix ? `${prefix}.${key}` : key, out);
  }
  return out;
}

/**
 * Parts of each catalogue loaded only by the screens that need them (lib/i18n.ts), and their sections
 * (a dotted section is a branch of a top-level one: the promo code's refusals live with the basket).
 */
const PART_SECTIONS: Record<string, string[]> = {
  info: ['info', 'holiday'],
  account: ['auth', 'profile', 'validation', 'reviews', 'invalidCredentials'],
  basket: ['basket', 'promo', 'checkout', 'validation.promo'],
  payments: ['payment', 'cardForm', 'qr', 'payer', 'upi', 'purchases', 'orderPage', 'orders'],
  // The product page's own texts (its route loads the part); the card's stay in the first load.
  shop: [
    'shop',
    ...[
      'inStock',
      'breadcrumbs',
      'articleLabel',
      'region',
      'cardValue',
      'availability',
      'howToActivate',
      'perkInstant',
      'perkGuarantee',
      'description',
      'instructions',
      'reviews',
      'noReviews',
      'reviewPages',
      'reviewSort',
      'reviewSortOptions',
      'reviewEdited',
      'verifiedBuyer',
      'similar',
    ].map((key) => `product.${key}`),
  ],
};
const PARTS = Object.keys(PART_SECTIONS);

const readTree = (...segments: string[]) => JSON.parse(readFileSync(path.join(here, ...segments), 'utf8')) as Tree;

/** A language's whole catalogue: the first-load file with every part merged in, as the translator holds it. */
const catalogues = Object.fromEntries(
  LANGUAGES.map((language) => {
    const keys = flatten(readTree(`${language}.json`));
    for (const part of PARTS) {
      for (const [key, text] of flatten(readTree(part, `${language}.json`))) {
        // A key in two places would be overwritten when a part loads; each text has one home.
        if (keys.has(key)) throw new Error(`${language}: ${key} is in ${part}/ and in another part or the first load`);
        keys.set(key, text);
      }
    }
    return [language, keys];
  }),
);

/** Keys without plural suffixes: `listing.found_one` and `listing.found_other` are one key. */
const baseKeys = (keys: Map<string, string>) => new Set([...keys.keys()].map((key) => key.replace(PLURAL, '')));
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

const english = catalogues.en ?? new Map<string, string>();
const englishBase = baseKeys(english);

describe('locale catalogues', () => {
  it('has a catalogue file for every language and no other, and the same for each part', () => {
    for (const folder of ['', ...PARTS]) {
      const files = readdirSync(path.join(here, folder)).filter((file) => file.endsWith('.json'));
      expect(files.map((file) => file.replace('.json', '')).sort(), folder || 'first load').toEqual(
        [...LANGUAGES].sort(),
      );
    }
  });

  it('keeps in each part only the texts of its own screens', () => {
    for (const part of PARTS) {
      const sections = PART_SECTIONS[part] ?? [];
      for (const language of LANGUAGES) {
        const keys = [...flatten(readTree(part, `${language}.json`)).keys()];
        expect(
          keys.filter((key) => !sections.some((section) => key === section || key.startsWith(`${section}.`))),
        ).toEqual([]);
      }
    }
  });

  for (const language of LANGUAGES) {
    const keys = catalogues[language] ?? new Map<string, string>();

    it(`${language}: has every key of every other catalogue`, () => {
      const own = baseKeys(keys);
      const missing = LANGUAGES.flatMap((other) =>
        [...baseKeys(catalogues[other] ?? new Map())]
          .filter((key) => !own.has(key))
          .map((key) => `${key} (in ${other})`),
      );
      expect([...new Set(missing)]).toEqual([]);
    });

    it(`${language}: has every plural form the language needs`, () => {
      const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      const pluralBases = new Set(
        LANGUAGES.flatMap((other) => [...(catalogues[other] ?? new Map()).keys()])
          .filter((key) => PLURAL.test(key))
          .map((key) => key.replace(PLURAL, '')),
      );
      const missing = [...pluralBases].flatMap((base) =>
        forms.filter((form) => !keys.has(`${base}_${form}`)).map((form) => `${base}_${form}`),
      );
      expect(missing).toEqual([]);
    });

    it(`${language}: has no empty text and the same placeholders as English`, () => {
      const problems: string[] = [];
      for (const [key, text] of keys) {
        if (!text.trim()) problems.push(`${key} is empty`);
        const englishText = english.get(key) ?? english.get(`${key.replace(PLURAL, '')}_other`);
        if (englishText !== undefined && placeholders(englishText).join() !== placeholders(text).join()) {
          problems.push(`${key} has {{${placeholders(text)}}}, English has {{${placeholders(englishText)}}}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it(`${language}: translates every message key the server sends`, () => {
      const own = baseKeys(keys);
      expect(Object.values(ErrorKeys).filter((key) => !own.has(key))).toEqual([]);
    });
  }

  it('has every key the code asks for', () => {
    const source = path.join(here, '..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(full);
      }
    };
    walk(source);
    const used = new Set<string>();
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([a-zA-Z0-9_.-]+)'/g)) {
        if (match[1]) used.add(match[1]);
      }
    }
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((key) => !englishBase.has(key) && !english.has(key))).toEqual([]);
  });
});
