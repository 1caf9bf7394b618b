import en from './locales/en.json' with { type: 'json' };
import hi from './locales/hi.json' with { type: 'json' };
import ptBR from './locales/pt-BR.json' with { type: 'json' };
import ru from './locales/ru.json' with { type: 'json' };
import { minorToDecimalString } from './money.ts';

// The sandbox's pages speak the store's four languages, as a real provider's pages speak its
// markets'. Every text a shopper sees or hears (page titles, labels, buttons, errors, the widget's
// aria-labels) comes from the catalogues in ./locales, one JSON file per language, with the same
// keys; `{name}` marks a value filled in with `fill`.

export const LANGUAGES = ['pt-BR', 'en', 'ru', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];

/** What a page falls back to when nothing says which language the shopper reads. */
export const DEFAULT_LANGUAGE: Language = 'en';

export type MessageKey = keyof typeof en;
/** One language's texts. */
export type Messages = Record<MessageKey, string>;

/**
 * A language's file as `Messages`, English's keys being the reference: a key missing from, or added
 * to, any language fails the typecheck.
 */
function catalogue<T extends Messages>(messages: T & Record<Exclude<keyof T, MessageKey>, never>): Messages {
  return messages;
}

export const MESSAGES: Record<Language, Messages> = {
  'pt-BR': catalogue(ptBR),
  en: catalogue(en),
  ru: catalogue(ru),
  hi: catalogue(hi),
};

/** A message with its `{name}` placeholders filled in; a placeholder without a value stays as it is. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * One of the four languages from what a request or a page names: any case, `_` for `-`, and a
 * plain `pt` for Brazilian Portuguese. Anything else is no language at all, never an error: a
 * payment in a language the sandbox does not speak is still a payment.
 */
export function normaliseLanguage(value: unknown): Language | undefined {
  if (typeof value !== 'string' || value.length > 35) return undefined;
  switch (value.trim().toLowerCase().replace(/_/g, '-')) {
    case 'pt':
    case 'pt-br':
      return 'pt-BR';
    case 'en':
      return 'en';
    case 'ru':
      return 'ru';
    case 'hi':
      return 'hi';
    default:
      return undefined;
  }
}

/** The language a browser's language tag stands for: any Portuguese is Brazilian, any English is en... */
function languageOfTag(tag: string): Language | undefined {
  const primary = tag.split('-')[0];
  switch (primary) {
    case 'pt':
      return 'pt-BR';
    case 'en':
    case 'ru':
    case 'hi':
      return primary;
    default:
      return undefined;
  }
}

/** A header can be long; the first ranges say all a browser means. */
const ACCEPT_LANGUAGE_RANGES_MAX = 32;

/**
 * The Accept-Language header's best language the sandbox speaks (RFC 9110 section 12.5.4): ranges
 * by falling q-value, in the header's order where equal; q=0 (or a malformed q) rules a range out.
 */
export function fromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranges = header
    .split(',')
    .slice(0, ACCEPT_LANGUAGE_RANGES_MAX)
    .map((part, index) => {
      const [tag = '', ...parameters] = part.split(';').map((piece) => piece.trim());
      let quality = 1;
      for (const parameter of parameters) {
        const [name = '', value = ''] = parameter.split('=').map((piece) => piece.trim());
        if (name.toLowerCase() !== 'q') continue;
        quality = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value) ? Number(value) : 0;
      }
      return { tag: tag.toLowerCase(), quality, index };
    })
    .filter((range) => range.quality > 0 && range.tag.length > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const range of ranges) {
    const language = languageOfTag(range.tag);
    if (language) return language;
  }
  return undefined;
}

export type LanguageSource = 'payment' | 'query' | 'header' | 'default';

/**
 * The page's language, first match wins: the payment's own (from its request), the page URL's
 * `lang` query parameter, the browser's Accept-Language, English.
 */
export function negotiateLanguage(input: { payment?: Language | null; query?: unknown; acceptLanguage?: string }): {
  language: Language;
  source: LanguageSource;
} {
  if (input.payment) return { language: input.payment, source: 'payment' };
  const query = normaliseLanguage(Array.isArray(input.query) ? input.query[0] : input.query);
  if (query) return { language: query, source: 'query' };
  const header = fromAcceptLanguage(input.acceptLanguage);
  if (header) return { language: header, source: 'header' };
  return { language: DEFAULT_LANGUAGE, source: 'default' };
}

/** Number formats as each market writes money; Latin digits everywhere, so the output is the same on every host. */
const NUMBER_LOCALES: Record<Language, string> = { 'pt-BR': 'pt-BR', en: 'en-US', ru: 'ru-RU', hi: 'hi-IN' };
const amountFormats = new Map<string, Intl.NumberFormat>();

/** An amount in minor units as the language writes it: "R$ 150,00", "150,00 ₽", "₹1,499.00"... */
export function formatAmount(amountMinor: number, currency: string, language: Language): string {
  const key = `${language}:${currency}`;
  let format = amountFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(NUMBER_LOCALES[language], {
      style: 'currency',
      currency,
      numberingSystem: 'latn',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    amountFormats.set(key, format);
  }
  // The decimal string, not a float: every amount up to the sandbox's maximum prints exactly.
  return format.format(minorToDecimalString(amountMinor) as `${number}`);
}

/** What a page needs of its language: its texts, its amounts, and links that keep the language. */
export interface Locale {
  language: Language;
  t: Messages;
  amount(amountMinor: number, currency: string): string;
  /**
   * A sandbox URL for the page's forms, links and redirects. When the language came from the page's
   * `lang` parameter, the next page gets it too; a payment's own language and the browser's header
   * reach the next page by themselves.
   */
  link(url: string): string;
}

export function localeOf(language: Language, source: LanguageSource = 'default'): Locale {
  return {
    language,
    t: MESSAGES[language],
    amount: (amountMinor, currency) => formatAmount(amountMinor, currency, language),
    link: (url) => {
      if (source !== 'query') return url;
      const next = new URL(url);
      next.searchParams.set('lang', language);
      return next.toString();
    },
  };
}
