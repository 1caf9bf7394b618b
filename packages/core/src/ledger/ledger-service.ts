import { randomUUID } from 'node:crypto';
import { ErrorKeys } from '@store/contract';
import {
  type LedgerAccount,
  type LedgerTransferKind,
  prepareEach,
  type Queryable,
  qb,
  type SqlClient,
  sql,
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
  const made: TransferValues = {
    transferId: randomUUID(),
    key: transfer.key,
    kind: transfer.kind,
    amountMinor,
    orderId: transfer.orderId ?? null,
    paymentId: transfer.paymentId ?? null,
    outAccount: from.account,
    outUserId: customerOf(from),
    outProvider: 'provider' in from ? from.provider : null,
    outMinor: -amountMinor,
    inAccount: to.account,
    inUserId: customerOf(to),
    inProvider: 'provider' in to ? to.provider : null,
    inMinor: amountMinor,
  };
  if (!userId) {
    const [row] = await tx.query(transferStatement('store', made));
    return { moved: row?.moved === true, customer: null };
  }
  const [row] = await tx.query(
    transferStatement('customer', {
      ...made,
      userId,
      balanceChange,
      owedChange,
      needs,
      spend: transfer.spend === true,
    }),
  );
  if (!row?.moved) return { moved: false, customer: null };
  if (row.balanceMinor === null || row.owedMinor === null) {
    // The guard refused it (or the customer is gone): the statement's transfer is rolled back with `tx`.
    if (transfer.spend) {
      const [owing] = await tx.query(qb.selectFrom('users').select('owed_minor as owedMinor').where('id', '=', userId));
      if (owing && owing.owedMinor > 0) throw new BalanceOwedError();
    }
    if (needs > 0) throw new InsufficientFundsError();
    throw new Error(`customer ${userId} does not exist`);
  }
  return { moved: true, customer: { balanceMinor: row.balanceMinor, owedMinor: row.owedMinor } };
}

/** What a transfer's statement writes: the transfer's row, and its two legs (leaving, reaching). */
interface TransferValues {
  transferId: string;
  key: string;
  kind: LedgerTransferKind;
  amountMinor: number;
  orderId: string | null;
  paymentId: string | null;
  outAccount: LedgerAccount;
  outUserId: string | null;
  outProvider: string | null;
  outMinor: number;
  inAccount: LedgerAccount;
  inUserId: string | null;
  inProvider: string | null;
  inMinor: number;
}

/** ...and the change of the customer's cached balance and debt, when a customer's account takes part. */
interface CustomerValues {
  userId: string;
  balanceChange: number;
  owedChange: number;
  /** How much the balance must hold: what the transfer takes from it. */
  needs: number;
  spend: boolean;
}

/** A leg of a transfer, as the VALUES list of transferStatement names its columns. */
interface Leg {
  account: LedgerAccount;
  user_id: string | null;
  provider: string | null;
  amount_minor: number;
}

/**
 * The statement of a transfer, prepared once for each shape: the transfer, once per key (`made`),
 * and its two legs in one INSERT ... SELECT from `made`, so they are written only when it was; with
 * a customer's account, their cached balance and debt too (`cached`), guarded by the balance the
 * transfer needs. The legs are a VALUES list whose first row's casts type both rows' columns.
 */
