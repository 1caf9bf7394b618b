import { describe, expect, it } from 'vitest';
import {
  fill,
  formatAmount,
  fromAcceptLanguage,
  LANGUAGES,
  localeOf,
  MESSAGES,
  type MessageKey,
  negotiateLanguage,
  normaliseLanguage,
} from './i18n.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

/** Texts that read the same in every language: names the brief keeps as they are. */
const SAME_EVERYWHERE = new Set<MessageKey>(['cvc', 'threeDsTitle']);

describe('the catalogue', () => {
  const english = MESSAGES.en;
  const keys = Object.keys(english).sort();

  it('has the same keys in all four languages, and no empty text', () => {
    expect(Object.keys(MESSAGES).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) {
      const messages = MESSAGES[language];
      expect(Object.keys(messages).sort(), language).toEqual(keys);
      for (const [key, text] of Object.entries(messages)) {
        expect(typeof text, `${language}.${key}`).toBe('string');
        expect(text.trim(), `${language}.${key}`).not.toBe('');
      }
    }
  });

  it('has the same placeholders in every language', () => {
    for (const language of LANGUAGES) {
      for (const key of keys as MessageKey[]) {
        expect(placeholders(MESSAGES[language][key]), `${language}.${key}`).toEqual(placeholders(english[key]));
      }
    }
  });

  it('leaves no English text in another language', () => {
    for (const language of LANGUAGES.filter((language) => language !== 'en')) {
      for (const key of keys as MessageKey[]) {
        if (SAME_EVERYWHERE.has(key)) continue;
        expect(MESSAGES[language][key], `${language}.${key}`).not.toBe(english[key]);
      }
    }
  });

  it('keeps card numbers and scheme names as they are', () => {
    for (const language of LANGUAGES) {
      const t = MESSAGES[language];
      for (const number of ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000 0000 0000 3220']) {
        expect(t.testCards, language).toContain(number);
      }
      expect(t.testCards, language).toContain('3-D Secure');
      expect(t.testCards, language).toContain('CVC');
      expect(t.payWithPix, language).toContain('PIX');
      expect(t.payWithUpi, language).toContain('UPI');
      expect(t.threeDsHeading, language).toContain('3-D Secure');
    }
  });

  it('fills placeholders, leaving unknown ones alone', () => {
    expect(fill('Pay {amount}', { amount: '$1.00' })).toBe('Pay $1.00');
    expect(fill('{a} and {b}', { a: 'x' })).toBe('x and {b}');
  });
});

describe('normaliseLanguage', () => {
  it('takes the four languages in any case, and a plain pt', () => {
    expect(normaliseLanguage('pt-BR')).toBe('pt-BR');
    expect(normaliseLanguage('PT-br')).toBe('pt-BR');
    expect(normaliseLanguage('pt_BR')).toBe('pt-BR');
    expect(normaliseLanguage('pt')).toBe('pt-BR');
    expect(normaliseLanguage('PT')).toBe('pt-BR');
    expect(normaliseLanguage('EN')).toBe('en');
    expect(normaliseLanguage(' ru ')).toBe('ru');
    expect(normaliseLanguage('Hi')).toBe('hi');
  });

  it('drops anything else', () => {
    for (const value of ['de', 'pt-PT', 'en-GB', '', 'x'.repeat(100), 42, null, undefined, {}, ['ru']]) {
      expect(normaliseLanguage(value), String(value)).toBeUndefined();
    }
  });
});

