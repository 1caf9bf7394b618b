import { randomUUID } from 'node:crypto';
import { ErrorKeys } from '@store/contract';
import { type LedgerAccount, Prisma, prismaQueryable, qb } from '@store/db';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  createLedgerService,
  creditCustomer,
  InsufficientFundsError,
  type Transfer,
  transfer,
} from './ledger-service.ts';

let database: TestDatabase;
let ledger: ReturnType<typeof createLedgerService>;

beforeAll(async () => {
  database = await createTestDatabase();
  ledger = createLedgerService({ sql: database.sql });
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

const move = (t: Transfer) => database.sql.transaction((tx) => transfer(tx, t));
const adjust = (userId: string, amountMinor: number, key = `test:${randomUUID()}`) =>
  move({ key, kind: 'ADJUSTMENT', from: accounts.adjustments, to: accounts.balance(userId), amountMinor });
const spend = (userId: string, amountMinor: number, key = `spend:${randomUUID()}`) =>
  move({ key, kind: 'SPEND', from: accounts.balance(userId), to: accounts.revenue, amountMinor });

async function customerState(userId: string) {
  const user = await db().user.findUniqueOrThrow({ where: { id: userId } });
  return { balanceMinor: Number(user.balanceMinor), owedMinor: Number(user.owedMinor) };
}

/** The invariant, checked after every test that moves money. */
async function expectBooksBalance() {
  expect(await ledger.verifyBooks()).toEqual([]);
}

describe('the ledger', () => {
  it('moves once per key, however often it is asked, and writes both legs', async () => {
    const user = await createCustomer();
    const key = `test:${randomUUID()}`;
    expect((await adjust(user.id, 5_000, key)).moved).toBe(true);
    expect((await adjust(user.id, 5_000, key)).moved).toBe(false);
    const again = await Promise.all(Array.from({ length: 10 }, () => adjust(user.id, 5_000, key)));
    expect(again.filter((result) => result.moved)).toEqual([]);
    expect(await customerState(user.id)).toEqual({ balanceMinor: 5_000, owedMinor: 0 });
    const made = await db().ledgerTransfer.findUniqueOrThrow({
      where: { idempotencyKey: key },
      include: { entries: true },
    });
    expect(made.entries.map((entry) => [entry.account, Number(entry.amountMinor)]).sort()).toEqual([
      ['ADJUSTMENTS', -5_000],
      ['CUSTOMER_BALANCE', 5_000],
    ]);
    await expectBooksBalance();
  });

  it('moves once when the same key arrives concurrently', async () => {
    const user = await createCustomer();
    const key = `test:${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 10 }, () => adjust(user.id, 700, key)));
    expect(results.filter((result) => result.moved)).toHaveLength(1);
    expect((await customerState(user.id)).balanceMinor).toBe(700);
    await expectBooksBalance();
  });

  it('never takes the balance below zero, and leaves no transfer for a refused spend', async () => {
    const user = await createCustomer();
    await adjust(user.id, 1_000);
    const refused = await spend(user.id, 1_001).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(InsufficientFundsError);
    expect((refused as InsufficientFundsError).errors).toEqual({ balance: [ErrorKeys.insufficientFunds] });
    expect((await customerState(user.id)).balanceMinor).toBe(1_000);
    expect(await db().ledgerEntry.count({ where: { userId: user.id } })).toBe(1);
    expect((await spend(user.id, 1_000)).moved).toBe(true);
    expect((await customerState(user.id)).balanceMinor).toBe(0);
    await expectBooksBalance();
  });

  it('lets exactly as many concurrent spends through as the balance covers', async () => {
    const user = await createCustomer();
    await adjust(user.id, 100);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => spend(user.id, 10)));
    const succeeded = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result) => result.status === 'rejected');
    expect(succeeded).toHaveLength(10);
    expect(refused.every((result) => result.reason instanceof InsufficientFundsError)).toBe(true);
    expect((await customerState(user.id)).balanceMinor).toBe(0);
    const sum = await db().ledgerEntry.aggregate({ where: { userId: user.id }, _sum: { amountMinor: true } });
    expect(sum._sum.amountMinor).toBe(0n);
    await expectBooksBalance();
  });

  it('keeps a balance past 2^31 minor units exactly', async () => {
    const user = await createCustomer();
    await adjust(user.id, 2_147_483_000);
    await adjust(user.id, 999_999_900);
    expect((await customerState(user.id)).balanceMinor).toBe(3_147_482_900);
    expect((await spend(user.id, 3_147_482_899)).moved).toBe(true);
    expect((await customerState(user.id)).balanceMinor).toBe(1);
    await expectBooksBalance();
  });

  it('lets a debt grow on the receivable, and pays it first from money that reaches the balance', async () => {
    const user = await createCustomer();
    await move({
      key: `test:${randomUUID()}`,
      kind: 'PROVIDER_REFUND',
      from: accounts.receivable(user.id),
      to: accounts.clearing('sandbox'),
      amountMinor: 1_500,
    });
    expect(await customerState(user.id)).toEqual({ balanceMinor: 0, owedMinor: 1_500 });

    const credit = (amountMinor: number) =>
      database.sql.transaction((tx) =>
        creditCustomer(tx, {
          userId: user.id,
          key: `topup:${randomUUID()}`,
          kind: 'TOPUP',
          from: accounts.clearing('sandbox'),
          amountMinor,
        }),
      );
    expect(await credit(1_000)).toEqual({ moved: true, settledMinor: 1_000 });
    expect(await customerState(user.id)).toEqual({ balanceMinor: 0, owedMinor: 500 });
    expect(await credit(2_000)).toEqual({ moved: true, settledMinor: 500 });
    expect(await customerState(user.id)).toEqual({ balanceMinor: 1_500, owedMinor: 0 });
    await expectBooksBalance();
  });

  it('refuses amounts that are not positive whole minor units, and a transfer between two customers', async () => {
    const user = await createCustomer();
    const other = await createCustomer();
    for (const amountMinor of [0, -5, 1.5]) {
      await expect(adjust(user.id, amountMinor)).rejects.toThrow(RangeError);
    }
    await expect(
      move({
        key: `test:${randomUUID()}`,
        kind: 'ADJUSTMENT',
        from: accounts.balance(user.id),
        to: accounts.balance(other.id),
        amountMinor: 1,
      }),
    ).rejects.toThrow(RangeError);
  });

  it('finds a cached balance or debt that is not its ledger, and a transfer whose legs do not sum to zero', async () => {
    const user = await createCustomer();
    const key = `test:${randomUUID()}`;
    await adjust(user.id, 250, key);
    const statement = await ledger.statement(user.id);
    expect(statement).toMatchObject({ balanceMinor: 250, owedMinor: 0 });
    expect(statement.entries).toEqual([
      expect.objectContaining({
        kind: 'ADJUSTMENT',
        account: 'CUSTOMER_BALANCE',
        amountMinor: 250,
        idempotencyKey: key,
      }),
    ]);

    await db().user.update({ where: { id: user.id }, data: { balanceMinor: 999, owedMinor: 5 } });
    expect(await ledger.verifyBooks()).toEqual([
      { kind: 'balance_mismatch', userId: user.id, email: user.email, cachedMinor: 999, ledgerMinor: 250 },
      { kind: 'owed_mismatch', userId: user.id, email: user.email, cachedMinor: 5, ledgerMinor: 0 },
    ]);
    await db().user.update({ where: { id: user.id }, data: { balanceMinor: 250, owedMinor: 0 } });

    const leg = await db().ledgerEntry.findFirstOrThrow({
      where: { transfer: { idempotencyKey: key }, account: 'ADJUSTMENTS' },
    });
    await db().ledgerEntry.update({ where: { id: leg.id }, data: { amountMinor: -249n } });
    expect(await ledger.verifyBooks()).toEqual([
      expect.objectContaining({ kind: 'unbalanced_transfer', key, legs: 2, sumMinor: 1 }),
      { kind: 'books_not_zero', sumMinor: 1 },
    ]);
    await db().ledgerEntry.update({ where: { id: leg.id }, data: { amountMinor: -250n } });
    await expectBooksBalance();
  });

  it('holds the shape of the books in the database', async () => {
    const user = await createCustomer();
    const made = await db().ledgerTransfer.create({
      data: { idempotencyKey: `test:${randomUUID()}`, kind: 'ADJUSTMENT', amountMinor: 1n },
    });
    const insert = (account: LedgerAccount, userId: string | null, provider: string | null, amount: number) =>
      prismaQueryable(db()).execute(
        qb.insertInto('ledger_entries').values({
          id: randomUUID(),
          transfer_id: made.id,
          account,
          user_id: userId,
          provider,
          amount_minor: amount,
        }),
      );
    for (const [account, userId, provider, amount] of [
      ['CUSTOMER_BALANCE', null, null, 1],
      ['CUSTOMER_RECEIVABLE', user.id, 'sandbox', 1],
      ['PROVIDER_CLEARING', null, null, 1],
      ['REVENUE', user.id, null, 1],
      ['REVENUE', null, null, 0],
    ] as const) {
      await expect(insert(account, userId, provider, amount)).rejects.toThrow(Prisma.PrismaClientKnownRequestError);
    }
    await expect(
      db().ledgerTransfer.create({
        data: { idempotencyKey: `test:${randomUUID()}`, kind: 'ADJUSTMENT', amountMinor: 0n },
      }),
    ).rejects.toThrow();
    const viaPrisma = prismaQueryable(db());
    await expect(
      viaPrisma.execute(qb.updateTable('users').set({ balance_minor: -1 }).where('id', '=', user.id)),
    ).rejects.toThrow();
    await expect(
      viaPrisma.execute(qb.updateTable('users').set({ owed_minor: -1 }).where('id', '=', user.id)),
    ).rejects.toThrow();
    await db().ledgerTransfer.delete({ where: { id: made.id } });
  });
});
