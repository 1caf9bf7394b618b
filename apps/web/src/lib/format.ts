/**
 * Intl formatting for the active language. Thousands are separated by a space in every language
 * (docs/currency.md, "Numbers in every language"), so the group separator Intl picks (comma, dot,
 * narrow space) is replaced by a no-break space, which reads as a space and keeps "1 234" on one line.
 */
const GROUP = '\u00a0';

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

function withSpaceGroups(format: Intl.NumberFormat, value: number): string {
  return format
    .formatToParts(value)
    .map((part) => (part.type === 'group' ? GROUP : part.value))
    .join('')
    .replace(/\u202f/g, GROUP);
}

export function formatNumber(value: number, locale: string, options: Intl.NumberFormatOptions = {}): string {
  return withSpaceGroups(numberFormat(locale, { useGrouping: 'always', ...options }), value);
}

/** "1 234,90 BRL" in Portuguese, "BRL 1 234.90" in English: the currency label is its ISO code. */
export function formatPrice(value: number, currency: string, locale: string): string {
  return withSpaceGroups(
    numberFormat(locale, {
      style: 'currency',
      currency,
      currencyDisplay: 'code',
      useGrouping: 'always',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }),
    value,
  );
}

/** Day, month, year, hour and minute, in the order and words of the language. */
export function formatDateTime(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    // Hindi's 12-hour form puts a Latin "pm" before "बजे" ("03:30 pm बजे"): the 24-hour one reads
    // "24 नवंबर 2026 को 15:30 बजे", as Hindi timetables write it.
    ...(locale === 'hi' ? { hourCycle: 'h23' as const } : {}),
  }).format(date);
}

function displayName(locale: string, type: 'currency' | 'region', code: string): string | undefined {
  try {
    const name = new Intl.DisplayNames([locale], { type, fallback: 'none' }).of(code);
    return name && name !== code ? name : undefined;
  } catch {
    return undefined;
  }
}

/** "US Dollar", "доллар США", "dólar americano" for USD. */
export const currencyName = (code: string, locale: string) => displayName(locale, 'currency', code) ?? code;

/** A country's name in the interface language; undefined for codes Intl does not know (regions). */
export const regionName = (code: string, locale: string) => displayName(locale, 'region', code);
