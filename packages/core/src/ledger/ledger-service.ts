import { randomUUID } from 'node:crypto';
import { ErrorKeys } from '@store/contract';
import {
  type LedgerAccount,
  type LedgerTransferKind,
  Prisma,
  type PrismaClient,
  type Queryable,
  sqlOf,
} from '@store/db';
import { ValidationError } from '../shared/errors.ts';

/**
 * The books, double-entry. Every movement of money is one transfer from one account to another under
 * an idempotency key naming what it belongs to: a `ledger_transfers` row and its two legs in
 * `ledger_entries` (-amount on the account it leaves, +amount on the one it reaches), written in the
 * transaction that changes what the money pays for. A key applied before is a no-op, so a retried or
 * duplicated completion never moves money twice. The legs of every transfer sum to zero, and so do
 * all accounts together.
 *
 * The customer's two accounts are cached on their row, in the same statement as the legs:
 * `users.balance_minor` (their balance account, never below zero) and `users.owed_minor` (minus their
 * receivable account: what they owe). The store's own accounts are not cached (every checkout writes
 * to revenue; a cached total would be one row that every checkout waits for): their balances are sums.
 *
 * Where each kind of transfer goes (TigerBeetle's and pgledger's model, with our accounts):
 *
 *   TOPUP            provider clearing -> customer balance   a top-up paid through the provider
 *   PURCHASE         provider clearing -> revenue            goods paid through the provider
 *   SPEND            customer balance  -> revenue            goods paid from the balance
 *   REFUND           refunds           -> customer balance   goods paid back to the balance
 *   UNAPPLIED        provider clearing -> suspense           money taken that bought nothing (a second
 *                                                            charge of one order), until it goes back
 *   PROVIDER_REFUND  balance | receivable | suspense | refunds -> provider clearing
 *   CHARGEBACK       the same, when the card's bank took it back
 *   SETTLEMENT       customer balance  -> customer receivable   money on the balance pays a debt
 *   ADJUSTMENT       adjustments <-> customer balance        an operator's correction
 */

/** An account of the books: the customer's two, a provider's clearing account, the store's own. */
export type Account =
  | { account: 'CUSTOMER_BALANCE' | 'CUSTOMER_RECEIVABLE'; userId: string }
  | { account: 'PROVIDER_CLEARING'; provider: string }
  | { account: 'REVENUE' | 'REFUNDS' | 'SUSPENSE' | 'ADJUSTMENTS' };

export const accounts = {
  balance: (userId: string): Account => ({ account: 'CUSTOMER_BALANCE', userId }),
  receivable: (userId: string): Account => ({ account: 'CUSTOMER_RECEIVABLE', userId }),
  clearing: (provider: string): Account => ({ account: 'PROVIDER_CLEARING', provider }),
  revenue: { account: 'REVENUE' } as Account,
  refunds: { account: 'REFUNDS' } as Account,
  suspense: { account: 'SUSPENSE' } as Account,
  adjustments: { account: 'ADJUSTMENTS' } as Account,
};

/** The idempotency keys: what each movement belongs to, so that it happens once. */
export const ledgerKeys = {
  topUp: (orderId: string) => `topup:${orderId}`,
  purchase: (paymentId: string) => `purchase:${paymentId}`,
  spend: (orderId: string) => `spend:${orderId}`,
  /** `reason` tells refunds of one order apart: `shortfall`, `operator`... */
  refund: (orderId: string, reason: string) => `refund:${orderId}:${reason}`,
  unapplied: (paymentId: string) => `unapplied:${paymentId}`,
  /**
   * A reversal of a payment up to `total`, the provider's running total of refunds (or chargebacks)
   * of it: each new total is reversed once, whichever event carried it. `part` names one of the
   * transfers a reversal is made of.
   */
  reversal: (kind: 'refund' | 'chargeback', paymentId: string, total: number, part: string) =>
    `${kind === 'refund' ? 'provider-refund' : 'chargeback'}:${paymentId}:${total}:${part}`,
  /** A debt paid from the balance: once per transfer that made the money for it. */
  settlement: (transferKey: string) => `settle:${transferKey}`,
};

