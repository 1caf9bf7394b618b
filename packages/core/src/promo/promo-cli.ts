import { parseArgs } from 'node:util';
import { PromoCodeSchema } from '@store/contract';
import {
  type CliIo,
  openCommandStore,
  type ParsedCommand,
  readCommandLine,
  refuseArguments,
  wholeNumberOption,
} from '../shared/cli.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { textTable } from '../shared/text-table.ts';
import type { NewPromoCode, PromoCodeView } from './promo-service.ts';

/**
 * The operator's command line for promo codes (there is no admin screen yet):
 * `pnpm --filter @store/core promo create|list|deactivate ...`. Arguments are checked first, each
 * with its own message, before the database is opened.
 */

export const PROMO_USAGE = `Usage: pnpm --filter @store/core promo <command>

  create --code CODE --percent N [--from DATE] [--until DATE] [--max-uses N]
         [--categories slug,slug] [--products id,id]
      A code of 3 to 32 letters, digits, _ or - (stored upper-cased), N percent (1 to 100) off
      the lines in scope: the products of the categories and the products listed, or the whole
      basket without either. DATE is an ISO 8601 date (2026-12-31, midnight UTC) or date and time
      with its offset (2026-12-31T23:59:59-03:00). Without --max-uses, uses are unlimited; each
      customer can use a code once.
  list
      Every code with what a customer trying it now would meet.
  deactivate CODE
      Stops the code from being used from now on.

The database is DATABASE_URL, or the embedded one in DATA_DIR (stop the store first: embedded
PostgreSQL takes one process at a time).`;

export type PromoCommand =
  | { kind: 'help' }
  | { kind: 'create'; input: NewPromoCode }
  | { kind: 'list' }
  | { kind: 'deactivate'; code: string };

export type ParsedPromoCommand = ParsedCommand<PromoCommand>;

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const MAX_INT = 2_147_483_647;

function parseDate(option: string, value: string | undefined, errors: string[]): Date | undefined {
  if (value === undefined) return undefined;
  const day = ISO_DATE.exec(value)?.[1];
  const date = new Date(value);
  // Date would roll a day the calendar lacks (2026-02-30) over into the next month.
  const onCalendar = day !== undefined && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day);
  if (!onCalendar || Number.isNaN(date.getTime())) {
    errors.push(
      `--${option}: '${value}' is not an ISO 8601 date (2026-12-31) or date and time with its offset (2026-12-31T23:59:59Z)`,
    );
    return undefined;
  }
  return date;
}

function parseList(option: string, value: string | undefined, item: RegExp, what: string, errors: string[]) {
  if (value === undefined) return undefined;
  const items = value.split(',').map((entry) => entry.trim());
  const bad = items.filter((entry) => !item.test(entry));
  if (bad.length > 0) {
    errors.push(
      `--${option}: ${bad.map((entry) => `'${entry}'`).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not ${what}`,
    );
    return undefined;
  }
  return items;
}

function parseCreate(args: string[], now: Date): ParsedPromoCommand {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      code: { type: 'string' },
      percent: { type: 'string' },
      from: { type: 'string' },
      until: { type: 'string' },
      'max-uses': { type: 'string' },
      categories: { type: 'string' },
      products: { type: 'string' },
    },
  });
  const errors: string[] = [];
  let code: string | undefined;
  if (values.code === undefined) errors.push('--code: required');
  else {
    const parsed = PromoCodeSchema.safeParse(values.code);
    if (parsed.success) code = parsed.data;
    else errors.push(`--code: '${values.code}' is not 3 to 32 letters, digits, _ or -`);
  }
  if (values.percent === undefined) errors.push('--percent: required');
  const percent = wholeNumberOption('percent', values.percent, { min: 1, max: 100 }, errors);
  const validFrom = parseDate('from', values.from, errors);
  const validUntil = parseDate('until', values.until, errors);
  if (validFrom && validUntil && validUntil <= validFrom) errors.push('--until: must be later than --from');
  if (validUntil && validUntil <= now) errors.push('--until: is in the past, so the code could never be used');
  const maxUses = wholeNumberOption('max-uses', values['max-uses'], { min: 1, max: MAX_INT }, errors);
  const categories = parseList('categories', values.categories, /^[a-z0-9-]{1,64}$/, 'a category slug', errors);
  const products = parseList('products', values.products, /^[1-9]\d{0,9}$/, 'a product id', errors);
  const productIds = products?.map(Number);
  if (productIds?.some((id) => id > MAX_INT)) errors.push(`--products: ids go up to ${MAX_INT}`);

  if (errors.length > 0 || code === undefined || percent === undefined) return { ok: false, errors };
  return {
    ok: true,
    command: { kind: 'create', input: { code, percent, validFrom, validUntil, maxUses, categories, productIds } },
  };
}

