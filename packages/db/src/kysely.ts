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
 * times a second (the checkout's, the payment status poll), where building Kysely's tree on every
 * call costs more than the query. `build` must use each argument as one value only (a column
 * compared with it, a value inserted, an array as one parameter: `eb.fn.any(eb.val(a.ids))`), never
 * to choose the statement's shape (a branch, a list spread into `in`, a property read of it, a
 * string made of it): what shapes the statement is fixed by the code, or a key of prepareEach.
 * An argument left undefined is sent as NULL, so an insert or update writes every column it names
 * (Kysely's own builder leaves an undefined one out). The first call throws when an argument it is
 * given was not used as a value: the sign of one that shaped the statement.
 *
 *     const orderStatus = prepare((a: { id: string }) => qb.selectFrom('orders').select('status').where('id', '=', a.id));
 *     const [order] = await tx.query(orderStatus({ id }));
 */
export function prepare<A extends object, O>(build: (args: A) => Statement<O>): (args: A) => Statement<O> {
  let compiled: CompiledQuery<O> | undefined;
  let slots: (string | undefined)[] = [];
  return (args) => {
    if (!compiled) {
      const placeholders = new Proxy({} as A, { get: (_, name) => new Slot(String(name)) });
      const first = build(placeholders).compile();
      const names = first.parameters.map((value) => (value instanceof Slot ? value.name : undefined));
      const unused = Object.keys(args).filter((name) => !names.includes(name));
      if (unused.length > 0) {
        throw new TypeError(`prepare: ${unused.join(', ')} shaped the statement rather than filled a value in it`);
      }
      compiled = first;
      slots = names;
    }
    const given = args as Record<string, unknown>;
    const parameters = compiled.parameters.map((value, i) => {
      const name = slots[i];
      return name === undefined ? value : (given[name] ?? null);
    });
    const query: CompiledQuery<O> = { ...compiled, parameters };
    return { compile: () => query };
  };
}

/**
 * prepare() for a statement of a few shapes: one prepared statement per `shape` (a status the
 * statement moves an order to, whether an optional part is there), built the first time that shape
 * is asked for. `shape` may choose the statement's form; the arguments are values only, as in
 * prepare().
 *
 *     const move = prepareEach((to: OrderStatus, a: { id: string }) => qb.updateTable('orders').set({ status: to }).where('id', '=', a.id));
 */
export function prepareEach<K extends string | number | boolean, A extends object, O>(
  build: (shape: K, args: A) => Statement<O>,
): (shape: K, args: A) => Statement<O> {
  const byShape = new Map<K, (args: A) => Statement<O>>();
  return (shape, args) => {
    let prepared = byShape.get(shape);
    if (!prepared) {
      prepared = prepare((a: A) => build(shape, a));
      byShape.set(shape, prepared);
    }
    return prepared(args);
  };
}
