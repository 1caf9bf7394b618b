/**
 * The texts of one interface language and the lookup the screens call as `t`.
 *
 * The catalogues use i18next's JSON v4 format, which translators and tools know: nested keys read
 * with dots (`auth.login`), `{{name}}` placeholders, plural forms as `key_one`, `key_few`,
 * `key_many`, `key_other` chosen by Intl.PluralRules from `count`. This is that format's lookup
 * and nothing else, in well under a kilobyte: i18next itself, with its React binding, is about
 * 17 KB of the first page's JavaScript, a seventh of the budget, for features the store does not
 * use (namespaces, backends, context, nesting, formatters, post-processors).
 */

export type Catalogue = { readonly [key: string]: unknown };

export interface TranslateOptions {
  /** Picks the plural form and fills `{{count}}`. */
  count?: number;
  /** Returns the object or array under the key, its strings filled in, instead of a string. */
  returnObjects?: boolean;
  [placeholder: string]: unknown;
}

export interface Translate {
  (key: string, options?: TranslateOptions & { returnObjects?: false }): string;
  (key: string, options: TranslateOptions & { returnObjects: true }): unknown;
}

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

function lookup(catalogue: Catalogue, key: string): unknown {
  let node: unknown = catalogue;
  for (const segment of key.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Catalogue)[segment];
  }
  return node;
}

function fill(text: string, values: TranslateOptions): string {
  return text.replace(PLACEHOLDER, (_match, name: string) => {
    const value = values[name];
    return value === undefined || value === null ? '' : String(value);
  });
}

function fillDeep(value: unknown, values: TranslateOptions): unknown {
  if (typeof value === 'string') return fill(value, values);
  if (Array.isArray(value)) return value.map((item) => fillDeep(item, values));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillDeep(item, values)]));
  }
  return value;
}

/** Deep merge of `addition` into `base`, for the parts of a catalogue that load later. */
export function mergeTexts(base: Catalogue, addition: Catalogue): Catalogue {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(addition)) {
    const current = merged[key];
    const bothObjects =
      current && value && typeof current === 'object' && typeof value === 'object' && !Array.isArray(value);
    merged[key] = bothObjects ? mergeTexts(current as Catalogue, value as Catalogue) : value;
  }
  return merged;
}

/**
 * One language's catalogue with change notification, so React can re-render on a switch. `t` is
 * replaced by a new function on every change: a component or memo that depends on `t` updates.
 */
export class Translator {
  #language: string;
  #catalogue: Catalogue;
  #plurals: Intl.PluralRules;
  #listeners = new Set<() => void>();
  t: Translate;

  constructor(language: string, catalogue: Catalogue) {
    this.#language = language;
    this.#catalogue = catalogue;
    this.#plurals = new Intl.PluralRules(language);
    this.t = this.#createT();
  }

  get language(): string {
    return this.#language;
  }

  /** Whether `key` names a text (a plural key counts when its `_other` form exists). */
  exists(key: string): boolean {
    return (
      typeof lookup(this.#catalogue, key) === 'string' || typeof lookup(this.#catalogue, `${key}_other`) === 'string'
    );
  }

  /** Replaces the whole catalogue, as on a language switch. */
  setLanguage(language: string, catalogue: Catalogue): void {
    this.#language = language;
    this.#catalogue = catalogue;
    this.#plurals = new Intl.PluralRules(language);
    this.#changed();
  }

  /** Adds a part of the current language's catalogue. */
  addTexts(texts: Catalogue): void {
    this.#catalogue = mergeTexts(this.#catalogue, texts);
    this.#changed();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #changed() {
    this.t = this.#createT();
    for (const listener of this.#listeners) listener();
  }

  #createT(): Translate {
    const catalogue = this.#catalogue;
    const plurals = this.#plurals;
    const translate = (key: string, options: TranslateOptions = {}): unknown => {
      let value: unknown;
      if (typeof options.count === 'number') {
        value = lookup(catalogue, `${key}_${plurals.select(options.count)}`) ?? lookup(catalogue, `${key}_other`);
      }
      value ??= lookup(catalogue, key);
      if (typeof value === 'string') return fill(value, options);
      if (options.returnObjects && value !== undefined) return fillDeep(value, options);
      // A missing text shows its key, which a test or a reader notices, rather than nothing.
      return key;
    };
    return translate as Translate;
  }
}