const transferStatement = prepareEach((shape: 'store' | 'customer', a: TransferValues & Partial<CustomerValues>) => {
  const legs =
    sql<Leg>`(values (cast(${a.outAccount} as ledger_account), cast(${a.outUserId} as uuid), ${a.outProvider}, cast(${a.outMinor} as bigint)), (${a.inAccount}, ${a.inUserId}, ${a.inProvider}, ${a.inMinor}))`.as<'leg'>(
      sql`leg(account, user_id, provider, amount_minor)`,
    );
  const made = qb
    .with('made', (db) =>
      db
        .insertInto('ledger_transfers')
        .values({
          id: a.transferId,
          idempotency_key: a.key,
          kind: a.kind,
          amount_minor: a.amountMinor,
          order_id: a.orderId,
          payment_id: a.paymentId,
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .returning('id'),
    )
    .with('legs', (db) =>
      db
        .insertInto('ledger_entries')
        .columns(['id', 'transfer_id', 'account', 'user_id', 'provider', 'amount_minor'])
        .expression((eb) =>
          eb
            .selectFrom(['made', legs])
            .select((eb) => [
              eb.fn<string>('gen_random_uuid').as('id'),
              'made.id as transfer_id',
              'leg.account',
              'leg.user_id',
              'leg.provider',
              'leg.amount_minor',
            ]),
        ),
    );
  if (shape === 'store') {
    return made.selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('made').select(eb.lit(1).as('one'))).as('moved'),
      eb.lit(null).$castTo<number | null>().as('balanceMinor'),
      eb.lit(null).$castTo<number | null>().as('owedMinor'),
    ]);
  }
  const customer = a as TransferValues & CustomerValues;
  return made
    .with('cached', (db) =>
      db
        .updateTable('users')
        .set((eb) => ({
          balance_minor: eb('balance_minor', '+', customer.balanceChange),
          owed_minor: eb('owed_minor', '+', customer.owedChange),
          updated_at: eb.fn('now'),
        }))
        .where('id', '=', customer.userId)
        .where((eb) => eb.exists(eb.selectFrom('made').select(eb.lit(1).as('one'))))
        .where('balance_minor', '>=', customer.needs)
        .where((eb) => eb.or([eb(eb.val(customer.spend), '=', eb.lit(false)), eb('owed_minor', '=', 0)]))
        .returning(['balance_minor', 'owed_minor']),
    )
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('made').select(eb.lit(1).as('one'))).as('moved'),
      eb.selectFrom('cached').select('balance_minor').as('balanceMinor'),
      eb.selectFrom('cached').select('owed_minor').as('owedMinor'),
    ]);
});

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

/** Something the books say that they must not: empty when all is right. */
export type LedgerProblem =
  | { kind: 'balance_mismatch'; userId: string; email: string; cachedMinor: number; ledgerMinor: number }
  | { kind: 'owed_mismatch'; userId: string; email: string; cachedMinor: number; ledgerMinor: number }
  | { kind: 'unbalanced_transfer'; transferId: string; key: string; legs: number; sumMinor: number }
  | { kind: 'books_not_zero'; sumMinor: number };

export interface AccountTotal {
  account: LedgerAccount;
  provider: string | null;
  balanceMinor: number;
}

export interface LedgerServiceDeps {
  sql: SqlClient;
}

