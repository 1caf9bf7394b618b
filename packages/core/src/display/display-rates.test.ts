import { DISPLAY_RATE_MAX_AGE_MS, STORE_DISPLAY_RATE } from '@store/contract';
import { qb } from '@store/db';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createDisplayRateAdmin,
  createDisplayRates,
  type DisplayRateRow,
  plainDecimal,
  resolveDisplayRate,
} from './display-rates.ts';

const NOW = new Date('2026-11-24T12:00:00Z');
const row = (currency: string, rate: string, setAt: Date): DisplayRateRow => ({ currency, rate, setAt, setBy: 'ops' });

describe('resolveDisplayRate', () => {
  const rates = new Map([
    ['RUB', row('RUB', '0.057', new Date(NOW.getTime() - 3_600_000))],
    ['INR', row('INR', '0.064', new Date(NOW.getTime() - DISPLAY_RATE_MAX_AGE_MS - 1))],
  ]);

  it("shows the language's currency at the operator's rate", () => {
    expect(resolveDisplayRate('ru', rates, NOW)).toEqual({
      currency: 'RUB',
      rate: '0.057',
      set_at: '2026-11-24T11:00:00.000Z',
    });
  });

  it('keeps BRL for Portuguese, English, no language and an unknown one', () => {
    for (const locale of ['pt-BR', 'en', undefined, 'de']) {
      expect(resolveDisplayRate(locale, rates, NOW)).toBe(STORE_DISPLAY_RATE);
    }
  });

  it('falls back to BRL for a rate older than 7 days, and for a currency without one', () => {
    expect(resolveDisplayRate('hi', rates, NOW)).toBe(STORE_DISPLAY_RATE);
    expect(resolveDisplayRate('ru', new Map(), NOW)).toBe(STORE_DISPLAY_RATE);
    // Exactly 7 days old is still shown; a millisecond later it is not.
    const edge = new Map([['INR', row('INR', '0.064', new Date(NOW.getTime() - DISPLAY_RATE_MAX_AGE_MS))]]);
    expect(resolveDisplayRate('hi', edge, NOW).currency).toBe('INR');
    expect(resolveDisplayRate('hi', edge, new Date(NOW.getTime() + 1))).toBe(STORE_DISPLAY_RATE);
  });
});

describe('plainDecimal', () => {
  it('writes a numeric column as the operator wrote the rate', () => {
    expect(plainDecimal('0.057000')).toBe('0.057');
    expect(plainDecimal('12.000000')).toBe('12');
    expect(plainDecimal('10')).toBe('10');
  });
});

describe('the rates kept in the process', () => {
  let database: TestDatabase;
  let now = NOW;
  const clock = () => now;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.cleanup();
  });
  beforeEach(async () => {
    now = NOW;
    await database.prisma.displayRate.deleteMany();
  });

  it('reads the table at start and answers without touching it again', async () => {
    const admin = createDisplayRateAdmin({ sql: database.sql, clock });
    await admin.set({ currency: 'RUB', rate: '0.057', setBy: 'ops' });
    const rates = await createDisplayRates({ sql: database.sql, clock });
    try {
      const query = vi.spyOn(database.sql, 'query');
      const first = rates.forLocale('ru');
      expect(first).toEqual({ currency: 'RUB', rate: '0.057', set_at: NOW.toISOString() });
      // The same object while nothing changed: answers holding it are cached by identity.
      expect(rates.forLocale('ru')).toBe(first);
      expect(rates.forLocale('hi')).toBe(STORE_DISPLAY_RATE);
      expect(query).not.toHaveBeenCalled();
      query.mockRestore();
      // Eight days on, the same rate is stale and BRL is shown.
      now = new Date(NOW.getTime() + 8 * 24 * 3_600_000);
      expect(rates.forLocale('ru')).toBe(STORE_DISPLAY_RATE);
    } finally {
      await rates.close();
    }
  });

  it('follows a rate set elsewhere through the change feed, and tells its listeners', async () => {
    const rates = await createDisplayRates({ sql: database.sql, listen: database.listen, clock });
    const changed = vi.fn();
    rates.onChange(changed);
    try {
      expect(rates.forLocale('hi')).toBe(STORE_DISPLAY_RATE);
      await createDisplayRateAdmin({ sql: database.sql, clock }).set({
        currency: 'INR',
        rate: '0.064',
        setBy: 'ops',
      });
      await vi.waitFor(() => expect(rates.forLocale('hi')).toMatchObject({ currency: 'INR', rate: '0.064' }), {
        timeout: 5_000,
      });
      expect(changed).toHaveBeenCalled();
      await createDisplayRateAdmin({ sql: database.sql }).remove('INR');
      await vi.waitFor(() => expect(rates.forLocale('hi')).toBe(STORE_DISPLAY_RATE), { timeout: 5_000 });
    } finally {
      await rates.close();
    }
  });

  it('reads the table again every refresh period without a change feed', async () => {
    const rates = await createDisplayRates({ sql: database.sql, clock, refreshMs: 50 });
    try {
      await createDisplayRateAdmin({ sql: database.sql, clock }).set({ currency: 'RUB', rate: '0.06', setBy: 'x' });
      await vi.waitFor(() => expect(rates.forLocale('ru')).toMatchObject({ rate: '0.06' }), { timeout: 5_000 });
    } finally {
      await rates.close();
    }
  });

  it('keeps the rates it has when a read fails', async () => {
    await createDisplayRateAdmin({ sql: database.sql, clock }).set({ currency: 'RUB', rate: '0.057', setBy: 'x' });
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn() };
    const rates = await createDisplayRates({ sql: database.sql, clock, refreshMs: 20, logger });
    const query = vi.spyOn(database.sql, 'query').mockRejectedValue(new Error('database down'));
    try {
      await vi.waitFor(() => expect(logger.error).toHaveBeenCalled(), { timeout: 5_000 });
      expect(rates.forLocale('ru')).toMatchObject({ currency: 'RUB', rate: '0.057' });
    } finally {
      query.mockRestore();
      await rates.close();
    }
  });

  it('refuses BRL, a code that is not one and a rate of zero in the table itself', async () => {
    const insert = (currency: string, rate: string) =>
      database.sql.execute(qb.insertInto('display_rates').values({ currency, brl_per_unit: rate, set_by: 'x' }));
    await expect(insert('BRL', '1')).rejects.toThrow(/display_rates_currency_check/);
    await expect(insert('rub', '0.05')).rejects.toThrow(/display_rates_currency_check/);
    await expect(insert('RUB', '0')).rejects.toThrow(/display_rates_brl_per_unit_check/);
  });
});
