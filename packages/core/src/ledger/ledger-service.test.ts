import { randomUUID } from 'node:crypto';
import { ErrorKeys } from '@store/contract';
import { Prisma, sqlOf } from '@store/db';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLedgerService,
  creditBalance,
  debitBalance,
  InsufficientFundsError,
  type LedgerPosting,
} from './ledger-service.ts';

let database: TestDatabase;
let ledger: ReturnType<typeof createLedgerService>;

beforeAll(async () => {
  database = await createTestDatabase();
  ledger = createLedgerService({ db: database.prisma });
});
afterAll(async () => {
  await database?.cleanup();
});

const db = () => database.prisma;

async function createCustomer() {
  return db().user.create({
    data: { email: `ledger.${randomUUID()}@example.com`, name: 'Ledger', passwordHash: 'x' },
  });
}

const credit = (posting: LedgerPosting) => sqlOf(db()).transaction((tx) => creditBalance(tx, posting));
const debit = (posting: LedgerPosting) => sqlOf(db()).transaction((tx) => debitBalance(tx, posting));

async function balanceOf(userId: string) {
  return (await db().user.findUniqueOrThrow({ where: { id: userId } })).balanceMinor;
}

/** The invariant, checked after every test that moves money. */
async function expectBalancesMatchLedger() {
  expect(await ledger.findBalanceMismatches()).toEqual([]);
}

describe('the ledger', () => {
  it('credits once per key, however often it is asked', async () => {
    const user = await createCustomer();
    const posting = { userId: user.id, kind: 'ADJUSTMENT' as const, amountMinor: 5_000, key: `test:${randomUUID()}` };
    expect(await credit(posting)).toBe(true);
    expect(await credit(posting)).toBe(false);
    const again = await Promise.all(Array.from({ length: 10 }, () => credit(posting)));
    expect(again.filter(Boolean)).toEqual([]);
    expect(await balanceOf(user.id)).toBe(5_000);
    expect(await db().ledgerEntry.count({ where: { userId: user.id } })).toBe(1);
    await expectBalancesMatchLedger();
  });

  it('credits once when the same key arrives concurrently', async () => {
    const user = await createCustomer();
    const posting = { userId: user.id, kind: 'ADJUSTMENT' as const, amountMinor: 700, key: `test:${randomUUID()}` };
    const results = await Promise.all(Array.from({ length: 10 }, () => credit(posting)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(700);
    await expectBalancesMatchLedger();
  });

  it('never takes the balance below zero, and leaves no entry for a refused debit', async () => {
    const user = await createCustomer();
    await credit({ userId: user.id, kind: 'ADJUSTMENT', amountMinor: 1_000, key: `test:${randomUUID()}` });
    const refused = await debit({
      userId: user.id,
      kind: 'SPEND',
      amountMinor: 1_001,
      key: `spend:${randomUUID()}`,
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(InsufficientFundsError);
    expect((refused as InsufficientFundsError).errors).toEqual({ balance: [ErrorKeys.insufficientFunds] });
    expect(await balanceOf(user.id)).toBe(1_000);
    expect(await db().ledgerEntry.count({ where: { userId: user.id } })).toBe(1);
    expect(await debit({ userId: user.id, kind: 'SPEND', amountMinor: 1_000, key: `spend:${randomUUID()}` })).toBe(
      true,
    );
    expect(await balanceOf(user.id)).toBe(0);
    await expectBalancesMatchLedger();
  });

  it('lets exactly as many concurrent debits through as the balance covers', async () => {
    const user = await createCustomer();
    await credit({ userId: user.id, kind: 'ADJUSTMENT', amountMinor: 100, key: `test:${randomUUID()}` });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        debit({ userId: user.id, kind: 'SPEND', amountMinor: 10, key: `spend:${randomUUID()}` }),
      ),
    );
    const succeeded = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result) => result.status === 'rejected');
    expect(succeeded).toHaveLength(10);
    expect(refused.every((result) => result.reason instanceof InsufficientFundsError)).toBe(true);
    expect(await balanceOf(user.id)).toBe(0);
    const sum = await db().ledgerEntry.aggregate({ where: { userId: user.id }, _sum: { amountMinor: true } });
    expect(sum._sum.amountMinor).toBe(0);
    await expectBalancesMatchLedger();
  });

  it('debits once per key', async () => {
    const user = await createCustomer();
    await credit({ userId: user.id, kind: 'ADJUSTMENT', amountMinor: 100, key: `test:${randomUUID()}` });
    const posting = { userId: user.id, kind: 'SPEND' as const, amountMinor: 30, key: `spend:${randomUUID()}` };
    const results = await Promise.all(Array.from({ length: 5 }, () => debit(posting)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(70);
    await expectBalancesMatchLedger();
  });

  it('refuses amounts that are not positive whole minor units', async () => {
    const user = await createCustomer();
    for (const amountMinor of [0, -5, 1.5]) {
      await expect(
        credit({ userId: user.id, kind: 'TOPUP', amountMinor, key: `test:${randomUUID()}` }),
      ).rejects.toThrow(RangeError);
    }
  });

  it('finds a balance that does not equal its ledger, and the statement shows the entries', async () => {
    const user = await createCustomer();
    await credit({ userId: user.id, kind: 'ADJUSTMENT', amountMinor: 250, key: `test:${randomUUID()}` });
    const statement = await ledger.statement(user.id);
    expect(statement.balanceMinor).toBe(250);
    expect(statement.entries).toEqual([expect.objectContaining({ kind: 'ADJUSTMENT', amountMinor: 250 })]);

    await db().user.update({ where: { id: user.id }, data: { balanceMinor: 999 } });
    expect(await ledger.findBalanceMismatches()).toEqual([
      { userId: user.id, email: user.email, balanceMinor: 999, ledgerMinor: 250 },
    ]);
    await db().user.update({ where: { id: user.id }, data: { balanceMinor: 250 } });
    await expectBalancesMatchLedger();
  });

  it('holds the sign of each kind in the database', async () => {
    const user = await createCustomer();
    const insert = (kind: string, amount: number) =>
      db().$executeRaw`
        INSERT INTO ledger_entries (id, user_id, kind, amount_minor, idempotency_key)
        VALUES (${randomUUID()}::uuid, ${user.id}::uuid, ${kind}::ledger_kind, ${amount}, ${randomUUID()})`;
    for (const [kind, amount] of [
      ['TOPUP', -1],
      ['REFUND', -1],
      ['SPEND', 1],
    ] as const) {
      await expect(insert(kind, amount)).rejects.toThrow(Prisma.PrismaClientKnownRequestError);
    }
    await expect(db().$executeRaw`UPDATE users SET balance_minor = -1 WHERE id = ${user.id}::uuid`).rejects.toThrow();
  });
});
