import { describe, expect, it } from 'vitest';
import hiPayments from '../locales/payments/hi.json';
import { formatDateTime } from './format.ts';

describe('formatDateTime', () => {
  it('writes a Hindi time in the 24-hour form, without a Latin "pm" before बजे', () => {
    const text = formatDateTime('2026-11-24T15:30:00Z', 'hi');
    expect(text).toMatch(/^24 नवंबर 2026 को \d{2}:30 बजे$/);
    expect(text).not.toMatch(/[ap]m/i);
  });

  it('reads as one Hindi phrase in the purchase line: "को" once', () => {
    const line = hiPayments.purchases.purchasedAt.replace('{{date}}', formatDateTime('2026-11-24T15:30:00Z', 'hi'));
    expect(line.match(/को/g)).toHaveLength(1);
    expect(line).toMatch(/बजे खरीदा$/);
  });

  it('keeps each other language in its own form', () => {
    expect(formatDateTime('2026-11-24T15:30:00Z', 'pt-BR')).toMatch(/^24 de novembro de 2026 às \d{2}:30$/);
    expect(formatDateTime('2026-11-24T15:30:00Z', 'ru')).toMatch(/^24 ноября 2026 г\. в \d{2}:30$/);
    expect(formatDateTime('not a date', 'en')).toBe('');
  });
});
