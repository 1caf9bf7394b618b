import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { SqlExecutor } from './migrator.ts';

/** A single node-postgres connection: a session-level advisory lock and BEGIN/COMMIT need one. */
export function pgExecutor(client: pg.ClientBase): SqlExecutor {
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      return (await client.query(sql, params)).rows as T[];
    },
    async exec(sql: string) {
      // Without parameters node-postgres uses the simple protocol, which accepts several statements.
      await client.query(sql);
    },
  };
}

export function pgliteExecutor(db: PGlite): SqlExecutor {
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      return (await db.query<T>(sql, params)).rows;
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
  };
}
