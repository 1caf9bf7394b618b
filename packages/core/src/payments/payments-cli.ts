import { parseArgs } from 'node:util';
import { int8ToNumber } from '@store/db';
import { formatMinor } from '../orders/orders-cli.ts';
import {
  type CliIo,
  openCommandStore,
  type ParsedCommand,
  readCommandLine,
  refuseArguments,
  UUID,
} from '../shared/cli.ts';
import { textTable } from '../shared/text-table.ts';
import { PAYMENT_EVENT_ATTEMPTS } from './payment-events.ts';

/**
 * The operator's look at payments: `pnpm --filter @store/core payments <command>`. It reads, and
 * hands back to the running store what an operator has looked at (a retry); applying events and
 * sending refunds is the worker's job (and the sweep's, for those left behind).
 */

export const PAYMENTS_USAGE = `Usage: pnpm --filter @store/core payments <command>

  events [--waiting | --set-aside | --dead] [--order ORDER_ID] [--limit N]
      Provider events, newest first: callbacks and the provider's answers when asked. --waiting
      shows those not yet applied (a sweep hands them on every 30 s), --set-aside those that did
      not match the store's payment or order (wrong amount, currency or order) and were never
      applied, --dead those that failed every attempt (${PAYMENT_EVENT_ATTEMPTS}) and wait for an operator.
  retry EVENT_ID
      Gives a dead event its attempts back: the running store or worker applies it within a minute.
  refunds [--pending | --failed] [--order ORDER_ID] [--limit N]
      Refunds the store asked of the provider, to a payment's card or account, newest first: a
      second charge of an order, a late payment, an operator's refund. --failed shows those the
      provider refused or that failed every attempt.
  retry-refund REFUND_ID
      Sends a failed refund again (once whatever stopped it is put right): the running store or
      worker sends it within a minute, under the same key, so the provider refunds once.
  order ORDER_ID
      The order's payments: method, status, the provider's id and version, the card's brand and last
      four digits, and the events of each.

The database is DATABASE_URL, or the embedded one in DATA_DIR (stop the store first: embedded
PostgreSQL takes one process at a time).`;

export type PaymentsCommand =
  | { kind: 'help' }
  | { kind: 'events'; filter: 'all' | 'waiting' | 'set-aside' | 'dead'; orderId?: string; limit: number }
  | { kind: 'retry'; eventId: string }
  | { kind: 'refunds'; filter: 'all' | 'pending' | 'failed'; orderId?: string; limit: number }
  | { kind: 'retry-refund'; refundId: string }
  | { kind: 'order'; orderId: string };

function limitOption(value: string | undefined, errors: string[]): number {
  const limit = value === undefined ? 50 : /^\d{1,4}$/.test(value) ? Number(value) : 0;
  if (limit < 1 || limit > 1_000) errors.push(`--limit: '${value}' is not a whole number from 1 to 1000`);
  return limit;
}

function oneId(command: string, what: string, args: string[], errors: string[]): string {
  const { positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: {} });
  if (positionals.length !== 1) errors.push(`${command}: give exactly one ${what} id`);
  else if (!UUID.test(positionals[0] as string)) errors.push(`${command}: '${positionals[0]}' is not ${what} id`);
  return positionals[0] as string;
}

export type ParsedPaymentsCommand = ParsedCommand<PaymentsCommand>;

