import type { Database } from '@store/db';
import { createStore, type Store } from '../store.ts';
import { silentLogger } from './logger.ts';

/**
 * What the operator commands (`pnpm --filter @store/core orders|payments|promo <command>`) share:
 * how a command line is read, how bad arguments are answered, and what a command is given to run.
 */

/** What every command is given to run; a command asking for more adds it to its own `...CliIo`. */
export interface CliIo {
  /** Opened only once the arguments are good. */
  openDatabase(): Promise<Database>;
  /** Where customers open the store (PUBLIC_URL, as the store reads it): the links in the emails a command writes. */
  publicUrl(): string;
  out(line: string): void;
  err(line: string): void;
}

/**
 * The store a command runs on, made by `createStore` like every other process's, over the command's
 * database. No queue runs in a command: what it writes (a refund's email, a payment event) is handed
 * on by the sweeps of the running store or worker. Closing the store's database ends the command.
 */
export async function openCommandStore(
  io: CliIo,
  options: { clock?: () => Date; codeKey?: string } = {},
): Promise<Store<null>> {
  const publicUrl = io.publicUrl();
  const database = await io.openDatabase();
  return createStore({ database, queue: null, logger: silentLogger, publicUrl, ...options });
}

export type ParsedCommand<Command> = { ok: true; command: Command } | { ok: false; errors: string[] };

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads the command line: no command or help asks for the usage; otherwise `parse` reads the
 * command's own arguments, every bad one with its own message.
 */
export function readCommandLine<Command>(
  argv: string[],
  parse: (command: string, args: string[]) => ParsedCommand<Command>,
): ParsedCommand<Command | { kind: 'help' }> {
  const [command, ...args] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    return { ok: true, command: { kind: 'help' } };
  }
  try {
    return parse(command, args);
  } catch (error) {
    // parseArgs refuses unknown options, options without their value and stray arguments.
    return { ok: false, errors: [`${command}: ${(error as Error).message}`] };
  }
}

/** Prints each bad argument and where the usage is; answers the exit code for bad arguments, 2. */
export function refuseArguments(io: Pick<CliIo, 'err'>, name: string, errors: string[]): 2 {
  for (const error of errors) io.err(`error: ${error}`);
  io.err(`Run 'pnpm --filter @store/core ${name} help' for the commands and their arguments.`);
  return 2;
}

/** An option's whole number within `range`, or undefined (with a message in `errors` when it is bad). */
export function wholeNumberOption(
  option: string,
  value: string | undefined,
  range: { min: number; max: number },
  errors: string[],
): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= range.min && number <= range.max)) {
    errors.push(`--${option}: '${value}' is not a whole number from ${range.min} to ${range.max}`);
    return undefined;
  }
  return number;
}
