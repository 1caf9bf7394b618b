import { describe, expect, it } from 'vitest';
import { ErrorKeys } from './errors.ts';
import { TOPUP_MIN } from './limits.ts';
import {
  CreateOrderBodySchema,
  PaymentStatusBodySchema,
  PurchasedSearchQuerySchema,
  TOPUP_MAX,
  TopUpAmountSchema,
} from './orders.ts';

const issues = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('TopUpAmountSchema', () => {
  it('takes whole units as a number or as the digits an input gives', () => {
    expect(TopUpAmountSchema.parse(100)).toBe(100);
    expect(TopUpAmountSchema.parse(' 2500 ')).toBe(2_500);
    expect(TopUpAmountSchema.parse('9999999')).toBe(9_999_999);
    expect(TOPUP_MAX).toBe(9_999_999);
  });

  it.each([
    [TOPUP_MIN - 1, ErrorKeys.tooSmall],
    ['99', ErrorKeys.tooSmall],
    [10_000_000, ErrorKeys.tooLarge],
    ['10000000', ErrorKeys.tooLarge],
    [150.5, ErrorKeys.notANumber],
    ['150.50', ErrorKeys.notANumber],
    ['1e3', ErrorKeys.notANumber],
    ['-100', ErrorKeys.notANumber],
    [true, ErrorKeys.notANumber],
  ])('refuses %j with %s', (value, key) => {
    const result = TopUpAmountSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(Object.values(issues(result))).toContain(key);
  });
});

describe('CreateOrderBodySchema', () => {
  it('reads a purchase with a code, upper-cased, and a top-up', () => {
    expect(CreateOrderBodySchema.parse({ type: 'purchase', code: ' summer10 ' })).toEqual({
      type: 'purchase',
      code: 'SUMMER10',
    });
    expect(CreateOrderBodySchema.parse({ type: 'balance', replenishmentValue: '500' })).toEqual({
      type: 'balance',
      replenishmentValue: 500,
    });
  });

  it('takes a blank or null code and amount as none', () => {
    expect(CreateOrderBodySchema.parse({ type: 'spending', code: '', replenishmentValue: null })).toEqual({
      type: 'spending',
    });
    expect(CreateOrderBodySchema.parse({ type: 'purchase', code: null })).toEqual({ type: 'purchase' });
  });

  it('names the field of each mistake', () => {
    expect(issues(CreateOrderBodySchema.safeParse({ type: 'gift', code: 'x', replenishmentValue: 5 }))).toEqual({
      type: ErrorKeys.unknownOption,
      code: ErrorKeys.tooShort,
      replenishmentValue: ErrorKeys.tooSmall,
    });
  });
});

describe('the order id of a status poll', () => {
  it('must be a UUID', () => {
    expect(PaymentStatusBodySchema.safeParse({ orderId: '12' }).success).toBe(false);
    expect(PaymentStatusBodySchema.parse({ orderId: '0F3C2A1B-7D6E-4F5A-9B8C-1D2E3F4A5B6C', token: 't' })).toEqual({
      orderId: '0F3C2A1B-7D6E-4F5A-9B8C-1D2E3F4A5B6C',
    });
  });
});

describe('PurchasedSearchQuerySchema', () => {
  it('reads the page and the search text, blank as unset', () => {
    expect(PurchasedSearchQuerySchema.parse({ page: '3', search_string: ' steam ' })).toEqual({
      page: 3,
      search_string: 'steam',
    });
    expect(PurchasedSearchQuerySchema.parse({ page: '', search_string: '' })).toEqual({});
    expect(issues(PurchasedSearchQuerySchema.safeParse({ page: '0', search_string: 'x'.repeat(69) }))).toEqual({
      page: ErrorKeys.tooSmall,
      search_string: ErrorKeys.tooLong,
    });
  });
});
