import { describe, expect, it } from 'vitest';
import {
  chargeCurrencyOf,
  DEFAULT_CHARGE_CONFIG,
  parseCardCurrencies,
  toChargeMinor,
  toStoreMinor,
} from './charge-currency.ts';

describe('what each method is charged in', () => {
  it('is the rail’s currency for Pix, SBP and UPI, and BRL for the card paths unless configured', () => {
    const config = { ...DEFAULT_CHARGE_CONFIG, cardCurrencies: parseCardCurrencies('widget=rub, hosted_page=RUB') };
    expect(
      (['pix', 'sbp', 'upi', 'widget', 'hosted_page', 'card'] as const).map((rail) => chargeCurrencyOf(rail, config)),
    ).toEqual(['BRL', 'RUB', 'INR', 'RUB', 'RUB', 'BRL']);
    expect(parseCardCurrencies(undefined)).toEqual({ widget: 'BRL', hosted_page: 'BRL', card: 'BRL' });
    expect(() => parseCardCurrencies('sbp=BRL')).toThrow(/not a card path/);
    expect(() => parseCardCurrencies('widget=roubles')).toThrow(/not a card path/);
  });
});

describe('parts of a charge and of its BRL amount', () => {
  const payment = { amountMinor: 2_990, chargeMinor: 52_456 };

  it('map the whole to the whole exactly, and parts by the payment’s proportion, half up', () => {
    expect(toStoreMinor(52_456, payment)).toBe(2_990);
    expect(toChargeMinor(2_990, payment)).toBe(52_456);
    // 1 001 kopeks of 52 456 are 57.06 of 2 990 cents: 57.
    expect(toStoreMinor(1_001, payment)).toBe(57);
    // 1 000 cents are 17 543.8 kopeks: 17 544, which comes back as 1 000 cents.
    expect(toChargeMinor(1_000, payment)).toBe(17_544);
    expect(toStoreMinor(17_544, payment)).toBe(1_000);
    expect(toStoreMinor(0, payment)).toBe(0);
    // Never more than the whole.
    expect(toStoreMinor(60_000, payment)).toBe(2_990);
  });

  it('leave a payment charged in BRL as it is', () => {
    const brl = { amountMinor: 2_990, chargeMinor: 2_990 };
    expect([toStoreMinor(1_234, brl), toChargeMinor(1_234, brl)]).toEqual([1_234, 1_234]);
  });
});
