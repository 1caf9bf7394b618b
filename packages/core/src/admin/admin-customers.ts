import {
  ADMIN_PAGE_SIZE,
  type AdminCustomer,
  type AdminCustomerDetail,
  type AdminCustomerPage,
  type AdminLedgerEntry,
  type BalanceAdjustBody,
  type BalanceAdjustResponse,
  type CustomerActionResponse,
  type CustomerSearchQuery,
  ErrorKeys,
} from '@store/contract';
import { int8ToNumber, type Queryable, qb, type SqlClient } from '@store/db';
import { adjustBalance, InsufficientFundsError } from '../ledger/ledger-service.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import type { AdminOrders } from './admin-orders.ts';
import { type AuditActor, writeAudit } from './audit-log.ts';

/** Orders and ledger entries the customer's page shows, newest first. */
const LATEST_ORDERS = 20;
const LATEST_ENTRIES = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

const CUSTOMER_COLUMNS = [
  'id',
  'email',
  'name',
  'locale',
  'email_verified_at',
  'balance_minor',
  'owed_minor',
  'created_at',
  'blocked_at',
  'deleted_at',
] as const;

interface CustomerRow {
  id: string;
  email: string;
  name: string;
  locale: string;
  email_verified_at: Date | null;
  balance_minor: number;
  owed_minor: number;
  created_at: Date;
  blocked_at: Date | null;
  deleted_at: Date | null;
}

function customerView(row: CustomerRow): AdminCustomer {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    locale: row.locale,
    email_verified: row.email_verified_at !== null,
    balance_minor: row.balance_minor,
    owed_minor: row.owed_minor,
    created_at: new Date(row.created_at).toISOString(),
    blocked_at: iso(row.blocked_at),
    deleted_at: iso(row.deleted_at),
  };
}

/** The ledger key of a balance adjustment: the console's form names it. */
export function adjustmentKey(idempotencyKey: string): string {
  return `adjustment:${idempotencyKey.toLowerCase()}`;
}

/** Checks a staff member's fresh TOTP code in the caller's transaction and uses it up there. */
export type FreshTotpCheck = (tx: Queryable, staffId: string, code: string) => Promise<void>;

export interface AdminCustomersDeps {
  sql: SqlClient;
  adminOrders: Pick<AdminOrders, 'ofCustomer'>;
  /** The staff service's check; without it (no code key) balances cannot be adjusted. */
  freshTotp: FreshTotpCheck | undefined;
  clock?: () => Date;
}

/**
 * The console's customers: search, the customer's page, balance adjustments, ending their sessions,
 * blocking and unblocking. Each change writes its audit row in its own transaction.
 */