function parse(command: string, args: string[]): ParsedPaymentsCommand {
  const errors: string[] = [];
  switch (command) {
    case 'events': {
      const { values } = parseArgs({
        args,
        strict: true,
        options: {
          waiting: { type: 'boolean' },
          'set-aside': { type: 'boolean' },
          dead: { type: 'boolean' },
          order: { type: 'string' },
          limit: { type: 'string' },
        },
      });
      if ([values.waiting, values['set-aside'], values.dead].filter(Boolean).length > 1) {
        errors.push('events: give one of --waiting, --set-aside and --dead');
      }
      if (values.order !== undefined && !UUID.test(values.order)) {
        errors.push(`--order: '${values.order}' is not an order id`);
      }
      const limit = limitOption(values.limit, errors);
      if (errors.length > 0) return { ok: false, errors };
      const filter = values.waiting ? 'waiting' : values['set-aside'] ? 'set-aside' : values.dead ? 'dead' : 'all';
      return {
        ok: true,
        command: { kind: 'events', filter, limit, ...(values.order ? { orderId: values.order } : {}) },
      };
    }
    case 'refunds': {
      const { values } = parseArgs({
        args,
        strict: true,
        options: {
          pending: { type: 'boolean' },
          failed: { type: 'boolean' },
          order: { type: 'string' },
          limit: { type: 'string' },
        },
      });
      if (values.pending && values.failed) errors.push('refunds: give --pending or --failed, not both');
      if (values.order !== undefined && !UUID.test(values.order)) {
        errors.push(`--order: '${values.order}' is not an order id`);
      }
      const limit = limitOption(values.limit, errors);
      if (errors.length > 0) return { ok: false, errors };
      const filter = values.pending ? 'pending' : values.failed ? 'failed' : 'all';
      return {
        ok: true,
        command: { kind: 'refunds', filter, limit, ...(values.order ? { orderId: values.order } : {}) },
      };
    }
    case 'retry': {
      const eventId = oneId('retry', 'an event', args, errors);
      if (errors.length > 0) return { ok: false, errors };
      return { ok: true, command: { kind: 'retry', eventId } };
    }
    case 'retry-refund': {
      const refundId = oneId('retry-refund', 'a refund', args, errors);
      if (errors.length > 0) return { ok: false, errors };
      return { ok: true, command: { kind: 'retry-refund', refundId } };
    }
    case 'order': {
      const { positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: {} });
      if (positionals.length !== 1) errors.push('order: give exactly one order id');
      else if (!UUID.test(positionals[0] as string)) errors.push(`order: '${positionals[0]}' is not an order id`);
      if (errors.length > 0) return { ok: false, errors };
      return { ok: true, command: { kind: 'order', orderId: positionals[0] as string } };
    }
    default:
      return {
        ok: false,
        errors: [`'${command}' is not a command: use events, retry, refunds, retry-refund or order`],
      };
  }
}

/** Reads the command line; every bad argument gets its own message. */
export function parsePaymentsCommand(argv: string[]): ParsedPaymentsCommand {
  return readCommandLine(argv, parse);
}

export type PaymentsCliIo = CliIo;

type EventRow = {
  receivedAt: Date;
  source: string;
  providerEventId: string;
  type: string;
  version: bigint;
  orderId: string | null;
  processedAt: Date | null;
  deadAt: Date | null;
  outcome: string | null;
  rejection: string | null;
  attempts: number;
  lastError: string | null;
};

function eventLines(events: EventRow[]): string[] {
  const rows = events.map((event) => [
    event.receivedAt.toISOString(),
    event.source,
    event.providerEventId,
    event.type,
    String(event.version),
    event.orderId ?? '-',
    event.rejection
      ? `set aside: ${event.rejection}`
      : event.processedAt
        ? (event.outcome ?? 'applied')
        : event.deadAt
          ? 'dead'
          : 'waiting',
    String(event.attempts),
    event.lastError ?? '',
  ]);
  return textTable(['RECEIVED', 'SOURCE', 'EVENT', 'TYPE', 'VERSION', 'ORDER', 'STATE', 'TRIES', 'LAST ERROR'], rows);
}