/** A short balance: a 422 on `balance`, which the web app answers with the insufficient-funds modal. */
export class InsufficientFundsError extends ValidationError {
  constructor() {
    super({ balance: [ErrorKeys.insufficientFunds] }, 'Your balance is too low for this order.');
  }
}

/**
 * A customer who owes the store (a top-up given back after it was spent) spends nothing from the
 * balance until the debt is paid: a 422 on `balance`.
 */
export class BalanceOwedError extends ValidationError {
  constructor() {
    super(
      { balance: [ErrorKeys.balanceOwed] },
      'Your account owes money for a payment that was given back: top up to settle it before paying from the balance.',
    );
  }
}

export interface Transfer {
  key: string;
  kind: LedgerTransferKind;
  from: Account;
  to: Account;
  /** Minor units, positive: the direction is from -> to. */
  amountMinor: number;
  orderId?: string | null | undefined;
  /** The provider's payment the movement follows from: what a refund of that payment reverses. */
  paymentId?: string | null | undefined;
  /**
   * A spend: taken from the balance only while the customer owes nothing (BalanceOwedError
   * otherwise). Reversals and settlements take from the balance whatever is owed.
   */
  spend?: boolean;
}

function assertAmount(amountMinor: number) {
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) {
    throw new RangeError(`a ledger amount is a positive whole number of minor units, not ${amountMinor}`);
  }
}

function customerOf(account: Account): string | null {
  return 'userId' in account ? account.userId : null;
}

/** A leg's row: the account, its owner and the signed amount. */
function leg(account: Account, signedMinor: number): Prisma.Sql {
  const userId = 'userId' in account ? account.userId : null;
  const provider = 'provider' in account ? account.provider : null;
  return Prisma.sql`(${account.account}::ledger_account, ${userId}::uuid, ${provider}::varchar, ${signedMinor}::bigint)`;
}

/** How much a transfer changes the customer's cached balance and debt, for one side of it. */
function cacheChange(account: Account, signedMinor: number): { balance: number; owed: number } {
  if (account.account === 'CUSTOMER_BALANCE') return { balance: signedMinor, owed: 0 };
  if (account.account === 'CUSTOMER_RECEIVABLE') return { balance: 0, owed: -signedMinor };
  return { balance: 0, owed: 0 };
}

export interface TransferResult {
  /** False when the key was applied before: nothing moved. */
  moved: boolean;
  /** The customer's cached balance and debt after it, when the transfer touched their accounts and moved. */
  customer: { balanceMinor: number; owedMinor: number } | null;
}

/**
 * Moves `amountMinor` from one account to another inside `tx`, once per key: the transfer, its two
 * legs and the customer's cached balance and debt, in one statement. A concurrent call with the same
 * key waits on the key's unique index until the first commits, then finds it taken. Taking from a
 * customer's balance is guarded by the balance it needs (PostgreSQL re-checks it on the newest row
 * after waiting for a concurrent spend): a short balance throws InsufficientFundsError, which rolls
 * the transfer back with the transaction. At most one customer's accounts take part in a transfer.
 */
