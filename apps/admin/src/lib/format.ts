/** Minor units as the currency's amount in the console's language: 12345 BRL → "R$ 123,45". */
export function formatMoney(minor: number, currency: string, language: string): string {
  const digits =
    new Intl.NumberFormat(language, { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat(language, { style: 'currency', currency }).format(minor / 10 ** digits);
}

/** The minor units of a typed amount ("12,5" or "12.50" → 1250), or null when it is not one. */
export function parseMoney(text: string, currency: string): number | null {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const normalized = text.trim().replace(/\s/g, '').replace(',', '.');
  const pattern = digits > 0 ? new RegExp(`^\\d{1,12}(\\.\\d{1,${digits}})?$`) : /^\d{1,12}$/;
  if (!pattern.test(normalized)) return null;
  const [whole = '0', fraction = ''] = normalized.split('.');
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

export function formatDateTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
}

export function formatDay(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { day: '2-digit', month: '2-digit', timeZone: 'UTC' }).format(new Date(iso));
}

/** The number of pages `total` rows fill; an empty list still has its one (empty) page. */
export const pageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));

/** Line numbers as ranges, for the duplicate report: [3, 4, 5, 9] → "3–5, 9". */
export function lineRanges(lines: readonly number[]): string {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let index = 0; index < sorted.length; ) {
    const start = sorted[index] as number;
    let end = start;
    while (sorted[index + 1] === end + 1) {
      end += 1;
      index += 1;
    }
    parts.push(start === end ? String(start) : `${start}–${end}`);
    index += 1;
  }
  return parts.join(', ');
}
