import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ORDER_STATUSES } from '@store/contract';
import { type CodeCipher, int8ToNumber, type OrderStatus } from '@store/db';
import { cliActor } from '../admin/audit-log.ts';
import { createCodeStock } from '../admin/code-stock.ts';
import type { AccountTotal, LedgerProblem } from '../ledger/ledger-service.ts';
import {
  type CliIo,
  openCommandStore,
  type ParsedCommand,
  readCommandLine,
  refuseArguments,
  UUID,
  wholeNumberOption,
} from '../shared/cli.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { textTable } from '../shared/text-table.ts';
import type { Store } from '../store.ts';
import { orderHistory } from './order-events.ts';
import type { RefundDestination } from './order-operations.ts';

/**
 * The operator's command line for stock, orders and balances, over the services the console calls
 * (docs/console.md): `pnpm --filter @store/core orders <command>`. Arguments are checked first, each with its own
 * message, before the database is opened.
 */

export const ORDERS_USAGE = `Usage: pnpm --filter @store/core orders <command>

  import-codes --product ID --file PATH
      Adds the codes in the file (one a line; spaces around a code are trimmed, blank lines
      skipped) to the product's stock, encrypted. A code that appears earlier in the file or is in
      the store already (for any product; case does not matter) is refused. The codes added are one
      batch, labelled with the file's name, as an import in the console; the import is audited.
      Prints how many were added and refused, and the batch. Production needs CODE_ENCRYPTION_KEY.
  list [--status STATUS] [--limit N]
      Orders, newest first, all of them or those in one status:
      ${ORDER_STATUSES.join(', ')}.
  show ORDER_ID
      The order, its customer and amounts, and its history, oldest first: every change of status
      and who made it (the customer, the store, the provider, an operator), each payment's news,
      the codes delivered, refunds asked of the provider and their answers, reversals.
  refund ORDER_ID [--to balance|card] [--amount AMOUNT] [--reason WORD] [--by NAME]
      Gives part (AMOUNT, in BRL: 12.50) or all of what is left of a paid order back. The codes
      already delivered stay with the customer.
      --to balance (the default): onto the customer's balance at once; the order ends partially
      refunded or refunded, and the customer gets an email (written to the outbox, sent by the
      running store or worker within a minute; its link is PUBLIC_URL's).
      --to card: to the card or account the order was paid with, asked of the payment provider;
      the running store or worker sends it within a minute, and the order follows once the
      provider has given the money back. A top-up goes back to its card only as far as it is still
      on the balance.
      WORD (default operator) names the refund: lower-case letters, digits and -; the same WORD
      again on the same order is refused, so a refund is never made twice. NAME (default: who runs
      the command) is recorded as who asked.
  receivables [--limit N]
      Customers who owe the store (a top-up or a refund given back by the provider after the
      balance was spent), largest debt first: they cannot spend from the balance until a top-up
      pays it.
  ledger EMAIL|USER_ID [--limit N]
      The customer's balance, what they owe, and their ledger entries (both accounts), newest first.
  verify-balances
      Proves the books: every customer's balance and debt equal the sums of their ledger entries,
      every transfer has two legs that sum to zero, and the whole ledger sums to zero. Prints each
      account's total; exits with 1 when anything is wrong, listing it.

The database is DATABASE_URL, or the embedded one in DATA_DIR (stop the store first: embedded
PostgreSQL takes one process at a time).`;

export type OrdersCommand =
  | { kind: 'help' }
  | { kind: 'import-codes'; productId: number; file: string }
  | { kind: 'list'; status?: OrderStatus; limit: number }
  | { kind: 'show'; orderId: string }
  | {
      kind: 'refund';
      orderId: string;
      reason: string;
      to: RefundDestination;
      amountMinor?: number;
      by?: string;
    }
  | { kind: 'receivables'; limit: number }
  | { kind: 'ledger'; customer: string; limit: number }
  | { kind: 'verify-balances' };

export type ParsedOrdersCommand = ParsedCommand<OrdersCommand>;

function wholeNumber(option: string, value: string | undefined, max: number, errors: string[]): number | undefined {
  return wholeNumberOption(option, value, { min: 1, max }, errors);
}