/** Runs one command; answers the exit code: 0 done, 1 nothing found, 2 bad arguments. */
export async function runPaymentsCli(argv: string[], io: PaymentsCliIo): Promise<number> {
  const parsed = parsePaymentsCommand(argv);
  if (!parsed.ok) return refuseArguments(io, 'payments', parsed.errors);
  const { command } = parsed;
  if (command.kind === 'help') {
    io.out(PAYMENTS_USAGE);
    return 0;
  }
  // Read-only but for a retry, which only makes a row due again: the running store's sweep acts on it.
  const { database } = await openCommandStore(io);
  const db = database.prisma;
  try {
    if (command.kind === 'events') {
      const events = await db.paymentEvent.findMany({
        where: {
          ...(command.orderId ? { orderId: command.orderId } : {}),
          ...(command.filter === 'waiting' ? { processedAt: null, deadAt: null } : {}),
          ...(command.filter === 'set-aside' ? { rejection: { not: null } } : {}),
          ...(command.filter === 'dead' ? { deadAt: { not: null } } : {}),
        },
        orderBy: { receivedAt: 'desc' },
        take: command.limit,
      });
      if (events.length === 0) io.out('no events');
      else for (const line of eventLines(events)) io.out(line);
      return 0;
    }
    if (command.kind === 'retry') {
      // Due now, with its attempts back: the sweep of the running store or worker hands it on.
      const { count } = await db.paymentEvent.updateMany({
        where: { id: command.eventId, deadAt: { not: null }, processedAt: null },
        data: { deadAt: null, attempts: 0, nextAttemptAt: new Date(0) },
      });
      if (count === 0) {
        io.err(`error: ${command.eventId} is not a dead event (see 'payments events --dead')`);
        return 1;
      }
      io.out(`event ${command.eventId}: retried; the running store or worker applies it within a minute`);
      return 0;
    }
    if (command.kind === 'refunds') {
      const refunds = await db.providerRefund.findMany({
        where: {
          ...(command.orderId ? { orderId: command.orderId } : {}),
          ...(command.filter === 'pending' ? { status: 'PENDING' } : {}),
          ...(command.filter === 'failed' ? { status: 'FAILED' } : {}),
        },
        orderBy: { createdAt: 'desc' },
        take: command.limit,
      });
      if (refunds.length === 0) {
        io.out('no refunds');
        return 0;
      }
      const rows = refunds.map((refund) => [
        refund.id,
        refund.createdAt.toISOString(),
        refund.orderId,
        formatMinor(int8ToNumber(refund.amountMinor)),
        refund.reason,
        refund.requestedBy,
        refund.status.toLowerCase(),
        String(refund.attempts),
        refund.providerRefundId ?? refund.lastError ?? '',
      ]);
      for (const line of textTable(
        ['REFUND', 'ASKED', 'ORDER', 'AMOUNT', 'REASON', 'BY', 'STATUS', 'TRIES', 'PROVIDER REFUND / LAST ERROR'],
        rows,
      )) {
        io.out(line);
      }
      return 0;
    }
    if (command.kind === 'retry-refund') {
      const { count } = await db.providerRefund.updateMany({
        where: { id: command.refundId, status: 'FAILED' },
        data: { status: 'PENDING', attempts: 0, finishedAt: null, nextAttemptAt: new Date(0) },
      });
      if (count === 0) {
        io.err(`error: ${command.refundId} is not a failed refund (see 'payments refunds --failed')`);
        return 1;
      }
      io.out(`refund ${command.refundId}: sent again by the running store or worker within a minute`);
      return 0;
    }
    const order = await db.order.findUnique({
      where: { id: command.orderId },
      select: { id: true, status: true, totalMinor: true, currency: true, paymentId: true },
    });
    if (!order) {
      io.err(`error: there is no order ${command.orderId}`);
      return 1;
    }
    io.out(
      `order ${order.id}: ${order.status.toLowerCase()}, ${formatMinor(int8ToNumber(order.totalMinor), order.currency)}, paid by ${order.paymentId ?? 'nothing yet'}`,
    );
    const payments = await db.payment.findMany({ where: { orderId: order.id }, orderBy: { createdAt: 'asc' } });
    const rows = payments.map((payment) => [
      payment.id,
      payment.createdAt.toISOString(),
      payment.method.toLowerCase(),
      payment.status.toLowerCase(),
      formatMinor(int8ToNumber(payment.amountMinor), payment.currency),
      payment.providerPaymentId ?? '-',
      String(payment.providerVersion),
      payment.cardBrand && payment.cardLast4 ? `${payment.cardBrand} ${payment.cardLast4}` : '-',
      payment.failureReason ?? '',
    ]);
    if (rows.length === 0) io.out('no payments');
    else {
      for (const line of textTable(
        ['PAYMENT', 'CREATED', 'METHOD', 'STATUS', 'AMOUNT', 'PROVIDER ID', 'VERSION', 'CARD', 'FAILURE'],
        rows,
      )) {
        io.out(line);
      }
    }
    const events = await db.paymentEvent.findMany({ where: { orderId: order.id }, orderBy: { receivedAt: 'asc' } });
    if (events.length > 0) for (const line of eventLines(events)) io.out(line);
    return 0;
  } finally {
    await database.close();
  }
}