export async function transfer(tx: Queryable, transfer: Transfer): Promise<TransferResult> {
  assertAmount(transfer.amountMinor);
  const { from, to, amountMinor } = transfer;
  const customers = new Set([customerOf(from), customerOf(to)].filter((id): id is string => id !== null));
  if (customers.size > 1) throw new RangeError('a transfer moves money of one customer at most');
  const [userId] = customers;
  const out = cacheChange(from, -amountMinor);
  const into = cacheChange(to, amountMinor);
  const balanceChange = out.balance + into.balance;
  const owedChange = out.owed + into.owed;
  // Taking from the balance needs that much on it; nothing else is guarded here (a debt may grow).
  const needs = balanceChange < 0 ? -balanceChange : 0;
  const cached = userId
    ? Prisma.sql`, cached AS (
        UPDATE users SET balance_minor = balance_minor + ${balanceChange}::bigint,
                         owed_minor = owed_minor + ${owedChange}::bigint, updated_at = now()
        WHERE id = ${userId}::uuid AND EXISTS (SELECT 1 FROM made) AND balance_minor >= ${needs}::bigint
          AND (${transfer.spend === true} = false OR owed_minor = 0)
        RETURNING balance_minor, owed_minor
      )`
    : Prisma.empty;
  const [row] = await tx.query<{ moved: boolean; balanceMinor: number | null; owedMinor: number | null }>(Prisma.sql`
    WITH made AS (
      INSERT INTO ledger_transfers (id, idempotency_key, kind, amount_minor, order_id, payment_id)
      VALUES (${randomUUID()}::uuid, ${transfer.key}, ${transfer.kind}::ledger_transfer_kind, ${amountMinor}::bigint,
              ${transfer.orderId ?? null}::uuid, ${transfer.paymentId ?? null}::uuid)
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING id
    ), legs AS (
      INSERT INTO ledger_entries (id, transfer_id, account, user_id, provider, amount_minor)
      SELECT gen_random_uuid(), made.id, l.account, l.user_id, l.provider, l.amount
      FROM made, (VALUES ${leg(from, -amountMinor)}, ${leg(to, amountMinor)}) AS l(account, user_id, provider, amount)
    )${cached}
    SELECT EXISTS (SELECT 1 FROM made) AS moved,
           ${userId ? Prisma.sql`(SELECT balance_minor FROM cached)` : Prisma.sql`NULL::bigint`} AS "balanceMinor",
           ${userId ? Prisma.sql`(SELECT owed_minor FROM cached)` : Prisma.sql`NULL::bigint`} AS "owedMinor"`);
  if (!row?.moved) return { moved: false, customer: null };
  if (!userId) return { moved: true, customer: null };
  if (row.balanceMinor === null || row.owedMinor === null) {
    // The guard refused it (or the customer is gone): the statement's transfer is rolled back with `tx`.
    if (transfer.spend) {
      const [owing] = await tx.query<{ owedMinor: number }>(
        Prisma.sql`SELECT owed_minor AS "owedMinor" FROM users WHERE id = ${userId}::uuid`,
      );
      if (owing && owing.owedMinor > 0) throw new BalanceOwedError();
    }
    if (needs > 0) throw new InsufficientFundsError();
    throw new Error(`customer ${userId} does not exist`);
  }
  return { moved: true, customer: { balanceMinor: row.balanceMinor, owedMinor: row.owedMinor } };
}

/**
 * Money that reached a customer's balance pays what they owe first: a SETTLEMENT from the balance to
 * their receivable of as much of the debt as the balance covers, once per `creditKey` (the transfer
 * that brought the money). Call it after a credit, with the customer's state the credit answered.
 * Answers how much was settled.
 */
export async function settleDebt(
  tx: Queryable,
  userId: string,
  customer: { balanceMinor: number; owedMinor: number },
  creditKey: string,
  orderId?: string | null,
): Promise<number> {
  const amountMinor = Math.min(customer.balanceMinor, customer.owedMinor);
  if (amountMinor <= 0) return 0;
  const { moved } = await transfer(tx, {
    key: ledgerKeys.settlement(creditKey),
    kind: 'SETTLEMENT',
    from: accounts.balance(userId),
    to: accounts.receivable(userId),
    amountMinor,
    orderId,
  });
  return moved ? amountMinor : 0;
}

/**
 * Credits the customer's balance from `from` and settles any debt with it: what a top-up and a
 * refund to the balance do. Answers whether the credit moved and what was settled.
 */
