import { randomUUID } from 'node:crypto';
import { sql as sql_ } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from './database.ts';
import { qb } from './kysely.ts';
import {
  DatabaseBusyError,
  isDatabaseBusy,
  isUniqueViolation,
  pgSqlClient,
  prismaQueryable,
  type Queryable,
} from './sql-client.ts';
import { createTestDatabase } from './testing.ts';

// Typed statements: the row's type comes from the tables' generated types and the selection.
const readUser = (sql: Queryable, id: string) =>
  sql.query(
    qb
      .selectFrom('users')
      .select([
        'id',
        'email',
        'balance_minor as balanceMinor',
        'created_at as createdAt',
        'email_verified_at as emailVerifiedAt',
      ])
      .where('id', '=', id),
  );

const insertUser = (sql: Queryable, id: string, email = `${id}@example.com`) =>
  sql.execute(
    qb.insertInto('users').values({ id, email, name: 'Someone', password_hash: 'x', updated_at: sql_`now()` }),
  );

// The server's own database when DATABASE_URL is set (the test run's case), and embedded PGlite:
// both drivers answer the same statements with the same values.
const kinds: Array<['postgres' | 'pglite', () => Promise<Database & { cleanup(): Promise<void> }>]> = [
  ['postgres', () => createTestDatabase()],
  [
    'pglite',
    async () => {
      const database = await createDatabase({ dataDir: 'memory://' });
      return { ...database, cleanup: () => database.close() };
    },
  ],
];

describe.each(kinds)('the SQL client on %s', (_kind, open) => {
  let db: Database & { cleanup(): Promise<void> };
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it('answers rows with numbers, dates, nulls and arrays as parameters', async () => {
    const id = randomUUID();
    const before = Date.now();
    expect(await insertUser(db.sql, id)).toBe(1);
    const [row] = await readUser(db.sql, id);
    expect(row).toMatchObject({ id, email: `${id}@example.com`, balanceMinor: 0, emailVerifiedAt: null });
    expect(row?.createdAt).toBeInstanceOf(Date);
    expect(Math.abs((row?.createdAt.getTime() ?? 0) - before)).toBeLessThan(60_000);

    const at = new Date('2026-01-02T03:04:05.678Z');
    await db.sql.execute(
      qb
        .updateTable('users')
        .set({ email_verified_at: at })
        .where((eb) => eb('id', '=', eb.fn.any(eb.val([id])))),
    );
    expect((await readUser(db.sql, id))[0]?.emailVerifiedAt?.toISOString()).toBe(at.toISOString());
  });

  it('commits a transaction that returns and rolls back one that throws', async () => {
    const kept = randomUUID();
    const dropped = randomUUID();
    expect(await db.sql.transaction(async (tx) => (await insertUser(tx, kept)) + 41)).toBe(42);
    await expect(
      db.sql.transaction(async (tx) => {
        await insertUser(tx, dropped);
        expect(await readUser(tx, dropped)).toHaveLength(1);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await readUser(db.sql, kept)).toHaveLength(1);
    expect(await readUser(db.sql, dropped)).toHaveLength(0);
  });

  it('keeps working after a statement fails inside a transaction', async () => {
    const id = randomUUID();
    await insertUser(db.sql, id, `taken-${id}@example.com`);
    const failure = await db.sql
      .transaction((tx) => insertUser(tx, randomUUID(), `taken-${id}@example.com`))
      .catch((error: unknown) => error);
    expect(isUniqueViolation(failure)).toBe(true);
    // The connection went back to the pool clean: the next transactions work.
    for (let index = 0; index < 5; index++) {
      expect(await db.sql.transaction((tx) => insertUser(tx, randomUUID()))).toBe(1);
    }
  });

  it('runs the same statements inside a Prisma transaction', async () => {
    const id = randomUUID();
    await db.prisma.$transaction(async (tx) => {
      await insertUser(prismaQueryable(tx), id);
    });
    const [row] = await readUser(prismaQueryable(db.prisma), id);
    expect(row).toMatchObject({ id, balanceMinor: 0 });
    expect(row?.createdAt).toBeInstanceOf(Date);
    const failure = await insertUser(prismaQueryable(db.prisma), id).catch((error: unknown) => error);
    expect(isUniqueViolation(failure)).toBe(true);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('the SQL client on a pool with no connection to spare', () => {
  it('gives up waiting after the pool’s connectionTimeoutMillis with DatabaseBusyError, and goes on after', async () => {
    const db = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: db.url, max: 1, connectionTimeoutMillis: 200 });
    const sql = pgSqlClient(pool);
    try {
      let release = () => {};
      const held = sql.transaction(
        () =>
          new Promise<void>((resolve) => {
            release = resolve;
          }),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const waiting of [
        sql.query(qb.selectNoFrom((eb) => eb.lit(1).as('one'))),
        sql.transaction((tx) => tx.query(qb.selectNoFrom((eb) => eb.lit(1).as('one')))),
      ]) {
        const error = await waiting.then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(error).toBeInstanceOf(DatabaseBusyError);
        expect(isDatabaseBusy(error)).toBe(true);
      }
      release();
      await held;
      expect(await sql.query(qb.selectNoFrom((eb) => eb.lit(1).as('one')))).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
      await db.cleanup();
    }
  });
});