export function createAdminCustomers({ sql, adminOrders, freshTotp, clock = () => new Date() }: AdminCustomersDeps) {
  function filtered(query: CustomerSearchQuery) {
    let statement = qb.selectFrom('users');
    if (query.q) {
      const q = query.q;
      const pattern = `%${q.replace(/[\\%_]/g, '\\$&')}%`;
      statement = statement.where((eb) =>
        eb.or([
          eb('email', 'ilike', pattern),
          eb('name', 'ilike', pattern),
          ...(UUID.test(q) ? [eb('id', '=', q.toLowerCase())] : []),
        ]),
      );
    }
    if (query.blocked === 'true') statement = statement.where('blocked_at', 'is not', null);
    if (query.blocked === 'false') statement = statement.where('blocked_at', 'is', null);
    return statement;
  }

  async function lockCustomer(tx: Queryable, id: string): Promise<CustomerRow> {
    const [row] = await tx.query(
      qb
        .selectFrom('users')
        .select([...CUSTOMER_COLUMNS])
        .where('id', '=', id)
        .forUpdate(),
    );
    if (!row) throw new NotFoundError('Customer');
    return row;
  }

  async function readCustomer(tx: Queryable, id: string): Promise<CustomerRow> {
    const [row] = await tx.query(
      qb
        .selectFrom('users')
        .select([...CUSTOMER_COLUMNS])
        .where('id', '=', id),
    );
    if (!row) throw new NotFoundError('Customer');
    return row;
  }

  /** Ends every live session of the customer; the database tells every instance (sessions.ts). */
  async function endSessions(tx: Queryable, userId: string, now: Date): Promise<number> {
    return tx.execute(
      qb
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now),
    );
  }

  /** The adjustment a key made already, as the customer's balance leg holds it. */
  async function madeWith(tx: Queryable, key: string) {
    const [row] = await tx.query(
      qb
        .selectFrom('ledger_transfers as t')
        .leftJoin('ledger_entries as e', (join) =>
          join.onRef('e.transfer_id', '=', 't.id').on('e.account', '=', 'CUSTOMER_BALANCE'),
        )
        .select(['t.id', 't.kind', 'e.user_id', 'e.amount_minor'])
        .where('t.idempotency_key', '=', key),
    );
    return row;
  }

  /** The same key again: the same adjustment answered, or a 409 when it asked for another. */
  async function replay(
    tx: Queryable,
    customerId: string,
    amountMinor: number,
    made: NonNullable<Awaited<ReturnType<typeof madeWith>>>,
  ): Promise<BalanceAdjustResponse> {
    if (made.kind !== 'ADJUSTMENT' || made.user_id !== customerId || made.amount_minor !== amountMinor) {
      throw new ConflictError('This idempotency key was used for another adjustment.');
    }
    const customer = await readCustomer(tx, customerId);
    return { transfer_id: made.id, balance_minor: customer.balance_minor };
  }

  async function setBlocked(
    id: string,
    blocked: boolean,
    reason: string,
    actor: AuditActor,
  ): Promise<CustomerActionResponse> {
    return sql.transaction(async (tx) => {
      // FOR UPDATE: a login holding the row (FOR KEY SHARE) while it opens a session finishes first,
      // so the session it opened is ended here; one that comes after sees the block.
      const row = await lockCustomer(tx, id);
      if ((row.blocked_at !== null) === blocked) return { customer: customerView(row), sessions_revoked: 0 };
      const now = clock();
      const [updated] = await tx.query(
        qb
          .updateTable('users')
          .set({ blocked_at: blocked ? now : null })
          .where('id', '=', id)
          .returning([...CUSTOMER_COLUMNS]),
      );
      const revoked = blocked ? await endSessions(tx, id, now) : 0;
      await writeAudit(tx, actor, {
        action: blocked ? 'customer.block' : 'customer.unblock',
        targetType: 'customer',
        targetId: id,
        before: { blocked: !blocked },
        after: { blocked, reason, ...(blocked ? { sessions_revoked: revoked } : {}) },
      });
      return { customer: customerView(updated as CustomerRow), sessions_revoked: revoked };
    });
  }

  return {
    /** Customers by a part of the address or the name, or a whole id; newest first. */
    async search(query: CustomerSearchQuery): Promise<AdminCustomerPage> {
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? ADMIN_PAGE_SIZE;
      const [rows, [count]] = await Promise.all([
        sql.query(
          filtered(query)
            .select([...CUSTOMER_COLUMNS])
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        ),
        sql.query(filtered(query).select((eb) => eb.fn.countAll<string>().as('total'))),
      ]);
      return { items: rows.map(customerView), page, page_size: pageSize, total: int8ToNumber(count?.total ?? 0) };
    },

    /** The profile, the live sessions, the latest orders and the latest entries of both accounts. */
    async detail(id: string): Promise<AdminCustomerDetail> {
      const now = clock();
      const row = await readCustomer(sql, id);
      const [[sessions], orders, entries] = await Promise.all([
        sql.query(
          qb
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('user_id', '=', id)
            .where('revoked_at', 'is', null)
            .where('expires_at', '>', now),
        ),
        adminOrders.ofCustomer(id, LATEST_ORDERS),
        sql.query(
          qb
            .selectFrom('ledger_entries as e')
            .innerJoin('ledger_transfers as t', 't.id', 'e.transfer_id')
            .select(['e.id', 'e.transfer_id', 'e.account', 'e.amount_minor', 'e.created_at', 't.kind', 't.order_id'])
            .where('e.user_id', '=', id)
            .orderBy('e.created_at', 'desc')
            .orderBy('e.id', 'desc')
            .limit(LATEST_ENTRIES),
        ),
      ]);
      return {
        customer: customerView(row),
        active_sessions: int8ToNumber(sessions?.n ?? 0),
        orders,
        ledger: entries.map(
          (entry): AdminLedgerEntry => ({
            id: entry.id,
            transfer_id: entry.transfer_id,
            account: entry.account === 'CUSTOMER_RECEIVABLE' ? 'receivable' : 'balance',
            amount_minor: entry.amount_minor,
            kind: entry.kind.toLowerCase(),
            order_id: entry.order_id,
            at: new Date(entry.created_at).toISOString(),
          }),
        ),
      };
    },

    /**
     * Adds to or takes from the customer's balance: one ADJUSTMENT transfer under the form's key
     * (money added pays a debt first, as any credit does), with the staff member's fresh TOTP code
     * used up and the audit row written in the same transaction. The same key again answers the
     * adjustment it made and moves nothing; with another amount or customer it is a 409.
     */
    async adjustBalance(
      id: string,
      body: Pick<BalanceAdjustBody, 'amount_minor' | 'totp' | 'idempotency_key'> & { reason: string },
      actor: AuditActor,
    ): Promise<BalanceAdjustResponse> {
      if (!freshTotp || !actor.staffId) throw new Error('a balance adjustment needs a staff member and the code key');
      const staffId = actor.staffId;
      const key = adjustmentKey(body.idempotency_key);
      const amountMinor = body.amount_minor;
      return sql.transaction(async (tx) => {
        // The customer's row first: the same form sent twice at once waits here, then finds the
        // first one's transfer and answers it rather than asking for the code again.
        const before = await lockCustomer(tx, id);
        const made = await madeWith(tx, key);
        if (made) return replay(tx, id, amountMinor, made);
        if (before.deleted_at !== null) throw new ConflictError('This account was deleted.');
        await freshTotp(tx, staffId, body.totp);
        try {
          await adjustBalance(tx, { userId: id, amountMinor, key });
        } catch (error) {
          if (error instanceof InsufficientFundsError) {
            throw ValidationError.field(
              'amount_minor',
              ErrorKeys.insufficientFunds,
              'The balance is lower than the amount to take.',
            );
          }
          throw error;
        }
        const transfer = await madeWith(tx, key);
        const after = await readCustomer(tx, id);
        if (!transfer) throw new Error(`the adjustment ${key} was not written`);
        await writeAudit(tx, actor, {
          action: 'customer.balance_adjust',
          targetType: 'customer',
          targetId: id,
          before: { balance_minor: before.balance_minor, owed_minor: before.owed_minor },
          after: {
            balance_minor: after.balance_minor,
            owed_minor: after.owed_minor,
            amount_minor: amountMinor,
            reason: body.reason,
            idempotency_key: body.idempotency_key,
            transfer_id: transfer.id,
          },
        });
        return { transfer_id: transfer.id, balance_minor: after.balance_minor };
      });
    },

    /** Ends every session of the customer; they sign in again. */
    async revokeSessions(id: string, reason: string, actor: AuditActor): Promise<CustomerActionResponse> {
      return sql.transaction(async (tx) => {
        const row = await lockCustomer(tx, id);
        const revoked = await endSessions(tx, id, clock());
        await writeAudit(tx, actor, {
          action: 'customer.sessions_revoke',
          targetType: 'customer',
          targetId: id,
          after: { reason, sessions_revoked: revoked },
        });
        return { customer: customerView(row), sessions_revoked: revoked };
      });
    },

    /** Blocks the customer: no sign-in from now on, and every session ends. */
    block: (id: string, reason: string, actor: AuditActor) => setBlocked(id, true, reason, actor),

    /** Lets a blocked customer sign in again. */
    unblock: (id: string, reason: string, actor: AuditActor) => setBlocked(id, false, reason, actor),
  };
}

export type AdminCustomers = ReturnType<typeof createAdminCustomers>;