export async function creditCustomer(
  tx: Queryable,
  credit: Omit<Transfer, 'to'> & { userId: string },
): Promise<{ moved: boolean; settledMinor: number }> {
  const { userId, ...rest } = credit;
  const result = await transfer(tx, { ...rest, to: accounts.balance(userId) });
  if (!result.moved || !result.customer) return { moved: result.moved, settledMinor: 0 };
  const settledMinor = await settleDebt(tx, userId, result.customer, credit.key, credit.orderId);
  return { moved: true, settledMinor };
}

/**
 * An operator's correction of a customer's balance, once per key: a positive amount is credited from
 * adjustments (and pays any debt first), a negative one taken back to them (never below zero).
 */
export async function adjustBalance(
  tx: Queryable,
  { userId, amountMinor, key }: { userId: string; amountMinor: number; key: string },
): Promise<boolean> {
  if (amountMinor < 0) {
    const taken = await transfer(tx, {
      key,
      kind: 'ADJUSTMENT',
      from: accounts.balance(userId),
      to: accounts.adjustments,
      amountMinor: -amountMinor,
    });
    return taken.moved;
  }
  const credited = await creditCustomer(tx, {
    userId,
    key,
    kind: 'ADJUSTMENT',
    from: accounts.adjustments,
    amountMinor,
  });
  return credited.moved;
}

export interface LedgerEntryView {
  transferId: string;
  orderId: string | null;
  paymentId: string | null;
  kind: LedgerTransferKind;
  account: LedgerAccount;
  /** Signed: what the transfer did to this account. */
  amountMinor: number;
  idempotencyKey: string;
  createdAt: Date;
}

/** Something the books say that they must not: empty when all is right. */
export type LedgerProblem =
  | { kind: 'balance_mismatch'; userId: string; email: string; cachedMinor: number; ledgerMinor: number }
  | { kind: 'owed_mismatch'; userId: string; email: string; cachedMinor: number; ledgerMinor: number }
  | { kind: 'unbalanced_transfer'; transferId: string; key: string; legs: number; sumMinor: number }
  | { kind: 'books_not_zero'; sumMinor: number };

export interface Receivable {
  userId: string;
  email: string;
  owedMinor: number;
  balanceMinor: number;
  since: Date | null;
}

export interface AccountTotal {
  account: LedgerAccount;
  provider: string | null;
  balanceMinor: number;
}

export interface LedgerServiceDeps {
  db: PrismaClient;
}

