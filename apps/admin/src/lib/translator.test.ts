import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import hi from '../locales/hi.json';
import ptBR from '../locales/pt-BR.json';
import ru from '../locales/ru.json';
import { createTranslate, textKeys } from './translator.ts';

const base = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

/** Each text's placeholders, its plural forms together. */
function placeholders(catalogue: object): Record<string, string[]> {
  const found: Record<string, Set<string>> = {};
  const walk = (node: object, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (value && typeof value === 'object') walk(value, path);
      else {
        found[base(path)] ??= new Set();
        for (const match of String(value).matchAll(/\{\{\s*(\w+)\s*\}\}/g)) found[base(path)]?.add(match[1] ?? '');
      }
    }
  };
  walk(catalogue, '');
  return Object.fromEntries(Object.entries(found).map(([key, names]) => [key, [...names].sort()]));
}

describe('the console catalogues', () => {
  it('hold every text in all four languages, with the same placeholders', () => {
    const english = new Set(textKeys(en).map(base));
    for (const [language, catalogue] of Object.entries({ 'pt-BR': ptBR, ru, hi })) {
      const keys = new Set(textKeys(catalogue).map(base));
      expect(
        [...english].filter((key) => !keys.has(key)),
        language,
      ).toEqual([]);
      expect(
        [...keys].filter((key) => !english.has(key)),
        language,
      ).toEqual([]);
      expect(placeholders(catalogue), language).toEqual(placeholders(en));
    }
  });

  it('give every plural text its `other` form', () => {
    for (const catalogue of [en, ptBR, ru, hi]) {
      const keys = textKeys(catalogue);
      for (const key of keys.filter((name) => /_(one|few|many)$/.test(name))) {
        expect(keys, key).toContain(`${base(key)}_other`);
      }
    }
  });
});

describe('createTranslate', () => {
  it('fills placeholders, picks plural forms by language, and shows a missing key as itself', () => {
    const t = createTranslate('ru', ru);
    expect(t('dashboard.orders', { count: 1 })).toBe('1 заказ');
    expect(t('dashboard.orders', { count: 3 })).toBe('3 заказа');
    expect(t('dashboard.orders', { count: 5 })).toBe('5 заказов');
    expect(createTranslate('pt-BR', ptBR)('order.title', { number: 'AB12CD34' })).toBe('Pedido AB12CD34');
    expect(createTranslate('en', en)('nothing.here')).toBe('nothing.here');
  });
});
