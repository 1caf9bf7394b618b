import type { PGlite, Transaction } from '@electric-sql/pglite';
import pg from 'pg';
import { Prisma, type PrismaClient } from './generated/client.ts';
import { compile, type Statement } from './kysely.ts';

/**
 * Hand-written SQL straight on the driver, for the checkout's hot paths. Prisma's query builder and
 * even its `$queryRaw` cost several times what the driver itself does per statement (bench/checkout
 * measured about 3.5 times for a raw query, 7 for a findUnique), and a checkout is some fifty
 * statements. Statements are built with Kysely (`qb`, kysely.ts) from the tables' generated types, so
 * columns are checked by the compiler and values are always parameters, never text.
 *
 * Results are what the driver returns, but for 64-bit integers (money is kept in them): those come
 * back as numbers on both drivers (node-postgres would give a string, PGlite a BigInt), and one past
 * Number.MAX_SAFE_INTEGER throws rather than lose digits. Name columns with `AS "camelCase"`.
 */
export interface Queryable {
  /** The rows of one statement, typed by what it selects or returns. */
  query<O>(statement: Statement<O>): Promise<O[]>;
  /** The number of rows one statement wrote. */
  execute(statement: Statement): Promise<number>;
}

const textOf = compile;

export interface SqlClient extends Queryable {
  /**
   * Runs `work` in one transaction on one connection: committed when it returns, rolled back when
   * it throws. Waits for a free connection as long as the pool's connectionTimeoutMillis (then
   * DatabaseBusyError), like a queue.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
}

/** The database was too busy to answer now: from the SQL client, or Prisma's P2024 and P2028. */
export function isDatabaseBusy(error: unknown): boolean {
  if (error instanceof DatabaseBusyError) return true;
  return error instanceof Prisma.PrismaClientKnownRequestError && (error.code === 'P2024' || error.code === 'P2028');
}

/**
 * No connection of the pool came free in time: the database is too busy now. Nothing was sent, so
 * the same request may be tried again (the API answers 503 with Retry-After).
 */
export class DatabaseBusyError extends Error {
  constructor(cause: unknown) {
    super('no database connection came free in time', { cause });
    this.name = 'DatabaseBusyError';
  }
}

/** The socket's errors when the server is down, cut off or drops the connection. */
const UNREACHABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or not taking connections: admin_shutdown,
 * crash_shutdown, cannot_connect_now (starting up, shutting down, recovering), too_many_connections.
 * Class 08, connection exceptions, counts as a whole.
 */
const UNREACHABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Prisma's: the server cannot be reached (P1001), timed out (P1002), closed the connection (P1017). */
const UNREACHABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1017']);

/** What Prisma's pg adapter makes of the socket errors above. */
const UNREACHABLE_ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout']);

/**
 * Errors that carry no code, only words: node-postgres's lost or timed-out connection (which Prisma's
 * adapter passes on as it is), its pool's wait for a connection that a silent server never gives (as
 * it reaches Prisma), and ioredis's commands refused or unanswered while it has no connection.
 */
const UNREACHABLE_MESSAGES = [
  /^Connection terminated\b/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^timeout exceeded when trying to connect$/,
  /^Connection is closed\.$/,
  /^Stream isn't writeable and enableOfflineQueue options is false$/,
  /^Command timed out$/,
];

/** How many errors deep the causes are followed: Prisma's error, its adapter's, the driver's. */
const CAUSE_DEPTH = 4;

/**
 * PostgreSQL or Redis cannot be reached now: down, restarting, cut off, or it dropped the
 * connection, as node-postgres, Prisma (directly or through its pg adapter) and ioredis tell it. The
 * pools open new connections once the server is back, so the request may be sent again later (the
 * API answers 503 with Retry-After); what the error says of hosts and addresses stays in the log.
 */
export function isServerUnreachable(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < CAUSE_DEPTH && typeof current === 'object' && current !== null; depth++) {
    const { code, errorCode, originalCode, kind, name, message, meta, cause } = current as {
      code?: unknown;
      errorCode?: unknown;
      originalCode?: unknown;
      kind?: unknown;
      name?: unknown;
      message?: unknown;
      meta?: { driverAdapterError?: unknown };
      cause?: unknown;
    };
    if (
      [code, errorCode, originalCode].some((value) => typeof value === 'string' && isUnreachableCode(value)) ||
      (typeof kind === 'string' && UNREACHABLE_ADAPTER_KINDS.has(kind)) ||
      name === 'MaxRetriesPerRequestError' ||
      (typeof message === 'string' && UNREACHABLE_MESSAGES.some((words) => words.test(message)))
    ) {
      return true;
    }
    // Prisma keeps its adapter's error under meta; the adapter keeps what the driver said as its cause.
    current = meta?.driverAdapterError ?? cause;
  }
  return false;
}