function parse(command: string, args: string[]): ParsedOrdersCommand {
  const errors: string[] = [];
  switch (command) {
    case 'import-codes': {
      const { values } = parseArgs({
        args,
        strict: true,
        options: { product: { type: 'string' }, file: { type: 'string' } },
      });
      if (values.product === undefined) errors.push('--product: required');
      if (values.file === undefined) errors.push('--file: required');
      const productId = wholeNumber('product', values.product, 2_147_483_647, errors);
      if (errors.length > 0 || productId === undefined || !values.file) return { ok: false, errors };
      return { ok: true, command: { kind: 'import-codes', productId, file: values.file } };
    }
    case 'list': {
      const { values } = parseArgs({
        args,
        strict: true,
        options: { status: { type: 'string' }, limit: { type: 'string' } },
      });
      const status = values.status?.toLowerCase();
      if (status !== undefined && !(ORDER_STATUSES as readonly string[]).includes(status)) {
        errors.push(`--status: '${values.status}' is not one of ${ORDER_STATUSES.join(', ')}`);
      }
      const limit = wholeNumber('limit', values.limit, 1_000, errors) ?? 50;
      if (errors.length > 0) return { ok: false, errors };
      return {
        ok: true,
        command: { kind: 'list', limit, ...(status ? { status: status.toUpperCase() as OrderStatus } : {}) },
      };
    }
    case 'show': {
      const { positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: {} });
      if (positionals.length !== 1) errors.push('show: give exactly one order id');
      else if (!UUID.test(positionals[0] as string)) errors.push(`show: '${positionals[0]}' is not an order id`);
      if (errors.length > 0) return { ok: false, errors };
      return { ok: true, command: { kind: 'show', orderId: positionals[0] as string } };
    }
    case 'refund': {
      const { values, positionals } = parseArgs({
        args,
        strict: true,
        allowPositionals: true,
        options: {
          reason: { type: 'string' },
          to: { type: 'string' },
          amount: { type: 'string' },
          by: { type: 'string' },
        },
      });
      if (positionals.length !== 1) errors.push('refund: give exactly one order id');
      else if (!UUID.test(positionals[0] as string)) errors.push(`refund: '${positionals[0]}' is not an order id`);
      const reason = values.reason ?? 'operator';
      if (!/^[a-z0-9-]{1,32}$/.test(reason)) {
        errors.push(`--reason: '${reason}' is not 1 to 32 lower-case letters, digits or -`);
      } else if (reason === 'shortfall' || reason === 'payment') {
        errors.push(`--reason: '${reason}' is the store's own; name the refund otherwise`);
      }
      const to = values.to ?? 'balance';
      if (to !== 'balance' && to !== 'card') errors.push(`--to: '${to}' is not balance or card`);
      const amountMinor = values.amount === undefined ? undefined : decimalToMinor(values.amount);
      if (values.amount !== undefined && amountMinor === undefined) {
        errors.push(`--amount: '${values.amount}' is not an amount above zero with at most two decimals, like 12.50`);
      }
      const by = values.by?.trim();
      if (values.by !== undefined && (!by || by.length > 48)) errors.push('--by: 1 to 48 characters');
      if (errors.length > 0) return { ok: false, errors };
      return {
        ok: true,
        command: {
          kind: 'refund',
          orderId: positionals[0] as string,
          reason,
          to: to as RefundDestination,
          ...(amountMinor === undefined ? {} : { amountMinor }),
          ...(by ? { by } : {}),
        },
      };
    }
    case 'ledger': {
      const { values, positionals } = parseArgs({
        args,
        strict: true,
        allowPositionals: true,
        options: { limit: { type: 'string' } },
      });
      if (positionals.length !== 1) errors.push('ledger: give exactly one email or user id');
      const limit = wholeNumber('limit', values.limit, 1_000, errors) ?? 100;
      if (errors.length > 0) return { ok: false, errors };
      return { ok: true, command: { kind: 'ledger', customer: (positionals[0] as string).trim(), limit } };
    }
    case 'receivables': {
      const { values } = parseArgs({ args, strict: true, options: { limit: { type: 'string' } } });
      const limit = wholeNumber('limit', values.limit, 1_000, errors) ?? 50;
      if (errors.length > 0) return { ok: false, errors };
      return { ok: true, command: { kind: 'receivables', limit } };
    }
    case 'verify-balances':
      parseArgs({ args, strict: true, options: {} });
      return { ok: true, command: { kind: 'verify-balances' } };
    default:
      return {
        ok: false,
        errors: [
          `'${command}' is not a command: use import-codes, list, show, refund, receivables, ledger or verify-balances`,
        ],
      };
  }
}

/** Reads the command line; every bad argument gets its own message. */
export function parseOrdersCommand(argv: string[]): ParsedOrdersCommand {
  return readCommandLine(argv, parse);
}

/** An amount as an operator types it ("12.50", "3") in minor units; undefined unless above zero with two decimals at most. */
export function decimalToMinor(text: string): number | undefined {
  const match = /^(\d{1,13})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const minor = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return minor > 0 && Number.isSafeInteger(minor) ? minor : undefined;
}

/** Minor units as the operator reads them: 2990 BRL -> "29.90 BRL". */
export function formatMinor(minor: number, currency = 'BRL'): string {
  const sign = minor < 0 ? '-' : '';
  const absolute = Math.abs(minor);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')} ${currency}`;
}

