import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './database.ts';
import { pgExecutor, pgliteExecutor } from './executors.ts';
import { FailedMigrationError, MigrationChecksumError, migrate, readMigrations, type SqlExecutor } from './migrator.ts';
import { migrationsDir } from './paths.ts';
import { createTestDatabase, type TestDatabase } from './testing.ts';

// An empty database of the test's own: PostgreSQL when the run has one, else a private PGlite.
let testDb: TestDatabase;
let pglite: PGlite | undefined;
let client: pg.Client | undefined;
let executor: SqlExecutor;
const query = <T>(sql: string, params: unknown[] = []) => executor.query<T>(sql, params);

beforeAll(async () => {
  testDb = await createTestDatabase({ migrate: false });
  if (testDb.url) {
    client = new pg.Client({ connectionString: testDb.url });
    await client.connect();
    executor = pgExecutor(client);
  } else {
    pglite = await openPglite('memory://');
    executor = pgliteExecutor(pglite);
  }
});
afterAll(async () => {
  await client?.end();
  await pglite?.close();
  await testDb?.cleanup();
});

describe('migrator', () => {
  it('applies every migration once and records it the way Prisma does', async () => {
    const files = readMigrations();
    expect(await migrate(executor)).toEqual({ applied: files.map((file) => file.name), skipped: [] });
    const rows = await query<{
      migration_name: string;
      checksum: string;
      applied_steps_count: number;
      finished: boolean;
      logs: string | null;
    }>(
      `SELECT migration_name, checksum, applied_steps_count, finished_at >= started_at AS finished, logs
       FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows.map((row) => row.migration_name)).toEqual(files.map((file) => file.name));
    for (const row of rows) {
      const bytes = readFileSync(path.join(migrationsDir, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(row).toMatchObject({ applied_steps_count: 1, finished: true, logs: null });
    }
  });

  it('has the bookkeeping table Prisma creates, column for column', async () => {
    const columns = await query<{ column_name: string; data_type: string; is_nullable: string }>(
      `SELECT column_name, data_type, is_nullable FROM information_schema.columns
       WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns.map((c) => `${c.column_name} ${c.data_type}${c.is_nullable === 'NO' ? ' not null' : ''}`)).toEqual([
      'id character varying not null',
      'checksum character varying not null',
      'finished_at timestamp with time zone',
      'migration_name character varying not null',
      'logs text',
      'rolled_back_at timestamp with time zone',
      'started_at timestamp with time zone not null',
      'applied_steps_count integer not null',
    ]);
  });

  it('skips what is applied and applies what is new, in order', async () => {
    const existing = readMigrations();
    const next = {
      name: '29990101000000_probe',
      sql: 'CREATE TABLE "probe" ("id" INTEGER PRIMARY KEY);',
      checksum: 'a'.repeat(64),
    };
    const result = await migrate(executor, [...existing, next]);
    expect(result).toEqual({ applied: [next.name], skipped: existing.map((m) => m.name) });
    expect(await migrate(executor, [...existing, next])).toEqual({
      applied: [],
      skipped: [...existing.map((m) => m.name), next.name],
    });
  });

  it('refuses a migration whose file changed after it was applied', async () => {
    const [first, ...rest] = readMigrations();
    if (!first) throw new Error('no migrations found');
    await expect(migrate(executor, [{ ...first, checksum: 'b'.repeat(64) }, ...rest])).rejects.toBeInstanceOf(
      MigrationChecksumError,
    );
  });

  it('rolls a failing migration back whole and records nothing for it', async () => {
    const broken = {
      name: '29990102000000_broken',
      sql: 'CREATE TABLE "half" ("id" INTEGER); SELECT * FROM "no_such_table";',
      checksum: 'c'.repeat(64),
    };
    await expect(migrate(executor, [broken])).rejects.toThrow(/29990102000000_broken failed/);
    const [half] = await query<{ n: number }>(
      "SELECT COUNT(*)::int AS n FROM information_schema.tables WHERE table_name = 'half'",
    );
    expect(half?.n).toBe(0);
    const [recorded] = await query<{ n: number }>(
      'SELECT COUNT(*)::int AS n FROM "_prisma_migrations" WHERE migration_name = $1',
      [broken.name],
    );
    expect(recorded?.n).toBe(0);
  });

  it('refuses to go on while Prisma has a failed migration on record', async () => {
    await query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, logs, applied_steps_count)
       VALUES ('00000000-0000-4000-8000-000000000001', $1, '29990103000000_failed', 'syntax error', 0)`,
      ['d'.repeat(64)],
    );
    await expect(migrate(executor)).rejects.toBeInstanceOf(FailedMigrationError);
    await query(
      `UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = '29990103000000_failed'`,
    );
    await expect(migrate(executor)).resolves.toMatchObject({ applied: [] });
  });
});

describe('migrator on PostgreSQL', () => {
  it('lets concurrent processes take turns, so each migration is applied once', async (context) => {
    if (!testDb.url) context.skip();
    const fresh = await createTestDatabase({ migrate: false });
    const url = fresh.url as string;
    const runners = await Promise.all([1, 2, 3].map(() => new pg.Client({ connectionString: url })));
    try {
      await Promise.all(runners.map((runner) => runner.connect()));
      const results = await Promise.all(runners.map((runner) => migrate(pgExecutor(runner))));
      const names = readMigrations().map((file) => file.name);
      expect(results.flatMap((result) => result.applied).sort()).toEqual(names);
      const { rows } = await runners[0]!.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM "_prisma_migrations"');
      expect(rows[0]?.n).toBe(names.length);
    } finally {
      await Promise.all(runners.map((runner) => runner.end()));
      await fresh.cleanup();
    }
  });
});
