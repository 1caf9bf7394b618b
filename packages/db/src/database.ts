import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { pgExecutor, pgliteExecutor } from './executors.ts';
import { PrismaClient } from './generated/client.ts';
import { type Migration, type MigrationResult, migrate } from './migrator.ts';
import { defaultDataDir } from './paths.ts';
import { pgliteSqlClient, pgSqlClient, type SqlClient } from './sql-client.ts';

export interface Database {
  prisma: PrismaClient;
  /** Hand-written SQL on the same connections, for the hot paths (sql-client.ts). */
  sql: SqlClient;
  kind: 'postgres' | 'pglite';
  /**
   * Subscribes to NOTIFY on `channel`: on PostgreSQL over a connection of its own, which comes back
   * by itself after a loss; on PGlite in this process. Resolves once listening.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<Unlisten>;
  close(): Promise<void>;
}

export interface NotificationHandlers {
  onNotification(payload: string): void;
  /** The connection was lost: nothing is heard until onReconnect. */
  onLost?(): void;
  /**
   * The connection was lost and is listening again: whatever was notified in between is lost, so
   * the subscriber must assume anything changed.
   */
  onReconnect?(): void;
}

export type Unlisten = () => Promise<void>;

export interface DatabaseOptions {
  /** PostgreSQL; without it the database is embedded PGlite in `dataDir`. */
  databaseUrl?: string;
  /** PGlite's folder, or `memory://` for a throw-away in-memory database. */
  dataDir?: string;
  /** Apply pending migrations before returning (the default). */
  migrate?: boolean;
  /** Connections in the pool (PostgreSQL only). */
  poolSize?: number;
}

/** How long a query or transaction waits for a free connection of the pool. */
const CONNECTION_WAIT_MS = 60_000;
/** How long a connection may sit inside a transaction without a statement before the server ends it. */
const IDLE_IN_TRANSACTION_MS = 60_000;

/**
 * Migrates over one dedicated connection: the advisory lock and the transactions are per session.
 * `migrations` (all of them by default) lets a test stop at an earlier one.
 */
export async function migratePostgres(databaseUrl: string, migrations?: Migration[]): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await migrate(pgExecutor(client), migrations);
  } finally {
    await client.end();
  }
}

/**
 * PGlite's shared buffers. PostgreSQL's default of 128 MB lives inside the WebAssembly memory, which
 * never shrinks, and the store's database is read through the operating system's file cache anyway:
 * 16 MB holds the demo catalogue's hot pages, and the embedded store stays small.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

const pgliteStartParams = () => [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];

/**
 * Makes a new data folder (PostgreSQL's initdb) in a short-lived child process. In this process PGlite
 * would run initdb in a second, temporary instance and copy its files over as a tar archive: some
 * 500 MB at the peak, given back when it is done, but not all of it to the system, so the store would
 * hold some 50 MB more for as long as it runs after its first start than after any other.
 */
async function initdbInChild(dataDir: string): Promise<void> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `const [entry, dataDir, ...startParams] = process.argv.slice(1);
require(entry).PGlite.create({ dataDir, startParams }).then((db) => db.close()).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});`;
  try {
    await promisify(execFile)(process.execPath, [
      '--liftoff-only',
      '-e',
      script,
      entry,
      dataDir,
      ...pgliteStartParams(),
    ]);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`PGlite could not make a database in ${dataDir}${stderr ? `: ${stderr}` : ''}`);
  }
}

/** Embedded PostgreSQL with the extensions the migrations need; `memory://` keeps it in memory. */
export async function openPglite(dataDir: string = defaultDataDir): Promise<PGlite> {
  if (!dataDir.startsWith('memory://')) {
    mkdirSync(dataDir, { recursive: true });
    if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await initdbInChild(dataDir);
  }
  return PGlite.create({
    dataDir,
    extensions: { pg_trgm },
    startParams: pgliteStartParams(),
  });
}

/**
 * The one way to get a database: Prisma over PostgreSQL when a URL is given, over embedded PGlite
 * otherwise. Both run the same migrations and the same queries.
 */
export async function createDatabase(options: DatabaseOptions = {}): Promise<Database> {
  if (options.databaseUrl) {
    if (options.migrate !== false) await migratePostgres(options.databaseUrl);
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // Under a burst, work queues for a connection rather than fails, but not for ever: past this
      // the caller gets DatabaseBusyError (a 503 the client may retry).
      connectionTimeoutMillis: CONNECTION_WAIT_MS,
      // A transaction left open by a stuck caller cannot hold its row locks for ever.
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    });
    // An idle connection that the server ends (a restart, a failover, a dropped test database)
    // emits 'error' on the pool; unheard, that event would end the process. The pool drops the
    // connection and the next query opens a new one, so there is nothing else to do here.
    pool.on('error', () => {});
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    const sql = pgSqlClient(pool);
    const databaseUrl = options.databaseUrl;
    const listeners = new Set<Unlisten>();
    return {
      prisma,
      sql,
      kind: 'postgres',
      async listen(channel, handlers) {
        const unlisten = await listenPostgres(databaseUrl, channel, handlers);
        const remove: Unlisten = async () => {
          listeners.delete(remove);
          await unlisten();
        };
        listeners.add(remove);
        return remove;
      },
      async close() {
        await Promise.all([...listeners].map((unlisten) => unlisten()));
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }

  const pglite = await openPglite(options.dataDir);
  if (options.migrate !== false) {
    try {
      await migrate(pgliteExecutor(pglite));
    } catch (error) {
      await pglite.close();
      throw error;
    }
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  const sql = pgliteSqlClient(pglite);
  return {
    prisma,
    sql,
    kind: 'pglite',
    // PGlite hands every NOTIFY raised by any query of this instance to its listeners.
    listen: (channel, { onNotification }) => pglite.listen(channel, onNotification),
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

/**
 * LISTEN on a dedicated connection (a pooled one would be handed to queries and lose it). A lost
 * connection is opened again with a growing delay, and onReconnect tells the subscriber that
 * notifications may have been missed meanwhile.
 */
async function listenPostgres(databaseUrl: string, channel: string, handlers: NotificationHandlers): Promise<Unlisten> {
  const quoted = `"${channel.replaceAll('"', '""')}"`;
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let delay = RECONNECT_MIN_MS;

  const connect = async () => {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.onNotification(message.payload ?? '');
    });
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${quoted}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
  };

  const lost = (which: pg.Client) => {
    if (stopped || which !== client) return;
    client = undefined;
    which.end().catch(() => {});
    handlers.onLost?.();
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    retry = setTimeout(async () => {
      try {
        await connect();
        delay = RECONNECT_MIN_MS;
        handlers.onReconnect?.();
      } catch {
        delay = Math.min(delay * 2, RECONNECT_MAX_MS);
        if (!stopped) scheduleReconnect();
      }
    }, delay);
    retry.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const current = client;
    client = undefined;
    await current?.end().catch(() => {});
  };
}