export interface OrdersCliIo extends CliIo {
  /**
   * The cipher codes are encrypted with; asked for only by import-codes, so that the other commands
   * run without the key (the store is made without it).
   */
  codeCipher(): CodeCipher;
  /** Who runs the command, recorded as who asked for a refund unless --by says otherwise. */
  operator?: string;
}

/** A command ready to run; an import carries the lines of its file, read before the database opened. */
type Runnable =
  | Exclude<OrdersCommand, { kind: 'help' | 'import-codes' }>
  | {
      kind: 'import-codes';
      productId: number;
      text: string;
      /** The file's name, the batch's label. */
      label: string;
    };

async function run(command: Runnable, store: Store<null>, io: OrdersCliIo) {
  const { prisma: db, sql } = store.database;
  switch (command.kind) {
    case 'import-codes': {
      const stock = createCodeStock({ sql, cipher: io.codeCipher() });
      const { productId, text, label } = command;
      const report = await stock.importCodes({ productId, text, label }, cliActor(io.operator ?? 'operator'));
      const repeated = report.duplicates_in_file.length;
      const stored = report.duplicates_in_stock.length;
      const tooLong = report.too_long.length;
      const blank = text.split(/\r\n|\r|\n/).length - report.lines;
      io.out(
        `product ${productId}: ${report.added} added, ${repeated + stored + tooLong} refused ` +
          `(${repeated} repeated in the file, ${stored} already in the store, ` +
          `${tooLong} longer than a code can be); ${blank} blank lines skipped` +
          (report.batch_id === null ? '' : `; batch ${report.batch_id}`),
      );
      return 0;
    }
    case 'list': {
      const orders = await store.orderOperations.listOrders(command);
      if (orders.length === 0) {
        io.out('no orders');
        return 0;
      }
      const rows = orders.map((order) => [
        order.id,
        order.createdAt.toISOString(),
        order.status.toLowerCase(),
        order.type.toLowerCase(),
        formatMinor(order.totalMinor, order.currency),
        order.refundedMinor > 0 ? formatMinor(order.refundedMinor, order.currency) : '-',
        order.email,
      ]);
      for (const line of textTable(['ORDER', 'CREATED', 'STATUS', 'TYPE', 'TOTAL', 'REFUNDED', 'CUSTOMER'], rows)) {
        io.out(line);
      }
      return 0;
    }
    case 'show': {
      const order = await db.order.findUnique({
        where: { id: command.orderId },
        include: { user: { select: { email: true } } },
      });
      if (!order) {
        io.err(`error: there is no order ${command.orderId}`);
        return 1;
      }
      const money = (minor: bigint) => formatMinor(int8ToNumber(minor), order.currency);
      io.out(
        `order ${order.id}: ${order.status.toLowerCase()}, ${order.type.toLowerCase()} of ${order.user.email}, ` +
          `${money(order.totalMinor)}${order.refundedMinor > 0n ? `, ${money(order.refundedMinor)} refunded` : ''}`,
      );
      const history = await orderHistory(sql, order.id);
      const rows = history.map((event) => [
        event.createdAt.toISOString(),
        event.actor,
        event.kind,
        event.fromStatus || event.toStatus
          ? `${event.fromStatus?.toLowerCase() ?? ''} -> ${event.toStatus?.toLowerCase() ?? ''}`
          : '',
        event.amountMinor === null ? '' : formatMinor(event.amountMinor, order.currency),
        event.detail ? JSON.stringify(event.detail) : '',
      ]);
      for (const line of textTable(['WHEN', 'WHO', 'WHAT', 'STATUS', 'AMOUNT', 'DETAIL'], rows)) io.out(line);
      return 0;
    }
    case 'refund': {
      const result = await store.orderOperations.refundOrder(command.orderId, {
        to: command.to,
        reason: command.reason,
        operator: command.by ?? io.operator ?? 'operator',
        ...(command.amountMinor === undefined ? {} : { amountMinor: command.amountMinor }),
      });
      if (result.to === 'balance') {
        io.out(
          `order ${command.orderId}: ${formatMinor(result.refundedMinor)} refunded to the balance, ` +
            `now ${result.status.toLowerCase()}; the customer is emailed`,
        );
      } else {
        io.out(
          `order ${command.orderId}: a refund of ${formatMinor(result.refundedMinor)} to the card is asked of the ` +
            `provider (${result.refundId}); the running store sends it within a minute, and the order follows ` +
            'once the provider has given the money back',
        );
      }
      return 0;
    }
    case 'receivables': {
      const owing = await store.ledger.receivables(command.limit);
      if (owing.length === 0) {
        io.out('no customer owes the store');
        return 0;
      }
      const rows = owing.map((row) => [
        row.email,
        row.userId,
        formatMinor(row.owedMinor),
        formatMinor(row.balanceMinor),
        row.since?.toISOString() ?? '-',
      ]);
      for (const line of textTable(['CUSTOMER', 'ID', 'OWES', 'BALANCE', 'SINCE'], rows)) io.out(line);
      return 0;
    }
    case 'ledger': {
      const user = await db.user.findFirst({
        where: UUID.test(command.customer) ? { id: command.customer } : { email: command.customer.toLowerCase() },
        select: { id: true, email: true },
      });
      if (!user) {
        io.err(`error: there is no customer ${command.customer}`);
        return 1;
      }
      const { balanceMinor, owedMinor, entries } = await store.ledger.statement(user.id, command.limit);
      const owes = owedMinor > 0 ? `, owes ${formatMinor(owedMinor)}` : '';
      io.out(`${user.email} (${user.id}): balance ${formatMinor(balanceMinor)}${owes}`);
      const rows = entries.map((entry) => [
        entry.createdAt.toISOString(),
        entry.kind.toLowerCase(),
        entry.account === 'CUSTOMER_BALANCE' ? 'balance' : 'receivable',
        formatMinor(entry.amountMinor),
        entry.idempotencyKey,
      ]);
      if (rows.length === 0) io.out('no ledger entries');
      else for (const line of textTable(['WHEN', 'KIND', 'ACCOUNT', 'AMOUNT', 'KEY'], rows)) io.out(line);
      return 0;
    }
    case 'verify-balances': {
      const { ledger } = store;
      const problems = await ledger.verifyBooks();
      if (problems.length === 0) {
        io.out(
          `every balance equals its ledger (${await db.user.count()} customers), ` +
            `and every transfer's legs sum to zero (${await db.ledgerTransfer.count()} transfers)`,
        );
        const totals = await ledger.accountTotals();
        for (const line of textTable(
          ['ACCOUNT', 'TOTAL'],
          totals.map((total) => [accountName(total), formatMinor(total.balanceMinor)]),
        )) {
          io.out(line);
        }
        return 0;
      }
      io.err(`error: ${problems.length} thing(s) in the books are wrong:`);
      for (const problem of problems) io.err(`  ${describeProblem(problem)}`);
      return 1;
    }
  }
}