describe('Accept-Language', () => {
  it('maps every Portuguese to pt-BR, and regional tags to their language', () => {
    expect(fromAcceptLanguage('pt')).toBe('pt-BR');
    expect(fromAcceptLanguage('pt-PT')).toBe('pt-BR');
    expect(fromAcceptLanguage('pt-BR')).toBe('pt-BR');
    expect(fromAcceptLanguage('ru-RU')).toBe('ru');
    expect(fromAcceptLanguage('hi-IN')).toBe('hi');
    expect(fromAcceptLanguage('en-GB')).toBe('en');
    expect(fromAcceptLanguage('EN-us')).toBe('en');
  });

  it('takes the highest q-value the sandbox speaks, the header’s order breaking ties', () => {
    expect(fromAcceptLanguage('en;q=0.5, ru;q=0.9, hi;q=0.7')).toBe('ru');
    expect(fromAcceptLanguage('de-DE, fr;q=0.9, hi-IN;q=0.8, en;q=0.7')).toBe('hi');
    expect(fromAcceptLanguage('ru;q=0.8, pt;q=0.8')).toBe('ru');
    expect(fromAcceptLanguage('pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7')).toBe('pt-BR');
    expect(fromAcceptLanguage('hi;q=0.1, ru')).toBe('ru');
    expect(fromAcceptLanguage('ru ; q = 0.4 , en ; q = 0.3')).toBe('ru');
  });

  it('rules out q=0 and a malformed q', () => {
    expect(fromAcceptLanguage('ru;q=0, hi;q=0.2')).toBe('hi');
    expect(fromAcceptLanguage('ru;q=0.000, en;q=0.001')).toBe('en');
    expect(fromAcceptLanguage('ru;q=2, hi;q=abc, pt;q=0.5')).toBe('pt-BR');
  });

  it('has no answer for languages the sandbox does not speak, or no header', () => {
    expect(fromAcceptLanguage('de-DE, fr;q=0.9, *;q=0.1')).toBeUndefined();
    expect(fromAcceptLanguage('')).toBeUndefined();
    expect(fromAcceptLanguage(undefined)).toBeUndefined();
    expect(fromAcceptLanguage(',,;;q=')).toBeUndefined();
  });

  it('reads a huge header without trouble', () => {
    expect(fromAcceptLanguage(`${'de;q=0.9,'.repeat(2_000)}ru`)).toBeUndefined();
    expect(fromAcceptLanguage('x'.repeat(4_000))).toBeUndefined();
  });
});

describe('negotiateLanguage', () => {
  it('prefers the payment’s language, then lang, then Accept-Language, then English', () => {
    const all = { payment: 'hi' as const, query: 'ru', acceptLanguage: 'pt-BR' };
    expect(negotiateLanguage(all)).toEqual({ language: 'hi', source: 'payment' });
    expect(negotiateLanguage({ ...all, payment: null })).toEqual({ language: 'ru', source: 'query' });
    expect(negotiateLanguage({ ...all, payment: null, query: undefined })).toEqual({
      language: 'pt-BR',
      source: 'header',
    });
    expect(negotiateLanguage({})).toEqual({ language: 'en', source: 'default' });
  });

  it('skips a lang it does not speak, and takes the first of repeated ones', () => {
    expect(negotiateLanguage({ query: 'de', acceptLanguage: 'ru' }).language).toBe('ru');
    expect(negotiateLanguage({ query: ['pt', 'hi'] }).language).toBe('pt-BR');
  });
});

describe('amounts', () => {
  it('are written as each language writes money', () => {
    expect(formatAmount(25_050, 'RUB', 'en')).toBe('RUB\u00a0250.50');
    expect(formatAmount(15_000, 'BRL', 'pt-BR')).toBe('R$\u00a0150,00');
    expect(formatAmount(25_050, 'RUB', 'ru')).toBe('250,50\u00a0₽');
    expect(formatAmount(149_900, 'INR', 'hi')).toBe('₹1,499.00');
    expect(formatAmount(1_000, 'USD', 'en')).toBe('$10.00');
  });

  it('print Indian digit groups and Latin digits in Hindi', () => {
    expect(formatAmount(123_456_789, 'INR', 'hi')).toBe('₹12,34,567.89');
  });

  it('are exact up to the largest payment', () => {
    expect(formatAmount(10_000_000_000, 'USD', 'en')).toBe('$100,000,000.00');
    expect(formatAmount(9_999_999_999, 'USD', 'en')).toBe('$99,999,999.99');
  });
});

describe('the locale', () => {
  it('carries lang on to the next page only when the language came from it', () => {
    const url = 'http://sandbox.test/sandbox/3ds/challenge?payment_id=p&token=t';
    expect(localeOf('ru', 'query').link(url)).toBe(`${url}&lang=ru`);
    expect(localeOf('pt-BR', 'query').link('http://sandbox.test/sandbox/qr/x')).toBe(
      'http://sandbox.test/sandbox/qr/x?lang=pt-BR',
    );
    for (const source of ['payment', 'header', 'default'] as const) {
      expect(localeOf('ru', source).link(url)).toBe(url);
    }
  });
});
