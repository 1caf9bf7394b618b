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

const catalogues = Object.fromEntries(
  LANGUAGES.map((language) => {
    const tree = JSON.parse(readFileSync(path.join(here, `${language}.json`), 'utf8')) as Tree;
    return [language, flatten(tree)];
  }),
);

/** Keys without plural suffixes: `listing.found_one` and `listing.found_other` are one key. */
const baseKeys = (keys: Map<string, string>) => new Set([...keys.keys()].map((key) => key.replace(PLURAL, '')));
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

const english = catalogues.en ?? new Map<string, string>();
const englishBase = baseKeys(english);

describe('locale catalogues', () => {
  it('has a catalogue file for every language and no other', () => {
    const files = readdirSync(here).filter((file) => file.endsWith('.json'));
    expect(files.map((file) => file.replace('.json', '')).sort()).toEqual([...LANGUAGES].sort());
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
