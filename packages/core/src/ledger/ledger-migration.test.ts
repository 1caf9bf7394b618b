import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createDatabase,
  type Database,
  migrate,
  migratePostgres,
  openPglite,
  pgliteExecutor,
  readMigrations,
} from '@store/db';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedgerService } from './ledger-service.ts';

/**
 * The migration that made the ledger double-entry, run over books kept the old way (one signed row
 * per customer movement, none for money that never touched a balance): every old row becomes a
 * transfer with its other leg, purchases paid through a provider and payments it refunded get the
 * transfers they never had, and the books balance afterwards.
 */

const DOUBLE_ENTRY = '20261130000000_double_entry_ledger';

let testDb: TestDatabase | undefined;
let pgliteDir: string | undefined;
let database: Database;

const ids = {
  a: randomUUID(),
  b: randomUUID(),
  c: randomUUID(),
  topUp: randomUUID(),
  spend: randomUUID(),
  partial: randomUUID(),
  refunded: randomUUID(),
  topUpPayment: randomUUID(),
  spendPayment: randomUUID(),
  partialPayment: randomUUID(),
  secondPayment: randomUUID(),
  refundedPayment: randomUUID(),
};

/** The old books: what a store had before the migration, a statement at a time. */
async function writeOldBooks(run: (statement: string) => Promise<unknown>) {
  const statements = `
    INSERT INTO users (id, email, name, password_hash, balance_minor, updated_at) VALUES
      ('${ids.a}', 'a.${ids.a}@example.com', 'A', 'x', 15000, now()),
      ('${ids.b}', 'b.${ids.b}@example.com', 'B', 'x', 14300, now()),
      ('${ids.c}', 'c.${ids.c}@example.com', 'C', 'x', 0, now());
    INSERT INTO orders (id, user_id, type, status, subtotal_minor, total_minor, refunded_minor, paid_at, updated_at) VALUES
      ('${ids.topUp}', '${ids.a}', 'BALANCE', 'FULFILLED', 20000, 20000, 0, now(), now()),
      ('${ids.spend}', '${ids.a}', 'SPENDING', 'FULFILLED', 5000, 5000, 0, now(), now()),
      ('${ids.partial}', '${ids.b}', 'PURCHASE', 'PARTIALLY_REFUNDED', 10000, 10000, 4000, now(), now()),
      ('${ids.refunded}', '${ids.c}', 'PURCHASE', 'REFUNDED', 10000, 10000, 10000, now(), now());
    INSERT INTO payments (id, order_id, provider, method, status, amount_minor, currency, updated_at) VALUES
      ('${ids.topUpPayment}', '${ids.topUp}', 'sandbox', 'CARD', 'SUCCEEDED', 20000, 'BRL', now()),
      ('${ids.spendPayment}', '${ids.spend}', 'balance', 'BALANCE', 'SUCCEEDED', 5000, 'BRL', now()),
      ('${ids.partialPayment}', '${ids.partial}', 'sandbox', 'WIDGET', 'SUCCEEDED', 10000, 'BRL', now()),
      ('${ids.secondPayment}', '${ids.partial}', 'sandbox', 'CARD', 'SUCCEEDED', 10000, 'BRL', now()),
      ('${ids.refundedPayment}', '${ids.refunded}', 'sandbox', 'CARD', 'REFUNDED', 10000, 'BRL', now());
    UPDATE orders SET payment_id = '${ids.topUpPayment}' WHERE id = '${ids.topUp}';
    UPDATE orders SET payment_id = '${ids.spendPayment}' WHERE id = '${ids.spend}';
    UPDATE orders SET payment_id = '${ids.partialPayment}' WHERE id = '${ids.partial}';
    UPDATE orders SET payment_id = '${ids.refundedPayment}' WHERE id = '${ids.refunded}';
    INSERT INTO ledger_entries (id, user_id, order_id, kind, amount_minor, idempotency_key) VALUES
      (gen_random_uuid(), '${ids.a}', '${ids.topUp}', 'TOPUP', 20000, 'topup:${ids.topUp}'),
      (gen_random_uuid(), '${ids.a}', '${ids.spend}', 'SPEND', -5000, 'spend:${ids.spend}'),
      (gen_random_uuid(), '${ids.b}', '${ids.partial}', 'REFUND', 4000, 'refund:${ids.partial}:shortfall'),
      (gen_random_uuid(), '${ids.b}', '${ids.partial}', 'REFUND', 10000, 'refund:${ids.partial}:payment:${ids.secondPayment}'),
      (gen_random_uuid(), '${ids.b}', NULL, 'ADJUSTMENT', 300, 'adjustment:${ids.b}')`;
  for (const statement of statements.split(';')) await run(statement);
}

