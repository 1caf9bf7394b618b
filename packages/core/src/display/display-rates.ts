import {
  DISPLAY_CURRENCY_BY_LOCALE,
  DISPLAY_RATE_MAX_AGE_MS,
  type DisplayRate,
  STORE_CURRENCY,
  STORE_DISPLAY_RATE,
} from '@store/contract';
import { type Database, qb, type SqlClient } from '@store/db';
import { type Logger, silentLogger } from '../shared/logger.ts';

/**
 * The operator's display rates (README "Prices in the shopper's currency"): read once, kept in the
 * process, and read again when the table changes (its trigger notifies every instance) or at the
 * latest every minute. Answering a request's rate touches no database: listings are a hot path.
 */

/** The channel the display_rates table's trigger notifies (migration 20261128000000). */
export const DISPLAY_RATES_CHANNEL = 'display_rates_changed';

export interface DisplayRateRow {
  currency: string;
  /** BRL per unit, a plain decimal without trailing zeros ("0.057"). */
  rate: string;
  setAt: Date;
  setBy: string;
}

/** "0.057000" -> "0.057", "12.000000" -> "12": the rate as an operator writes it. */
export function plainDecimal(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

/** The rates' columns; the rate as text, numeric's exact digits ("0.057000"). */
const rateColumns = qb
  .selectFrom('display_rates')
  .select((eb) => [
    'currency',
    eb.cast<string>('brl_per_unit', 'text').as('rate'),
    'set_at as setAt',
    'set_by as setBy',
  ]);

/** Every rate in the table, by currency. */
export async function readDisplayRates(sql: SqlClient): Promise<DisplayRateRow[]> {
  const rows = await sql.query(rateColumns.orderBy('currency'));
  return rows.map((row) => ({ ...row, rate: plainDecimal(row.rate) }));
}

/** Whether a rate set at `setAt` is too old to show at `now`. */
export const isStale = (setAt: Date, now: Date) => now.getTime() - setAt.getTime() > DISPLAY_RATE_MAX_AGE_MS;

/**
 * The rate a shopper of `locale` sees prices at: the language's currency at the operator's rate,
 * or BRL (prices as they are) when the language shows BRL, the currency has no rate, or its rate is
 * older than 7 days.
 */
export function resolveDisplayRate(
  locale: string | undefined,
  rates: ReadonlyMap<string, DisplayRateRow>,
  now: Date,
): DisplayRate {
  const currency = DISPLAY_CURRENCY_BY_LOCALE[locale as keyof typeof DISPLAY_CURRENCY_BY_LOCALE] ?? STORE_CURRENCY;
  if (currency === STORE_CURRENCY) return STORE_DISPLAY_RATE;
  const row = rates.get(currency);
  if (!row || isStale(row.setAt, now)) return STORE_DISPLAY_RATE;
  return { currency, rate: row.rate, set_at: row.setAt.toISOString() };
}

export interface DisplayRatesDeps {
  sql: SqlClient;
  /** The change feed (Database.listen); without it the rates are read again every `refreshMs` only. */
  listen?: Database['listen'];
  clock?: () => Date;
  refreshMs?: number;
  logger?: Logger;
}

export interface DisplayRates {
  /** The rate of `locale`'s currency now; the same object until the rates or their freshness change. */
  forLocale(locale: string | undefined): DisplayRate;
  /** Called after the rates were read anew and differ, so caches of answers holding them drop those. */
  onChange(listener: () => void): () => void;
  /** Reads the table now (the change feed does this by itself). */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/** Loads the rates, then keeps them fresh; resolves once they were read the first time. */
export async function createDisplayRates({
  sql,
  listen,
  clock = () => new Date(),
  refreshMs = 60_000,
  logger = silentLogger,
}: DisplayRatesDeps): Promise<DisplayRates> {
  let rates = new Map<string, DisplayRateRow>();
  let fingerprint = '';
  /** Answers by currency, so that one rate is one object (answers holding it are cached by identity). */
  let answers = new Map<string, DisplayRate>();
  const listeners = new Set<() => void>();
  let closed = false;

  async function refresh() {
    const rows = await readDisplayRates(sql);
    const next = JSON.stringify(rows);
    if (next === fingerprint) return;
    fingerprint = next;
    rates = new Map(rows.map((row) => [row.currency, row]));
    answers = new Map();
    for (const listener of listeners) listener();
  }

  const refreshLogged = () => {
    if (closed) return;
    refresh().catch((error: unknown) => {
      logger.error({ err: error }, 'display rates not read; keeping the ones read before');
    });
  };

  await refresh();
  const timer = setInterval(refreshLogged, refreshMs);
  timer.unref();
  const unlisten = await listen?.(DISPLAY_RATES_CHANNEL, {
    onNotification: refreshLogged,
    onReconnect: refreshLogged,
  });

  return {
    forLocale(locale) {
      const resolved = resolveDisplayRate(locale, rates, clock());
      if (resolved === STORE_DISPLAY_RATE) return resolved;
      const known = answers.get(resolved.currency);
      if (known && known.rate === resolved.rate && known.set_at === resolved.set_at) return known;
      answers.set(resolved.currency, resolved);
      return resolved;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh,
    async close() {
      closed = true;
      clearInterval(timer);
      await unlisten?.();
    },
  };
}

export interface SetDisplayRateInput {
  currency: string;
  rate: string;
  setBy: string;
}

/** The operator's side: set, list and remove rates (the command line `rates`). */
export function createDisplayRateAdmin({ sql, clock = () => new Date() }: { sql: SqlClient; clock?: () => Date }) {
  return {
    list: () => readDisplayRates(sql),

    /** Sets a currency's rate from now on; answers the new row and the one it replaced, if any. */
    async set({ currency, rate, setBy }: SetDisplayRateInput) {
      return sql.transaction(async (tx) => {
        const [before] = await tx.query(rateColumns.where('currency', '=', currency).forUpdate());
        const setAt = clock();
        await tx.execute(
          qb
            .insertInto('display_rates')
            .values({ currency, brl_per_unit: rate, set_at: setAt, set_by: setBy })
            .onConflict((oc) =>
              oc.column('currency').doUpdateSet((eb) => ({
                brl_per_unit: eb.ref('excluded.brl_per_unit'),
                set_at: eb.ref('excluded.set_at'),
                set_by: eb.ref('excluded.set_by'),
              })),
            ),
        );
        const row: DisplayRateRow = { currency, rate: plainDecimal(rate), setAt, setBy };
        const previous: DisplayRateRow | null = before
          ? { currency, rate: plainDecimal(before.rate), setAt: before.setAt, setBy: before.setBy }
          : null;
        return { row, previous };
      });
    },

    /** Removes a currency's rate: its shoppers see BRL prices. False when it had none. */
    async remove(currency: string): Promise<boolean> {
      return (await sql.execute(qb.deleteFrom('display_rates').where('currency', '=', currency))) > 0;
    },
  };
}

export type DisplayRateAdmin = ReturnType<typeof createDisplayRateAdmin>;
