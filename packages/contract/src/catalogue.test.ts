import { describe, expect, it } from 'vitest';
import {
  ProductFilterQuerySchema,
  ProductIdParamsSchema,
  resolvePaging,
  SearchParamsSchema,
  SORT_MODES,
  USER_SORTS,
} from './catalogue.ts';
import { ErrorKeys, ErrorTexts, isErrorKey } from './errors.ts';
import { PAGE_SIZE, SEARCH_MAX } from './limits.ts';

const issues = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('ProductFilterQuerySchema', () => {
  it('parses a full filter and upper-cases code lists', () => {
    const parsed = ProductFilterQuerySchema.parse({
      sort: 'increase',
      minPrice: '10',
      maxPrice: '500',
      currency: 'usd, eur',
      country: 'br,US',
      page: '2',
    });
    expect(parsed).toEqual({
      sort: 'increase',
      minPrice: 10,
      maxPrice: 500,
      currency: ['USD', 'EUR'],
      country: ['BR', 'US'],
      page: 2,
    });
  });

  it('treats blank parameters as unset', () => {
    expect(ProductFilterQuerySchema.parse({ minPrice: '', sort: ' ', currency: '' })).toEqual({});
  });

  it.each([
    [{ minPrice: 'abc' }, 'minPrice', ErrorKeys.notANumber],
    [{ maxPrice: '-5' }, 'maxPrice', ErrorKeys.notANumber],
    [{ maxPrice: '1234567' }, 'maxPrice', ErrorKeys.notANumber],
    [{ minPrice: '1.5' }, 'minPrice', ErrorKeys.notANumber],
    [{ sort: 'cheapest' }, 'sort', ErrorKeys.unknownOption],
    [{ page: '0' }, 'page', ErrorKeys.tooSmall],
    [{ page: '-1' }, 'page', ErrorKeys.notANumber],
    [{ page: '999999999' }, 'page', ErrorKeys.tooLarge],
    [{ limit: '61' }, 'limit', ErrorKeys.tooLarge],
    [{ currency: 'US-D' }, 'currency.0', ErrorKeys.invalidValue],
    [{ country: 'x'.repeat(600) }, 'country', ErrorKeys.tooLong],
    [{ minPrice: '500', maxPrice: '100' }, 'minPrice', ErrorKeys.minAboveMax],
  ])('rejects %o on %s with %s', (input, field, key) => {
    const result = ProductFilterQuerySchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(issues(result)[field]).toBe(key);
  });

  it('knows the seven sort modes and maps the five user-facing ones onto them', () => {
    expect(SORT_MODES).toHaveLength(7);
    for (const mode of Object.values(USER_SORTS)) expect(SORT_MODES).toContain(mode);
  });
});

describe('params', () => {
  it('accepts a positive product id and rejects anything else', () => {
    expect(ProductIdParamsSchema.parse({ id: '42' })).toEqual({ id: 42 });
    for (const id of ['0', 'abc', '1e3', '-1', '99999999999']) {
      expect(ProductIdParamsSchema.safeParse({ id }).success).toBe(false);
    }
  });

  it('trims search text and limits it to the search box length', () => {
    expect(SearchParamsSchema.parse({ query: '  steam ' })).toEqual({ query: 'steam' });
    expect(SearchParamsSchema.safeParse({ query: '   ' }).success).toBe(false);
    expect(SearchParamsSchema.safeParse({ query: 'a'.repeat(SEARCH_MAX) }).success).toBe(true);
    expect(SearchParamsSchema.safeParse({ query: 'a'.repeat(SEARCH_MAX + 1) }).success).toBe(false);
  });

  it('refuses search text with a NUL or a lone surrogate', () => {
    for (const query of ['ste\u0000am', 'steam\ud800']) {
      const result = SearchParamsSchema.safeParse({ query });
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([ErrorKeys.invalidCharacters]);
    }
  });
});

describe('resolvePaging', () => {
  it('turns a page into an offset, and lets an explicit offset win', () => {
    expect(resolvePaging({})).toEqual({ offset: 0, limit: PAGE_SIZE });
    expect(resolvePaging({ page: 3, limit: 10 })).toEqual({ offset: 20, limit: 10 });
    expect(resolvePaging({ page: 3, offset: 5 })).toEqual({ offset: 5, limit: PAGE_SIZE });
  });
});

describe('error keys', () => {
  it('has a readable text for every key', () => {
    for (const key of Object.values(ErrorKeys)) {
      expect(isErrorKey(key)).toBe(true);
      expect(ErrorTexts[key].length).toBeGreaterThan(5);
    }
    expect(isErrorKey('not.a.key')).toBe(false);
  });
});
