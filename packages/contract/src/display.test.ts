import { describe, expect, it } from 'vitest';
import { ProductFilterQuerySchema, ProductListQuerySchema } from './catalogue.ts';
import { convertMinorToWhole, DISPLAY_CURRENCY_BY_LOCALE, rateMicros } from './display.ts';
import { ErrorKeys } from './errors.ts';
import { LOCALES } from './limits.ts';

describe('rateMicros', () => {
  it('reads a plain decimal into millionths of a BRL, exactly', () => {
    expect(rateMicros('0.057')).toBe(57_000);
    expect(rateMicros('0.064')).toBe(64_000);
    expect(rateMicros('1')).toBe(1_000_000);
    expect(rateMicros('5.25')).toBe(5_250_000);
    expect(rateMicros('0.000001')).toBe(1);
    expect(rateMicros('12345678.123456')).toBe(12_345_678_123_456);
  });

  it('refuses what is not a rate above zero with at most six decimals', () => {
    for (const bad of ['0', '0.000000', '-1', '1e3', '.5', '0.0000001', '01', '1,5', '', ' 1', 'NaN', '123456789']) {
      expect(rateMicros(bad), bad).toBeUndefined();
    }
  });
});

describe('convertMinorToWhole', () => {
  it('converts BRL cents to whole units of the currency, rounding up', () => {
    // R$ 100,00 at 0.057 BRL per rouble: 1754.38... roubles, shown as 1 755.
    expect(convertMinorToWhole(10_000, '0.057')).toBe(1_755);
    // R$ 123,90 at 0.064 BRL per rupee: 1935.9375 rupees -> 1 936.
    expect(convertMinorToWhole(12_390, '0.064')).toBe(1_936);
    // Exact results are not rounded further: R$ 0,57 at 0.057 is exactly 10.
    expect(convertMinorToWhole(57, '0.057')).toBe(10);
    // A dearer currency: R$ 10,00 at 5.25 BRL per unit is 1.90..., shown as 2.
    expect(convertMinorToWhole(1_000, '5.25')).toBe(2);
    expect(convertMinorToWhole(0, '0.057')).toBe(0);
    expect(convertMinorToWhole(1, '0.057')).toBe(1);
  });

  it('stays exact where floating point would not', () => {
    // R$ 257,60 at 0.064 is exactly 4 025 rupees; in floating point it is 4025.0000000000005, which
    // rounding up would show as 4 026.
    expect(convertMinorToWhole(25_760, '0.064')).toBe(4_025);
    expect(Math.ceil(25_760 / 100 / 0.064)).toBe(4_026);
    expect(convertMinorToWhole(1_617, '0.033')).toBe(490);
    // The largest price the store takes (7 digits of units) converts without losing a unit.
    expect(convertMinorToWhole(999_999_999, '0.000001')).toBe(9_999_999_990_000);
  });

  it('agrees with exact big-integer arithmetic over many prices and rates', () => {
    let seed = 20_261_124;
    const next = (bound: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % bound;
    };
    for (let i = 0; i < 20_000; i++) {
      const minor = next(100_000_000);
      const micros = 1 + next(20_000_000);
      const rate = (micros / 1e6).toFixed(6);
      const exact = (BigInt(minor) * 10_000n + BigInt(micros) - 1n) / BigInt(micros);
      expect(convertMinorToWhole(minor, rate), `${minor} at ${rate}`).toBe(Number(exact));
    }
  });

  it('answers undefined for a bad rate or amount, so the caller shows the BRL price', () => {
    expect(convertMinorToWhole(10_000, '0')).toBeUndefined();
    expect(convertMinorToWhole(10_000, 'abc')).toBeUndefined();
    expect(convertMinorToWhole(-1, '0.057')).toBeUndefined();
    expect(convertMinorToWhole(1.5, '0.057')).toBeUndefined();
    expect(convertMinorToWhole(Number.MAX_SAFE_INTEGER, '0.057')).toBeUndefined();
  });
});

describe('the language of a listing call', () => {
  it('names a currency for every interface language', () => {
    expect(Object.keys(DISPLAY_CURRENCY_BY_LOCALE).sort()).toEqual([...LOCALES].sort());
    expect(DISPLAY_CURRENCY_BY_LOCALE).toMatchObject({ 'pt-BR': 'BRL', en: 'BRL', ru: 'RUB', hi: 'INR' });
  });

  it('takes ?lang= on listings and searches, blank as unset, and refuses another language', () => {
    expect(ProductFilterQuerySchema.parse({ lang: 'ru' }).lang).toBe('ru');
    expect(ProductListQuerySchema.parse({ lang: '' }).lang).toBeUndefined();
    const refused = ProductListQuerySchema.safeParse({ lang: 'de' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ['lang'], message: ErrorKeys.unknownOption });
  });
});
