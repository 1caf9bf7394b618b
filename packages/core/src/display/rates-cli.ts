import { parseArgs } from 'node:util';
import { DISPLAY_CURRENCY_BY_LOCALE, rateMicros, STORE_CURRENCY } from '@store/contract';
import { type CliIo, openCommandStore, type ParsedCommand, readCommandLine, refuseArguments } from '../shared/cli.ts';
import { textTable } from '../shared/text-table.ts';
import { type DisplayRateRow, isStale } from './display-rates.ts';

/**
 * The operator's command line for display rates: `pnpm --filter @store/core rates set|list|remove`.
 * A rate only changes how prices are shown; what is charged stays in BRL.
 */

export const RATES_USAGE = `Usage: pnpm --filter @store/core rates <command>

  set CURRENCY RATE [--by NAME]
      Shows prices in CURRENCY (ISO 4217, e.g. RUB, INR) at RATE, in BRL per one unit of it: a
      decimal with a point and at most 6 digits after it (RUB 0.057 means 1 RUB = 0.057 BRL, so
      1 BRL is about 17.54 RUB). Running API instances use it within seconds. NAME (default: the
      system user) is recorded as who set it.
  list
      Every rate, when and by whom it was set, and whether shoppers see it: a rate older than 7
      days is not shown and prices fall back to BRL until it is set again.
  remove CURRENCY
      Stops converting to CURRENCY: its shoppers see BRL prices.

Languages show: ${Object.entries(DISPLAY_CURRENCY_BY_LOCALE)
  .map(([locale, currency]) => `${locale} ${currency}`)
  .join(', ')}. Orders, the balance and payments are always in ${STORE_CURRENCY}.

The database is DATABASE_URL, or the embedded one in DATA_DIR (stop the store first: embedded
PostgreSQL takes one process at a time).`;

export type RatesCommand =
  | { kind: 'help' }
  | { kind: 'set'; currency: string; rate: string; setBy?: string }
  | { kind: 'list' }
  | { kind: 'remove'; currency: string };

const CURRENCY = /^[A-Z]{3}$/;

function readCurrency(value: string, errors: string[]): string | undefined {
  const currency = value.trim().toUpperCase();
  if (!CURRENCY.test(currency)) {
    errors.push(`'${value}' is not a currency code (three letters, ISO 4217: RUB, INR)`);
    return undefined;
  }
  if (currency === STORE_CURRENCY) {
    errors.push(`${STORE_CURRENCY} is the store's own currency: its prices are shown as they are`);
    return undefined;
  }
  return currency;
}

/** Reads the command line; every bad argument gets its own message. */
export function parseRatesCommand(argv: string[]): ParsedCommand<RatesCommand> {
  return readCommandLine(argv, (command, args): ParsedCommand<RatesCommand> => {
    switch (command) {
      case 'set': {
        const { values, positionals } = parseArgs({
          args,
          strict: true,
          allowPositionals: true,
          options: { by: { type: 'string' } },
        });
        if (positionals.length !== 2) return { ok: false, errors: ['set: give a currency and a rate: set RUB 0.057'] };
        const errors: string[] = [];
        const currency = readCurrency(positionals[0] as string, errors);
        const rate = (positionals[1] as string).trim();
        if (rateMicros(rate) === undefined) {
          errors.push(
            `'${positionals[1]}' is not a rate: BRL per unit above zero, digits with a point and at most 6 after it (0.057)`,
          );
        }
        const setBy = values.by?.trim();
        if (values.by !== undefined && (!setBy || setBy.length > 64)) errors.push('--by: 1 to 64 characters');
        if (errors.length > 0 || currency === undefined) return { ok: false, errors };
        return { ok: true, command: { kind: 'set', currency, rate, setBy } };
      }
      case 'list':
        parseArgs({ args, strict: true, options: {} });
        return { ok: true, command: { kind: 'list' } };
      case 'remove': {
        const { positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: {} });
        if (positionals.length !== 1) return { ok: false, errors: ['remove: give exactly one currency'] };
        const errors: string[] = [];
        const currency = readCurrency(positionals[0] as string, errors);
        if (currency === undefined) return { ok: false, errors };
        return { ok: true, command: { kind: 'remove', currency } };
      }
      default:
        return { ok: false, errors: [`'${command}' is not a command: use set, list or remove`] };
    }
  });
}

/** How many units of the currency one BRL buys, to two decimals: what an operator checks a rate by. */
export function unitsPerBrl(rate: string): string {
  const micros = rateMicros(rate) ?? 1;
  return (1_000_000 / micros).toFixed(2);
}

const describe = (row: DisplayRateRow) =>
  `${row.currency} ${row.rate} BRL per unit (1 BRL = ${unitsPerBrl(row.rate)} ${row.currency}), set ${row.setAt.toISOString()} by ${row.setBy}`;

export interface RatesCliIo extends CliIo {
  clock?: () => Date;
  /** Who runs the command, recorded as who set a rate unless --by says otherwise. */
  operator: string;
}

/** Runs one command; answers the exit code: 0 done, 1 refused by the data, 2 bad arguments. */
export async function runRatesCli(argv: string[], io: RatesCliIo): Promise<number> {
  const clock = io.clock ?? (() => new Date());
  const parsed = parseRatesCommand(argv);
  if (!parsed.ok) return refuseArguments(io, 'rates', parsed.errors);
  const { command } = parsed;
  if (command.kind === 'help') {
    io.out(RATES_USAGE);
    return 0;
  }
  const { displayRateAdmin: admin, database } = await openCommandStore(io, { clock });
  try {
    switch (command.kind) {
      case 'set': {
        const { row, previous } = await admin.set({
          currency: command.currency,
          rate: command.rate,
          setBy: command.setBy ?? io.operator,
        });
        io.out(`set ${describe(row)}`);
        if (previous) io.out(`was ${describe(previous)}`);
        return 0;
      }
      case 'list': {
        const rows = await admin.list();
        if (rows.length === 0) {
          io.out(`no display rates: every language shows ${STORE_CURRENCY} prices`);
          return 0;
        }
        const now = clock();
        const table = textTable(
          ['CURRENCY', 'BRL PER UNIT', 'PER BRL', 'SET AT', 'SET BY', 'SHOWN'],
          rows.map((row) => [
            row.currency,
            row.rate,
            unitsPerBrl(row.rate),
            row.setAt.toISOString(),
            row.setBy,
            isStale(row.setAt, now) ? `no: older than 7 days, ${STORE_CURRENCY} shown` : 'yes',
          ]),
        );
        for (const line of table) io.out(line);
        return 0;
      }
      case 'remove': {
        if (await admin.remove(command.currency)) {
          io.out(`removed the ${command.currency} rate: its shoppers see ${STORE_CURRENCY} prices`);
          return 0;
        }
        io.err(`error: there is no ${command.currency} rate`);
        return 1;
      }
    }
  } finally {
    await database.close();
  }
}
