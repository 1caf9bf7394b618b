import { describe, expect, it } from 'vitest';
import { AdminProductQuerySchema, ProductCreateBodySchema, ProductUpdateBodySchema } from './admin-catalogue.ts';

const issues = (result: { error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('the console product schemas', () => {
  it('fills what a new product may leave out and normalises codes', () => {
    const parsed = ProductCreateBodySchema.parse({
      name: ' Steam 10 USD ',
      price_minor: 5500,
      category: 'steam',
      country: 'us',
      nominal_minor: 1000,
      nominal_currency: 'usd',
    });
    expect(parsed).toMatchObject({
      name: 'Steam 10 USD',
      country: 'US',
      nominal_currency: 'USD',
      old_price_minor: null,
      cover_path: null,
      is_active: true,
      low_stock_threshold: 5,
      descriptions: {},
    });
  });

  it('names every bad field with its key', () => {
    const result = ProductCreateBodySchema.safeParse({
      name: '',
      price_minor: 100,
      old_price_minor: 100,
      category: 'Not A Slug',
      country: 'u-s',
      nominal_minor: 0,
      nominal_currency: 'USD',
      cover_path: 'javascript:alert(1)',
      descriptions: { ru: 5 },
      low_stock_threshold: 1.5,
    });
    expect(issues(result)).toEqual({
      name: 'validation.requiredField',
      category: 'validation.invalidValue',
      country: 'validation.invalidValue',
      nominal_minor: 'validation.tooSmall',
      cover_path: 'validation.invalidValue',
      'descriptions.ru': 'validation.invalidValue',
      low_stock_threshold: 'validation.notANumber',
    });
    // The old price is checked once the fields themselves are right.
    const discounted = ProductCreateBodySchema.safeParse({
      name: 'X',
      price_minor: 100,
      old_price_minor: 100,
      category: 'steam',
      country: 'US',
      nominal_minor: 1,
      nominal_currency: 'USD',
    });
    expect(issues(discounted)).toEqual({ old_price_minor: 'validation.tooSmall' });
  });

  it('takes a change of one field, and a blank query value as absent', () => {
    expect(ProductUpdateBodySchema.parse({ price_minor: 5 })).toEqual({ price_minor: 5 });
    expect(AdminProductQuerySchema.parse({ q: ' ', active: 'false', page: '2' })).toEqual({
      q: undefined,
      category: undefined,
      active: 'false',
      page: 2,
      page_size: undefined,
    });
  });
});