/** Migrates up to the double-entry migration, writes the old books, and opens the store's database on them. */
beforeAll(async () => {
  const migrations = readMigrations();
  const before = migrations.filter((migration) => migration.name < DOUBLE_ENTRY);
  testDb = await createTestDatabase({ migrate: false });
  if (testDb.url) {
    await migratePostgres(testDb.url, before);
    const old = testDb.prisma;
    await writeOldBooks((statement) => old.$executeRawUnsafe(statement));
    database = await createDatabase({ databaseUrl: testDb.url, poolSize: 2 });
  } else {
    pgliteDir = await mkdtemp(path.join(tmpdir(), 'ledger-migration-'));
    const pglite = await openPglite(pgliteDir);
    try {
      await migrate(pgliteExecutor(pglite), before);
      await writeOldBooks((statement) => pglite.exec(statement));
    } finally {
      await pglite.close();
    }
    database = await createDatabase({ dataDir: pgliteDir });
  }
});
afterAll(async () => {
  await database?.close();
  await testDb?.cleanup();
  if (pgliteDir) await rm(pgliteDir, { recursive: true, force: true });
});

describe('the double-entry migration', () => {
  it('turns the old books into balanced transfers, keeping every balance', async () => {
    const ledger = createLedgerService({ sql: database.sql });
    expect(await ledger.verifyBooks()).toEqual([]);
    const users = await database.prisma.user.findMany({ where: { id: { in: [ids.a, ids.b, ids.c] } } });
    expect(Object.fromEntries(users.map((user) => [user.name, Number(user.balanceMinor)]))).toEqual({
      A: 15_000,
      B: 14_300,
      C: 0,
    });
    const totals = Object.fromEntries(
      (await ledger.accountTotals()).map((total) => [
        total.provider ? `${total.account}:${total.provider}` : total.account,
        total.balanceMinor,
      ]),
    );
    expect(totals).toEqual({
      ADJUSTMENTS: -300,
      CUSTOMER_BALANCE: 29_300,
      'PROVIDER_CLEARING:sandbox': -40_000,
      REFUNDS: -14_000,
      REVENUE: 25_000,
    });
  });

  it('names the payment each movement follows from, so that a refund of it can be reversed later', async () => {
    const transfers = await database.prisma.ledgerTransfer.findMany({ include: { entries: true } });
    const byKey = new Map(transfers.map((t) => [t.idempotencyKey, t]));
    const legs = (key: string) =>
      byKey
        .get(key)
        ?.entries.map((entry) => [entry.account, entry.provider ?? entry.userId, Number(entry.amountMinor)])
        .sort();
    expect(byKey.get(`topup:${ids.topUp}`)).toMatchObject({ kind: 'TOPUP', paymentId: ids.topUpPayment });
    expect(legs(`topup:${ids.topUp}`)).toEqual([
      ['CUSTOMER_BALANCE', ids.a, 20_000],
      ['PROVIDER_CLEARING', 'sandbox', -20_000],
    ]);
    expect(byKey.get(`refund:${ids.partial}:payment:${ids.secondPayment}`)).toMatchObject({
      kind: 'REFUND',
      paymentId: ids.secondPayment,
    });
    expect(byKey.get(`refund:${ids.partial}:shortfall`)).toMatchObject({ paymentId: ids.partialPayment });
    expect(legs(`refund:${ids.partial}:shortfall`)).toEqual([
      ['CUSTOMER_BALANCE', ids.b, 4_000],
      ['REFUNDS', null, -4_000],
    ]);
    expect(legs(`purchase:${ids.partialPayment}`)).toEqual([
      ['PROVIDER_CLEARING', 'sandbox', -10_000],
      ['REVENUE', null, 10_000],
    ]);
    expect(legs(`provider-refund:${ids.refundedPayment}:10000`)).toEqual([
      ['PROVIDER_CLEARING', 'sandbox', 10_000],
      ['REFUNDS', null, -10_000],
    ]);
    const refunded = await database.prisma.payment.findUniqueOrThrow({ where: { id: ids.refundedPayment } });
    expect(refunded.refundedMinor).toBe(10_000n);
  });
});
