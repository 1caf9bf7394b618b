/** "23 Nov", "23 de nov.", "23 нояб.": the day a display rate was set, in the interface language. */
export function formatRateDate(iso: string | null, locale: string): string {
  const date = new Date(iso ?? '');
  return Number.isNaN(date.getTime())
    ? ''
    : new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' }).format(date);
}