/** Reading the books and proving them: the operator's view. */
export function createLedgerService({ sql }: LedgerServiceDeps) {
  return {
    /**
     * The customer's entries (both accounts), newest first, with the balance and debt they add up to.
     * An entry's amount is signed: what its transfer did to that account.
     */
    async statement(userId: string, limit = 100) {
      const [customer] = await sql.query(
        qb
          .selectFrom('users')
          .select(['balance_minor as balanceMinor', 'owed_minor as owedMinor'])
          .where('id', '=', userId),
      );
      const entries = await sql.query(
        qb
          .selectFrom('ledger_entries as e')
          .innerJoin('ledger_transfers as t', 't.id', 'e.transfer_id')
          .select([
            't.id as transferId',
            't.order_id as orderId',
            't.payment_id as paymentId',
            't.kind',
            'e.account',
            'e.amount_minor as amountMinor',
            't.idempotency_key as idempotencyKey',
            't.created_at as createdAt',
          ])
          .where('e.user_id', '=', userId)
          .orderBy('e.created_at', 'desc')
          .orderBy('e.id', 'desc')
          .limit(limit),
      );
      return { balanceMinor: customer?.balanceMinor ?? 0, owedMinor: customer?.owedMinor ?? 0, entries };
    },

    /** Customers who owe the store, largest debt first, with when their debt last grew. */
    async receivables(limit = 50) {
      return sql.query(
        qb
          .selectFrom('users as u')
          .select((eb) => [
            'u.id as userId',
            'u.email',
            'u.owed_minor as owedMinor',
            'u.balance_minor as balanceMinor',
            eb
              .selectFrom('ledger_entries as e')
              .select((eb) => eb.fn.max('e.created_at').as('since'))
              .whereRef('e.user_id', '=', 'u.id')
              .where('e.account', '=', 'CUSTOMER_RECEIVABLE')
              .where('e.amount_minor', '<', eb.lit(0))
              .as('since'),
          ])
          .where((eb) => eb('u.owed_minor', '>', eb.lit(0)))
          .orderBy('u.owed_minor', 'desc')
          .orderBy('u.email')
          .limit(limit),
      );
    },

    /** Every account's balance: the customers' together by kind, the others one by one. */
    async accountTotals(): Promise<AccountTotal[]> {
      return sql.query(
        qb
          .selectFrom('ledger_entries')
          .select((eb) => [
            'account',
            'provider',
            eb.cast<number>(eb.fn.sum('amount_minor'), 'bigint').as('balanceMinor'),
          ])
          .groupBy(['account', 'provider'])
          .orderBy('account')
          .orderBy('provider'),
      );
    },

    /**
     * Proves the books: every customer's cached balance and debt are the sums of their accounts'
     * legs, every transfer has two legs that sum to zero, and all legs together sum to zero.
     */
    async verifyBooks(): Promise<LedgerProblem[]> {
      const customers = await sql.query(
        qb
          .selectFrom('users as u')
          .leftJoin(
            (eb) =>
              eb
                .selectFrom('ledger_entries')
                .select((eb) => [
                  'user_id',
                  eb.fn.sum<number>('amount_minor').filterWhere('account', '=', 'CUSTOMER_BALANCE').as('balance'),
                  eb.fn.sum<number>('amount_minor').filterWhere('account', '=', 'CUSTOMER_RECEIVABLE').as('receivable'),
                ])
                .where('user_id', 'is not', null)
                .groupBy('user_id')
                .as('l'),
            (join) => join.onRef('l.user_id', '=', 'u.id'),
          )
          .select((eb) => [
            'u.id as userId',
            'u.email',
            'u.balance_minor as balanceMinor',
            'u.owed_minor as owedMinor',
            eb.cast<number>(eb.fn.coalesce('l.balance', eb.lit(0)), 'bigint').as('ledgerBalanceMinor'),
            eb.cast<number>(eb.fn.coalesce(eb.neg(eb.ref('l.receivable')), eb.lit(0)), 'bigint').as('ledgerOwedMinor'),
          ])
          .where((eb) =>
            eb.or([
              eb('u.balance_minor', '<>', eb.fn.coalesce('l.balance', eb.lit(0))),
              eb('u.owed_minor', '<>', eb.fn.coalesce(eb.neg(eb.ref('l.receivable')), eb.lit(0))),
            ]),
          )
          .orderBy('u.email'),
      );
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
      const transfers = await sql.query(
        qb
          .selectFrom('ledger_transfers as t')
          .leftJoin('ledger_entries as e', 'e.transfer_id', 't.id')
          .select((eb) => [
            't.id as transferId',
            't.idempotency_key as key',
            eb.cast<number>(eb.fn.count('e.id'), 'integer').as('legs'),
            eb.cast<number>(eb.fn.coalesce(eb.fn.sum('e.amount_minor'), eb.lit(0)), 'bigint').as('sumMinor'),
          ])
          .groupBy('t.id')
          .having((eb) =>
            eb.or([
              eb(eb.fn.count('e.id'), '<>', eb.lit(2)),
              eb(eb.fn.coalesce(eb.fn.sum('e.amount_minor'), eb.lit(0)), '<>', eb.lit(0)),
              eb(eb.fn.min('e.amount_minor'), '<>', eb.neg(eb.ref('t.amount_minor'))),
              eb(eb.fn.max('e.amount_minor'), '<>', eb.ref('t.amount_minor')),
            ]),
          )
          .orderBy('t.created_at'),
      );
      for (const row of transfers) problems.push({ kind: 'unbalanced_transfer', ...row });
      const [books] = await sql.query(
        qb
          .selectFrom('ledger_entries')
          .select((eb) =>
            eb.cast<number>(eb.fn.coalesce(eb.fn.sum('amount_minor'), eb.lit(0)), 'bigint').as('sumMinor'),
          ),
      );
      if (books && books.sumMinor !== 0) problems.push({ kind: 'books_not_zero', sumMinor: books.sumMinor });
      return problems;
    },
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