function isUnreachableCode(code: string): boolean {
  return (
    UNREACHABLE_SOCKET_CODES.has(code) ||
    UNREACHABLE_SQLSTATES.has(code) ||
    /^08[0-9A-Z]{3}$/.test(code) ||
    UNREACHABLE_PRISMA_CODES.has(code)
  );
}

/** PostgreSQL's type id of bigint (int8). */
const INT8_OID = 20;

/** A 64-bit integer as a number: exact up to 2^53, which no amount of money here comes near. */
export function int8ToNumber(text: string | bigint | number): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw new RangeError(`the 64-bit integer ${text} is past what a number holds exactly`);
  return value;
}

const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? int8ToNumber : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** node-postgres's pool gives up waiting for a connection after its connectionTimeoutMillis. */
const busy = (error: unknown) =>
  error instanceof Error && error.message === 'timeout exceeded when trying to connect'
    ? new DatabaseBusyError(error)
    : error;

/**
 * At most this many distinct statements are prepared on each connection. The statements come from
 * the code's templates, so there are a few dozen; past the bound (a template that makes a new text
 * per call would be a bug) statements run unprepared rather than fill the server's memory.
 */
const PREPARED_MAX = 500;

/**
 * The SQL client of a node-postgres pool: the same pool Prisma's adapter uses. Every statement is a
 * named prepared statement, parsed and planned once per connection rather than on every call.
 */
export function pgSqlClient(pool: pg.Pool): SqlClient {
  const names = new Map<string, string>();
  const prepared = (statement: Statement): pg.QueryConfig => {
    const { text, values } = textOf(statement);
    let name = names.get(text);
    if (name === undefined && names.size < PREPARED_MAX) {
      name = `store_${names.size}`;
      names.set(text, name);
    }
    const parameters = values as unknown[];
    return name === undefined
      ? { text, values: parameters, types: pgTypes }
      : { name, text, values: parameters, types: pgTypes };
  };
  const run = async (client: pg.Pool | pg.PoolClient, statement: Statement) => {
    try {
      return await client.query(prepared(statement));
    } catch (error) {
      throw busy(error);
    }
  };
  const on = (client: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(statement: Statement<T>) {
      return (await run(client, statement)).rows as T[];
    },
    async execute(statement: Statement) {
      return (await run(client, statement)).rowCount ?? 0;
    },
  });
  return {
    ...on(pool),
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect().catch((error: unknown) => {
        throw busy(error);
      });
      // A connection whose ROLLBACK failed is in an unknown state: the pool closes it.
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(on(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
}

/** The SQL client of embedded PGlite: one connection, whose transactions run one at a time. */
export function pgliteSqlClient(pglite: PGlite): SqlClient {
  const parsers = { [INT8_OID]: int8ToNumber };
  const on = (db: PGlite | Transaction): Queryable => ({
    async query<T>(statement: Statement<T>) {
      const { text, values } = textOf(statement);
      return (await db.query<T>(text, values as unknown[], { parsers })).rows;
    },
    async execute(statement: Statement) {
      const { text, values } = textOf(statement);
      return (await db.query(text, values as unknown[], { parsers })).affectedRows ?? 0;
    },
  });
  return { ...on(pglite), transaction: (work) => pglite.transaction((tx) => work(on(tx))) };
}

/**
 * The same statements inside a transaction Prisma opened: for the callers that work with Prisma's
 * query builder and call a function written against `Queryable`.
 */
export function prismaQueryable(tx: Prisma.TransactionClient | PrismaClient): Queryable {
  return {
    // Prisma answers 64-bit integers as BigInt: numbers, as the drivers' clients answer them.
    query: async <T>(statement: Statement<T>) => {
      const { text, values } = textOf(statement);
      return (await tx.$queryRawUnsafe<Record<string, unknown>[]>(text, ...values)).map((row) => {
        for (const [column, value] of Object.entries(row)) {
          if (typeof value === 'bigint') row[column] = int8ToNumber(value);
        }
        return row as T;
      });
    },
    execute: (statement: Statement) => {
      const { text, values } = textOf(statement);
      return tx.$executeRawUnsafe(text, ...values);
    },
  };
}

/**
 * A unique index refused the row (SQLSTATE 23505): from the driver, from Prisma's query builder
 * (P2002), or from a raw statement run through Prisma (P2010 with the driver's code inside).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, meta } = error as {
    code?: unknown;
    meta?: { code?: unknown; driverAdapterError?: { cause?: { originalCode?: unknown } } };
  };
  return (
    code === '23505' ||
    code === 'P2002' ||
    meta?.code === '23505' ||
    meta?.driverAdapterError?.cause?.originalCode === '23505'
  );
}