/** An account as the operator reads it: `customers' balances`, `clearing (sandbox)`, `revenue`. */
function accountName({ account, provider }: AccountTotal): string {
  switch (account) {
    case 'CUSTOMER_BALANCE':
      return "customers' balances";
    case 'CUSTOMER_RECEIVABLE':
      return "customers' receivables";
    case 'PROVIDER_CLEARING':
      return `clearing (${provider})`;
    default:
      return account.toLowerCase();
  }
}

function describeProblem(problem: LedgerProblem): string {
  switch (problem.kind) {
    case 'balance_mismatch':
      return `${problem.email} (${problem.userId}): balance ${formatMinor(problem.cachedMinor)}, ledger ${formatMinor(problem.ledgerMinor)}`;
    case 'owed_mismatch':
      return `${problem.email} (${problem.userId}): owes ${formatMinor(problem.cachedMinor)}, ledger ${formatMinor(problem.ledgerMinor)}`;
    case 'unbalanced_transfer':
      return `transfer ${problem.key} (${problem.transferId}): ${problem.legs} leg(s) summing to ${formatMinor(problem.sumMinor)}`;
    case 'books_not_zero':
      return `the ledger sums to ${formatMinor(problem.sumMinor)}, not zero`;
  }
}

/** Runs one command; answers the exit code: 0 done, 1 refused by the data or a failed check, 2 bad arguments. */
export async function runOrdersCli(argv: string[], io: OrdersCliIo): Promise<number> {
  const parsed = parseOrdersCommand(argv);
  if (!parsed.ok) return refuseArguments(io, 'orders', parsed.errors);
  const { command } = parsed;
  if (command.kind === 'help') {
    io.out(ORDERS_USAGE);
    return 0;
  }
  let runnable: Runnable;
  if (command.kind === 'import-codes') {
    // Read before the database opens: a wrong path is the operator's to fix, with nothing begun.
    try {
      const text = await readFile(command.file, 'utf8');
      runnable = { kind: 'import-codes', productId: command.productId, text, label: path.basename(command.file) };
    } catch (error) {
      io.err(
        `error: --file: cannot read ${command.file} (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`,
      );
      return 2;
    }
  } else {
    runnable = command;
  }

  const store = await openCommandStore(io);
  try {
    return await run(runnable, store, io);
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof ConflictError || error instanceof ValidationError) {
      io.err(`error: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await store.database.close();
  }
}
