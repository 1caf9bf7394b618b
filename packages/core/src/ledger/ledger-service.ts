import { randomUUID } from 'node:crypto';
import { ErrorKeys } from '@store/contract';
import { type LedgerKind, Prisma, type PrismaClient, type Queryable } from '@store/db';
import { ValidationError } from '../shared/errors.ts';

/**
 * The balance is its ledger. Every credit and debit is a `ledger_entries` row under an idempotency
 * key naming what it belongs to, and `users.balance_minor` moves in the same transaction by the same
 * amount, so it always equals the sum of the rows. A key applied before is a no-op: a retried or
 * duplicated completion never credits or debits twice.
 */
export const ledgerKeys = {
  topUp: (orderId: string) => `topup:${orderId}`,
  spend: (orderId: string) => `spend:${orderId}`,
  /** `reason` tells refunds of one order apart: `shortfall`, `operator`, `payment:<id>`. */
  refund: (orderId: string, reason: string) => `refund:${orderId}:${reason}`,
};

/** A short balance: a 422 on `balance`, which the web app answers with the insufficient-funds modal. */
export class InsufficientFundsError extends ValidationError {
  constructor() {
    super({ balance: [ErrorKeys.insufficientFunds] }, 'Your balance is too low for this order.');
  }
}

export interface LedgerPosting {
  userId: string;
  orderId?: string | null;
  kind: LedgerKind;
  /** The amount moved, in minor units, always positive: the direction is the call's. */
  amountMinor: number;
  key: string;
}

export interface BalanceMismatch {
  userId: string;
  email: string;
  balanceMinor: number;
  ledgerMinor: number;
}

export interface LedgerEntryView {
  id: string;
  orderId: string | null;
  kind: LedgerKind;
  amountMinor: number;
  idempotencyKey: string;
  createdAt: Date;
}

function assertAmount(amountMinor: number) {
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) {
    throw new RangeError(`a ledger amount is a positive whole number of minor units, not ${amountMinor}`);
  }
}

/** The entry under `key`, unless one exists already. True when it was written now. */
async function writeEntry(tx: Queryable, posting: LedgerPosting, signedMinor: number) {
  const rows = await tx.query<{ id: string }>(Prisma.sql`
    INSERT INTO ledger_entries (id, user_id, order_id, kind, amount_minor, idempotency_key)
    VALUES (${randomUUID()}::uuid, ${posting.userId}::uuid, ${posting.orderId ?? null}::uuid,
            ${posting.kind}::ledger_kind, ${signedMinor}, ${posting.key})
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id`);
  return rows.length === 1;
}

/**
 * Adds to the balance inside `tx`. False when the key was applied before (nothing changes). A
 * concurrent call with the same key waits on the key's unique index until the first commits, then
 * finds it taken.
 */
export async function creditBalance(tx: Queryable, posting: LedgerPosting): Promise<boolean> {
  assertAmount(posting.amountMinor);
  if (!(await writeEntry(tx, posting, posting.amountMinor))) return false;
  await tx.execute(Prisma.sql`
    UPDATE users SET balance_minor = balance_minor + ${posting.amountMinor}, updated_at = now()
    WHERE id = ${posting.userId}::uuid`);
  return true;
}

/**
 * Takes from the balance inside `tx`, never below zero: the update is guarded by the balance it
 * needs, which PostgreSQL re-checks on the newest row after waiting for a concurrent spend. A short
 * balance throws InsufficientFundsError, which rolls the entry back with the transaction. False when
 * the key was applied before.
 */
export async function debitBalance(tx: Queryable, posting: LedgerPosting): Promise<boolean> {
  assertAmount(posting.amountMinor);
  if (!(await writeEntry(tx, posting, -posting.amountMinor))) return false;
  const debited = await tx.execute(Prisma.sql`
    UPDATE users SET balance_minor = balance_minor - ${posting.amountMinor}, updated_at = now()
    WHERE id = ${posting.userId}::uuid AND balance_minor >= ${posting.amountMinor}`);
  if (debited !== 1) throw new InsufficientFundsError();
  return true;
}

export interface LedgerServiceDeps {
  db: PrismaClient;
}

/** Reading the ledger and proving the balances: the operator's view. */
export function createLedgerService({ db }: LedgerServiceDeps) {
  return {
    /** The customer's entries, newest first, and the balance they add up to. */
    async statement(userId: string, limit = 100): Promise<{ balanceMinor: number; entries: LedgerEntryView[] }> {
      const [user, entries] = await Promise.all([
        db.user.findUnique({ where: { id: userId }, select: { balanceMinor: true } }),
        db.ledgerEntry.findMany({
          where: { userId },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: limit,
          select: { id: true, orderId: true, kind: true, amountMinor: true, idempotencyKey: true, createdAt: true },
        }),
      ]);
      return { balanceMinor: user?.balanceMinor ?? 0, entries };
    },

    /** Every customer whose balance is not the sum of their ledger: empty when all is right. */
    async findBalanceMismatches(): Promise<BalanceMismatch[]> {
      const rows = await db.$queryRaw<
        Array<{ user_id: string; email: string; balance_minor: number; ledger_minor: bigint | number }>
      >`
        SELECT u.id AS user_id, u.email, u.balance_minor, COALESCE(l.total, 0)::bigint AS ledger_minor
        FROM users u
        LEFT JOIN (SELECT user_id, SUM(amount_minor) AS total FROM ledger_entries GROUP BY user_id) l
          ON l.user_id = u.id
        WHERE u.balance_minor <> COALESCE(l.total, 0)
        ORDER BY u.email`;
      return rows.map((row) => ({
        userId: row.user_id,
        email: row.email,
        balanceMinor: row.balance_minor,
        ledgerMinor: Number(row.ledger_minor),
      }));
    },
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
