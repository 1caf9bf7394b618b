import {
  type Compilable,
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import type { DB } from './generated/kysely.ts';

/** Kysely's SQL fragment tag and expression types, for what the builder cannot say (columns still as `eb.ref`). */
export { type ExpressionBuilder, type Selectable, sql } from 'kysely';
export type { DB } from './generated/kysely.ts';

/**
 * Typed SQL: Kysely builds every hand-written statement from the tables' types, which
 * `prisma generate` derives from schema.prisma (prisma-kysely), so a renamed column fails the
 * typecheck wherever it is queried. Kysely only builds and compiles here; the SQL client
 * (sql-client.ts) runs the statement on the database it was given — node-postgres's pool with named
 * prepared statements, or PGlite — so the hot paths keep what bench/checkout measured.
 *
 *     const [order] = await tx.query(qb.selectFrom('orders').select(['id', 'status']).where('id', '=', id));
 */
export const qb = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** A statement built with `qb` (or Kysely's `sql` tag) whose rows are `O`. */
export type Statement<O = unknown> = Compilable<O>;

/** Text and parameters of a statement, ready for the driver. */
export function compile(statement: Statement): { text: string; values: readonly unknown[] } {
  const compiled: CompiledQuery = statement.compile();
  return { text: compiled.sql, values: compiled.parameters };
}

/** Where a prepared statement takes the value of its argument `name`. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * A statement built and compiled once, its values filled in per call: for the statements run many
 * times a second (the payment status poll), where building Kysely's tree on every call costs more
 * than the query. `build` must use its arguments only as values (a column compared with one, a value
 * inserted), never to choose the statement's shape, and never as a list: each argument is one
 * parameter.
 *
 *     const orderStatus = prepare((a: { id: string }) => qb.selectFrom('orders').select('status').where('id', '=', a.id));
 *     const [order] = await tx.query(orderStatus({ id }));
 */
export function prepare<A extends Record<string, unknown>, O>(
  build: (args: A) => Statement<O>,
): (args: A) => Statement<O> {
  let compiled: CompiledQuery<O> | undefined;
  let slots: (string | undefined)[] = [];
  return (args) => {
    if (!compiled) {
      const placeholders = new Proxy({} as A, { get: (_, name) => new Slot(String(name)) });
      compiled = build(placeholders).compile();
      slots = compiled.parameters.map((value) => (value instanceof Slot ? value.name : undefined));
    }
    const parameters = compiled.parameters.map((value, i) => {
      const name = slots[i];
      return name === undefined ? value : args[name];
    });
    const query: CompiledQuery<O> = { ...compiled, parameters };
    return { compile: () => query };
  };
}
