import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { pgExecutor, pgliteExecutor } from './executors.ts';
import { PrismaClient } from './generated/client.ts';
import { type MigrationResult, migrate } from './migrator.ts';
import { defaultDataDir } from './paths.ts';

export interface Database {
  prisma: PrismaClient;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

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

/** Migrates over one dedicated connection: the advisory lock and the transactions are per session. */
export async function migratePostgres(databaseUrl: string): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await migrate(pgExecutor(client));
  } finally {
    await client.end();
  }
}

/** Embedded PostgreSQL with the extensions the migrations need; `memory://` keeps it in memory. */
export async function openPglite(dataDir: string = defaultDataDir): Promise<PGlite> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  return PGlite.create({ dataDir, extensions: { pg_trgm } });
}

/**
 * The one way to get a database: Prisma over PostgreSQL when a URL is given, over embedded PGlite
 * otherwise. Both run the same migrations and the same queries.
 */
export async function createDatabase(options: DatabaseOptions = {}): Promise<Database> {
  if (options.databaseUrl) {
    if (options.migrate !== false) await migratePostgres(options.databaseUrl);
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle connection that the server ends (a restart, a failover, a dropped test database)
    // emits 'error' on the pool; unheard, that event would end the process. The pool drops the
    // connection and the next query opens a new one, so there is nothing else to do here.
    pool.on('error', () => {});
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return {
      prisma,
      kind: 'postgres',
      async close() {
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
  return {
    prisma,
    kind: 'pglite',
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