/** Reads the command line; every bad argument gets its own message. */
export function parsePromoCommand(argv: string[], now: Date = new Date()): ParsedPromoCommand {
  return readCommandLine(argv, (command, args): ParsedPromoCommand => {
    switch (command) {
      case 'create':
        return parseCreate(args, now);
      case 'list':
        parseArgs({ args, strict: true, options: {} });
        return { ok: true, command: { kind: 'list' } };
      case 'deactivate': {
        const { positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: {} });
        if (positionals.length !== 1) return { ok: false, errors: ['deactivate: give exactly one code'] };
        return { ok: true, command: { kind: 'deactivate', code: positionals[0] as string } };
      }
      default:
        return { ok: false, errors: [`'${command}' is not a command: use create, list or deactivate`] };
    }
  });
}

const formatDate = (date: Date | null) => (date ? date.toISOString() : '-');

function describeScope(view: PromoCodeView): string {
  const parts = [
    ...(view.categories.length ? [`categories ${view.categories.join(',')}`] : []),
    ...(view.productIds.length ? [`products ${view.productIds.join(',')}`] : []),
  ];
  return parts.length ? parts.join('; ') : 'whole basket';
}

function summary(view: PromoCodeView): string {
  const uses =
    view.maxUses === null ? `${view.usedCount} used, unlimited` : `${view.usedCount} of ${view.maxUses} used`;
  return `${view.code}: ${view.percent}% off ${describeScope(view)}, from ${formatDate(view.validFrom)} until ${formatDate(view.validUntil)}, ${uses}, ${view.status}`;
}

/** The codes as an aligned table, one line a code. */
export function formatPromoTable(views: PromoCodeView[]): string[] {
  const header = ['CODE', 'OFF', 'STATUS', 'USES', 'FROM', 'UNTIL', 'SCOPE'];
  const rows = views.map((view) => [
    view.code,
    `${view.percent}%`,
    view.status,
    `${view.usedCount}/${view.maxUses ?? '∞'}`,
    formatDate(view.validFrom),
    formatDate(view.validUntil),
    describeScope(view),
  ]);
  return textTable(header, rows);
}

export interface PromoCliIo extends CliIo {
  clock?: () => Date;
}

/** Runs one command; answers the exit code: 0 done, 1 refused by the data, 2 bad arguments. */
export async function runPromoCli(argv: string[], io: PromoCliIo): Promise<number> {
  const clock = io.clock ?? (() => new Date());
  const parsed = parsePromoCommand(argv, clock());
  if (!parsed.ok) return refuseArguments(io, 'promo', parsed.errors);
  const { command } = parsed;
  if (command.kind === 'help') {
    io.out(PROMO_USAGE);
    return 0;
  }

  const { promo, database } = await openCommandStore(io, { clock });
  try {
    switch (command.kind) {
      case 'create':
        io.out(`created ${summary(await promo.createPromoCode(command.input))}`);
        break;
      case 'list': {
        const codes = await promo.listPromoCodes();
        if (codes.length === 0) io.out('no promo codes yet');
        else for (const line of formatPromoTable(codes)) io.out(line);
        break;
      }
      case 'deactivate': {
        const view = await promo.deactivatePromoCode(command.code);
        io.out(`deactivated ${summary(view)}`);
        break;
      }
    }
    return 0;
  } catch (error) {
    if (error instanceof ValidationError) io.err(`error: ${error.message}`);
    else if (error instanceof NotFoundError && command.kind === 'deactivate') {
      io.err(`error: there is no promo code ${command.code.trim().toUpperCase()}`);
    } else throw error;
    return 1;
  } finally {
    await database.close();
  }
}
