import { describe, expect, it } from 'vitest';
import { formatMoney, lineRanges, pageCount, parseMoney } from './format.ts';

describe('money', () => {
  it('reads typed amounts in either decimal mark as minor units, and refuses what is not one', () => {
    expect(parseMoney('12,5', 'BRL')).toBe(1250);
    expect(parseMoney(' 12.50 ', 'BRL')).toBe(1250);
    expect(parseMoney('0,01', 'BRL')).toBe(1);
    expect(parseMoney('100', 'BRL')).toBe(10000);
    expect(parseMoney('1.234', 'BRL')).toBeNull();
    expect(parseMoney('12,345', 'BRL')).toBeNull();
    expect(parseMoney('-5', 'BRL')).toBeNull();
    expect(parseMoney('abc', 'BRL')).toBeNull();
    expect(parseMoney('', 'BRL')).toBeNull();
    // A currency without cents takes whole units only.
    expect(parseMoney('500', 'JPY')).toBe(500);
    expect(parseMoney('5.5', 'JPY')).toBeNull();
  });

  it('shows minor units in the console language', () => {
    expect(formatMoney(123456, 'BRL', 'pt-BR')).toBe('R$\u00a01.234,56');
    expect(formatMoney(123456, 'BRL', 'en')).toBe('R$1,234.56');
  });
});

describe('lists', () => {
  it('counts pages, an empty list having one', () => {
    expect(pageCount(0, 25)).toBe(1);
    expect(pageCount(25, 25)).toBe(1);
    expect(pageCount(26, 25)).toBe(2);
  });

  it('writes line numbers as ranges for the duplicate report', () => {
    expect(lineRanges([9, 3, 4, 5, 4])).toBe('3–5, 9');
    expect(lineRanges([2])).toBe('2');
    expect(lineRanges([])).toBe('');
  });
});
