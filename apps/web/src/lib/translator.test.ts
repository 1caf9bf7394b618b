import { describe, expect, it, vi } from 'vitest';
import en from '../locales/en.json';
import ru from '../locales/ru.json';
import { Translator } from './translator.ts';

describe('Translator', () => {
  it('reads nested keys and fills placeholders, spaces inside the braces allowed', () => {
    const translator = new Translator('en', { a: { b: 'Hello, {{name}} and {{ other }}!' } });
    expect(translator.t('a.b', { name: 'Ana', other: 'Raj' })).toBe('Hello, Ana and Raj!');
  });

  it('shows the key of a missing text, and of a key that names a group', () => {
    const translator = new Translator('en', { a: { b: 'B' } });
    expect(translator.t('a.c')).toBe('a.c');
    expect(translator.t('a')).toBe('a');
    expect(translator.t('toString')).toBe('toString');
    expect(translator.exists('a.b')).toBe(true);
    expect(translator.exists('a')).toBe(false);
    expect(translator.exists('E-mail já existe')).toBe(false);
  });

  it('picks the plural form Intl.PluralRules names for the language', () => {
    const { t } = new Translator('ru', ru);
    expect(t('listing.found', { count: 1, formatted: '1' })).toBe(ru.listing.found_one.replace('{{formatted}}', '1'));
    expect(t('listing.found', { count: 3, formatted: '3' })).toBe(ru.listing.found_few.replace('{{formatted}}', '3'));
    expect(t('listing.found', { count: 11, formatted: '11' })).toBe(
      ru.listing.found_many.replace('{{formatted}}', '11'),
    );
    const english = new Translator('en', en).t;
    expect(english('listing.found', { count: 1, formatted: '1' })).toBe(
      en.listing.found_one.replace('{{formatted}}', '1'),
    );
    expect(english('listing.found', { count: 0, formatted: '0' })).toBe(
      en.listing.found_other.replace('{{formatted}}', '0'),
    );
  });

  it('falls back to the other form, then to the plain key, when a form is missing', () => {
    const { t } = new Translator('ru', { items_other: '{{count}} items', plain: '{{count}} plain' });
    expect(t('items', { count: 1 })).toBe('1 items');
    expect(t('plain', { count: 2 })).toBe('2 plain');
  });

  it('returns objects and arrays with their strings filled when asked, and only then', () => {
    const translator = new Translator('en', { list: [{ q: 'Mail {{email}}?', a: 'Yes' }] });
    expect(translator.t('list', { returnObjects: true, email: 'help@store.test' })).toEqual([
      { q: 'Mail help@store.test?', a: 'Yes' },
    ]);
    expect(translator.t('list')).toBe('list');
  });

  it('tells subscribers about a switch and a merged part, with a new t each time', () => {
    const translator = new Translator('en', { info: { updated: 'Updated' } });
    const listener = vi.fn();
    const unsubscribe = translator.subscribe(listener);
    const before = translator.t;

    translator.addTexts({ info: { faq: { title: 'FAQ' } } });
    expect(translator.t('info.faq.title')).toBe('FAQ');
    expect(translator.t('info.updated')).toBe('Updated');
    expect(translator.t).not.toBe(before);

    translator.setLanguage('pt-BR', { info: { updated: 'Atualizado' } });
    expect(translator.language).toBe('pt-BR');
    expect(translator.t('info.updated')).toBe('Atualizado');
    expect(listener).toHaveBeenCalledTimes(2);

    unsubscribe();
    translator.addTexts({});
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
