import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { migrationsDir } from './paths.ts';

/** The little a migrator needs from a connection; node-postgres and PGlite each provide one. */
export interface SqlExecutor {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements. */
  exec(sql: string): Promise<void>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationResult {
  applied: string[];
  skipped: string[];
}

// Prisma's own bookkeeping table, column for column, so `prisma migrate deploy` recognises our rows.
const MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/**
 * The key Prisma's schema engine locks on, so this migrator, other instances of it and
 * `prisma migrate deploy` all take turns instead of applying the same migration twice.
 */
const ADVISORY_LOCK_KEY = 72_707_369;

export function readMigrations(dir = migrationsDir): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(path.join(dir, name, 'migration.sql'));
      // Prisma's checksum: SHA-256 of the file's bytes, hex.
      return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    });
}

export class MigrationChecksumError extends Error {
  constructor(readonly migration: string) {
    super(`Migration ${migration} was changed after it was applied; add a new migration instead.`);
  }
}

/** Prisma's P3009: a migration started and never finished must be resolved by a person first. */
export class FailedMigrationError extends Error {
  constructor(readonly migrations: string[]) {
    super(
      `Migration ${migrations.join(', ')} failed earlier and is recorded as unfinished in _prisma_migrations; ` +
        'resolve it (`prisma migrate resolve`) before migrating again.',
    );
  }
}

/**
 * Applies the pending migrations in order, each in its own transaction with its bookkeeping row, so a
 * failure leaves the database at the last whole migration. Safe to run from several processes at
 * once: they take turns on an advisory lock.
 */
export async function migrate(db: SqlExecutor, migrations = readMigrations()): Promise<MigrationResult> {
  await db.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
  try {
    await db.exec(MIGRATIONS_TABLE);
    const rows = await db.query<{ migration_name: string; checksum: string; finished: boolean }>(
      `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished
       FROM "_prisma_migrations" WHERE rolled_back_at IS NULL ORDER BY started_at`,
    );
    const failed = rows.filter((row) => !row.finished).map((row) => row.migration_name);
    if (failed.length > 0) throw new FailedMigrationError(failed);
    const done = new Map(rows.map((row) => [row.migration_name, row.checksum]));
    const result: MigrationResult = { applied: [], skipped: [] };
    for (const migration of migrations) {
      const checksum = done.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) throw new MigrationChecksumError(migration.name);
        result.skipped.push(migration.name);
        continue;
      }
      await db.exec('BEGIN');
      try {
        await db.exec(migration.sql);
        await db.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await db.exec('COMMIT');
      } catch (error) {
        // A failed ROLLBACK means the connection is gone, which ends the transaction anyway; the
        // migration's own error is the one worth reporting.
        await db.exec('ROLLBACK').catch(() => undefined);
        throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      result.applied.push(migration.name);
    }
    return result;
  } finally {
    await db.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]);
  }
}
