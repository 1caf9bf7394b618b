import type { AuditAction, AuditEntry, AuditPage, AuditQuery, AuditTargetType, StaffRole } from '@store/contract';
import { ADMIN_PAGE_SIZE } from '@store/contract';
import { int8ToNumber, type Queryable, qb, type SqlClient } from '@store/db';

/**
 * Who does something in the console, as the audit log records it: the staff member and the role they
 * had then, or the command line; the request and the address it came from.
 */
export interface AuditActor {
  staffId: string | null;
  /** The role at the time, or `cli` for the command line. */
  role: StaffRole | 'cli';
  /** The staff member's address, for the order's history (`operator:<email>`). */
  name: string;
  requestId?: string | undefined;
  ip?: string | undefined;
}

export interface AuditRecord {
  action: AuditAction;
  targetType: AuditTargetType;
  targetId?: string | number | null;
  before?: unknown;
  after?: unknown;
}

/** The command line's actor: no staff row, the operating system's user as its name. */
export function cliActor(name: string): AuditActor {
  return { staffId: null, role: 'cli', name };
}

/**
 * Writes one audit row. Called with the transaction of the change it records, so that the change
 * and its record commit together or not at all.
 */
export async function writeAudit(tx: Queryable, actor: AuditActor, record: AuditRecord): Promise<void> {
  await tx.execute(
    qb.insertInto('audit_log').values({
      staff_id: actor.staffId,
      role: actor.role,
      action: record.action,
      target_type: record.targetType,
      target_id: record.targetId === undefined || record.targetId === null ? null : String(record.targetId),
      before: record.before === undefined ? null : JSON.stringify(record.before),
      after: record.after === undefined ? null : JSON.stringify(record.after),
      request_id: actor.requestId?.slice(0, 64) ?? null,
      ip: actor.ip?.slice(0, 64) ?? null,
    }),
  );
}

/** A day (`2026-11-27`) as the start of that UTC day, or the instant as given. */
export function startOf(value: string): Date {
  return new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
}

/** A day as the end of that UTC day (the range includes it), or the instant as given. */
export function endOf(value: string): Date {
  return value.length === 10 ? new Date(Date.parse(`${value}T00:00:00Z`) + 86_400_000 - 1) : new Date(value);
}

export function createAuditLog({ sql }: { sql: SqlClient }) {
  return {
    /** The audit log, newest first, filtered. */
    async list(query: AuditQuery): Promise<AuditPage> {
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? ADMIN_PAGE_SIZE;
      let filtered = qb.selectFrom('audit_log as a').leftJoin('staff as s', 's.id', 'a.staff_id');
      if (query.staff_id) filtered = filtered.where('a.staff_id', '=', query.staff_id);
      if (query.action) filtered = filtered.where('a.action', '=', query.action);
      if (query.target_type) filtered = filtered.where('a.target_type', '=', query.target_type);
      if (query.target_id) filtered = filtered.where('a.target_id', '=', query.target_id);
      if (query.from) filtered = filtered.where('a.at', '>=', startOf(query.from));
      if (query.to) filtered = filtered.where('a.at', '<=', endOf(query.to));
      const [rows, [count]] = await Promise.all([
        sql.query(
          filtered
            .select([
              'a.id',
              'a.staff_id',
              's.email as staff_email',
              'a.role',
              'a.action',
              'a.target_type',
              'a.target_id',
              'a.before',
              'a.after',
              'a.request_id',
              'a.ip',
              'a.at',
            ])
            .orderBy('a.id', 'desc')
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        ),
        sql.query(filtered.select((eb) => eb.fn.countAll<string>().as('total'))),
      ]);
      return {
        items: rows.map(
          (row): AuditEntry => ({
            id: String(row.id),
            staff_id: row.staff_id,
            staff_email: row.staff_email,
            role: row.role,
            action: row.action as AuditAction,
            target_type: row.target_type as AuditTargetType,
            target_id: row.target_id,
            before: row.before ?? null,
            after: row.after ?? null,
            request_id: row.request_id,
            ip: row.ip,
            at: new Date(row.at).toISOString(),
          }),
        ),
        page,
        page_size: pageSize,
        total: int8ToNumber(count?.total ?? 0),
      };
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
