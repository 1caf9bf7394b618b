/**
 * The console's texts: i18next's JSON v4 format, as the storefront's catalogues (nested keys read with
 * dots, `{{name}}` placeholders, plural forms `key_one`, `key_few`, `key_many`, `key_other` chosen by
 * Intl.PluralRules from `count`). A missing text shows its key, which a test or a reader notices.
 */
export type Catalogue = { readonly [key: string]: unknown };
export type Translate = (key: string, values?: Record<string, unknown> & { count?: number }) => string;

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

function lookup(catalogue: Catalogue, key: string): unknown {
  let node: unknown = catalogue;
  for (const segment of key.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Catalogue)[segment];
  }
  return node;
}

export function createTranslate(language: string, catalogue: Catalogue): Translate {
  const plurals = new Intl.PluralRules(language);
  return (key, values = {}) => {
    let text: unknown;
    if (typeof values.count === 'number') {
      text = lookup(catalogue, `${key}_${plurals.select(values.count)}`) ?? lookup(catalogue, `${key}_other`);
    }
    text ??= lookup(catalogue, key);
    if (typeof text !== 'string') return key;
    return text.replace(PLACEHOLDER, (_match, name: string) => {
      const value = values[name];
      return value === undefined || value === null ? '' : String(value);
    });
  };
}

/** Every text key of a catalogue, plural forms folded into their base key: for the catalogue test. */
export function textKeys(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return value && typeof value === 'object' ? textKeys(value as Catalogue, path) : [path];
  });
}