/** Reading the books and proving them: the operator's view. */
export function createLedgerService({ db }: LedgerServiceDeps) {
  const sql = sqlOf(db);
  return {
    /** The customer's entries (both accounts), newest first, with the balance and debt they add up to. */
    async statement(
      userId: string,
      limit = 100,
    ): Promise<{ balanceMinor: number; owedMinor: number; entries: LedgerEntryView[] }> {
      const [customer] = await sql.query<{ balanceMinor: number; owedMinor: number }>(
        Prisma.sql`SELECT balance_minor AS "balanceMinor", owed_minor AS "owedMinor" FROM users WHERE id = ${userId}::uuid`,
      );
      const entries = await sql.query<LedgerEntryView>(Prisma.sql`
        SELECT t.id AS "transferId", t.order_id AS "orderId", t.payment_id AS "paymentId", t.kind, e.account,
               e.amount_minor AS "amountMinor", t.idempotency_key AS "idempotencyKey", t.created_at AS "createdAt"
        FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
        WHERE e.user_id = ${userId}::uuid
        ORDER BY e.created_at DESC, e.id DESC
        LIMIT ${limit}`);
      return { balanceMinor: customer?.balanceMinor ?? 0, owedMinor: customer?.owedMinor ?? 0, entries };
    },

    /** Customers who owe the store, largest debt first, with when their debt last grew. */
    async receivables(limit = 50): Promise<Receivable[]> {
      return sql.query<Receivable>(Prisma.sql`
        SELECT u.id AS "userId", u.email, u.owed_minor AS "owedMinor", u.balance_minor AS "balanceMinor",
               (SELECT MAX(e.created_at) FROM ledger_entries e
                WHERE e.user_id = u.id AND e.account = 'CUSTOMER_RECEIVABLE' AND e.amount_minor < 0) AS since
        FROM users u WHERE u.owed_minor > 0
        ORDER BY u.owed_minor DESC, u.email
        LIMIT ${limit}`);
    },

    /** Every account's balance: the customers' together by kind, the others one by one. */
    async accountTotals(): Promise<AccountTotal[]> {
      return sql.query<AccountTotal>(Prisma.sql`
        SELECT account, provider, SUM(amount_minor)::bigint AS "balanceMinor"
        FROM ledger_entries GROUP BY account, provider ORDER BY account, provider`);
    },

    /**
     * Proves the books: every customer's cached balance and debt are the sums of their accounts'
     * legs, every transfer has two legs that sum to zero, and all legs together sum to zero.
     */
    async verifyBooks(): Promise<LedgerProblem[]> {
      const customers = await sql.query<{
        userId: string;
        email: string;
        balanceMinor: number;
        owedMinor: number;
        ledgerBalanceMinor: number;
        ledgerOwedMinor: number;
      }>(Prisma.sql`
        SELECT u.id AS "userId", u.email, u.balance_minor AS "balanceMinor", u.owed_minor AS "owedMinor",
               COALESCE(l.balance, 0)::bigint AS "ledgerBalanceMinor", COALESCE(-l.receivable, 0)::bigint AS "ledgerOwedMinor"
        FROM users u
        LEFT JOIN (
          SELECT user_id,
                 SUM(amount_minor) FILTER (WHERE account = 'CUSTOMER_BALANCE') AS balance,
                 SUM(amount_minor) FILTER (WHERE account = 'CUSTOMER_RECEIVABLE') AS receivable
          FROM ledger_entries WHERE user_id IS NOT NULL GROUP BY user_id
        ) l ON l.user_id = u.id
        WHERE u.balance_minor <> COALESCE(l.balance, 0) OR u.owed_minor <> COALESCE(-l.receivable, 0)
        ORDER BY u.email`);
      const problems: LedgerProblem[] = [];
      for (const row of customers) {
        if (row.balanceMinor !== row.ledgerBalanceMinor) {
          problems.push({
            kind: 'balance_mismatch',
            userId: row.userId,
            email: row.email,
            cachedMinor: row.balanceMinor,
            ledgerMinor: row.ledgerBalanceMinor,
          });
        }
        if (row.owedMinor !== row.ledgerOwedMinor) {
          problems.push({
            kind: 'owed_mismatch',
            userId: row.userId,
            email: row.email,
            cachedMinor: row.owedMinor,
            ledgerMinor: row.ledgerOwedMinor,
          });
        }
      }
      const transfers = await sql.query<{ transferId: string; key: string; legs: number; sumMinor: number }>(Prisma.sql`
        SELECT t.id AS "transferId", t.idempotency_key AS key, COUNT(e.id)::int AS legs,
               COALESCE(SUM(e.amount_minor), 0)::bigint AS "sumMinor"
        FROM ledger_transfers t LEFT JOIN ledger_entries e ON e.transfer_id = t.id
        GROUP BY t.id
        HAVING COUNT(e.id) <> 2 OR COALESCE(SUM(e.amount_minor), 0) <> 0
           OR MIN(e.amount_minor) <> -t.amount_minor OR MAX(e.amount_minor) <> t.amount_minor
        ORDER BY t.created_at`);
      for (const row of transfers) problems.push({ kind: 'unbalanced_transfer', ...row });
      const [books] = await sql.query<{ sumMinor: number }>(
        Prisma.sql`SELECT COALESCE(SUM(amount_minor), 0)::bigint AS "sumMinor" FROM ledger_entries`,
      );
      if (books && books.sumMinor !== 0) problems.push({ kind: 'books_not_zero', sumMinor: books.sumMinor });
      return problems;
    },
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
