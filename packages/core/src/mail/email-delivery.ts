import { EmailDataSchema, EmailTemplateSchema } from '@store/contract';
import { type EmailStatus, type Prisma, prepare, qb, type SqlClient, sql } from '@store/db';
import { isDeletedAddress } from '../accounts/account-data.ts';
import type { JobContext } from '../queue/job-queue.ts';
import { JOB_ATTEMPTS } from '../queue/job-queue.ts';
import type { Logger } from '../shared/logger.ts';
import type { Mailer } from './mail-types.ts';
import { NoMailTransportError } from './mailer.ts';
import { type RenderedEmail, renderEmail } from './templates.ts';

/**
 * What one run of `email.send` did. It throws (so the queue retries with backoff) when a send failed
 * but may still succeed, and with EmailBusyError when another run holds the row.
 */
export type DeliveryResult =
  | { outcome: 'sent'; attempts: number }
  /** Already SENT or FAILED: a job delivered twice sends once. */
  | { outcome: 'skipped'; status: 'SENT' | 'FAILED' }
  | { outcome: 'missing' }
  /** Given up for good: the recipient was refused, the link expired unsent, or the row is unreadable. */
  | { outcome: 'failed'; reason: string };

/**
 * Another run is sending this email right now. Thrown rather than returned: the queue tries again
 * later and then finds the row SENT (nothing to do) or still PENDING (the other run failed), so a row
 * is never left behind by a run that gave way.
 */
export class EmailBusyError extends Error {
  constructor(emailId: string) {
    super(`email ${emailId} is being sent by another run`);
    this.name = 'EmailBusyError';
  }
}

export interface EmailDeliveryDeps {
  sql: SqlClient;
  mailer: Mailer;
  logger: Logger;
  now?: () => Date;
}

/**
 * How long a run may hold a row before another may take it over: twice the longest a send may take,
 * so only a run that died mid-send loses its claim.
 */
const LEASE_PER_SEND_DEADLINE = 2;
const MAX_ERROR_LENGTH = 1_000;

interface ClaimedRow {
  id: string;
  to_address: string;
  template: string;
  locale: string;
  data: unknown;
  /** Counts this run's send already. */
  attempts: number;
  created_at: Date;
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/**
 * Why a failed send will fail on every retry too, if it will: a recipient the server refused for
 * good (5xx at RCPT TO), or a process with nowhere to deliver to.
 */
function permanentFailure(error: unknown): string | undefined {
  if (error instanceof NoMailTransportError) return 'no mail transport';
  const smtp = error as { code?: string; permanent?: boolean };
  if (smtp?.code === 'EENVELOPE' && smtp.permanent === true) return 'recipient refused';
  return undefined;
}

/**
 * What a row keeps once its message is sent or given up: everything but the link, whose token works
 * until it expires. The recipient's copy is then the only one.
 */
export function withoutLink(data: unknown): Prisma.InputJsonObject {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
  return Object.fromEntries(Object.entries(data).filter(([key]) => key !== 'link')) as Prisma.InputJsonObject;
}

/**
 * Ends a run's lease on a row, writing what changed: COALESCE keeps what the change leaves out (a
 * null); PostgreSQL types each parameter as its column.
 */
const finishStatement = prepare(
  (a: {
    id: string;
    status?: EmailStatus | undefined;
    lastError?: string | undefined;
    attempts?: number | undefined;
    sentAt?: Date | undefined;
    data: string | null;
  }) =>
    qb
      .updateTable('outbound_emails')
      .set((eb) => ({
        status: eb.fn.coalesce(eb.val(a.status ?? null), eb.ref('status')),
        last_error: eb.fn.coalesce(eb.val(a.lastError ?? null), eb.ref('last_error')),
        attempts: eb.fn.coalesce(eb.val(a.attempts ?? null), eb.ref('attempts')),
        sent_at: eb.fn.coalesce(eb.val(a.sentAt ?? null), eb.ref('sent_at')),
        data: eb.fn.coalesce(eb.val(a.data), eb.ref('data')),
        locked_until: null,
      }))
      .where('id', '=', a.id),
);

/**
 * Takes a PENDING row whose lease is free or over for a run: the lease until the database's now()
 * plus `leaseSeconds`, the attempt counted. The database's clock sets and reads every lease, so
 * workers whose clocks differ still agree.
 */
const claimStatement = prepare((a: { emailId: string; leaseSeconds: number }) =>
  qb
    .updateTable('outbound_emails')
    .set((eb) => ({
      locked_until: eb(eb.fn<Date>('now'), '+', sql<Date>`make_interval(secs => ${a.leaseSeconds})`),
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', '=', a.emailId)
    .where('status', '=', 'PENDING')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', eb.fn<Date>('now'))]))
    .returning(['id', 'to_address', 'template', 'locale', 'data', 'attempts', 'created_at']),
);

/**
 * Turns an `outbound_emails` row into a delivered message. A run first claims the row with a lease
 * (`locked_until`) and counts the attempt (`attempts`), in one conditional UPDATE, and sends with no
 * transaction or connection held: two runs given the same id never both send, because the second
 * finds the lease taken and throws EmailBusyError (its queue retries later) or finds the row SENT. A
 * run that dies mid-send leaves the lease to expire, the attempt counted and the row PENDING, so the
 * outbox sweep brings it back. After JOB_ATTEMPTS sends tried (or on the queue's last attempt) the
 * row is FAILED and nothing retries it. The write that marks a row SENT or FAILED also drops its
 * link, so no working token stays in the outbox.
 */
export function createEmailDelivery({ sql, mailer, logger, now = () => new Date() }: EmailDeliveryDeps) {
  const leaseMs = mailer.sendDeadlineMs * LEASE_PER_SEND_DEADLINE;

  /** Ends the run's lease, writing what changed; a row SENT or FAILED loses its link. */
  async function finish(
    row: ClaimedRow,
    change: { status?: EmailStatus; lastError?: string; attempts?: number; sentAt?: Date },
  ) {
    const done = change.status === 'SENT' || change.status === 'FAILED';
    await sql.execute(
      finishStatement({
        id: row.id,
        status: change.status,
        lastError: change.lastError,
        attempts: change.attempts,
        sentAt: change.sentAt,
        data: done ? JSON.stringify(withoutLink(row.data)) : null,
      }),
    );
  }

  /** Gives up before sending: the claim counted an attempt that was never made. */
  async function giveUpUnsent(row: ClaimedRow, reason: string) {
    await finish(row, { status: 'FAILED', lastError: reason, attempts: row.attempts - 1 });
    logger.warn({ emailId: row.id, reason }, 'email given up');
    return { outcome: 'failed', reason } as const;
  }

  /** Takes the row for this run, or says why not. */
  async function claim(emailId: string): Promise<ClaimedRow | DeliveryResult | 'busy'> {
    const claimed = await sql.query(claimStatement({ emailId, leaseSeconds: leaseMs / 1000 }));
    if (claimed[0]) return claimed[0];
    const [row] = await sql.query(qb.selectFrom('outbound_emails').select('status').where('id', '=', emailId));
    if (!row) return { outcome: 'missing' };
    if (row.status !== 'PENDING') return { outcome: 'skipped', status: row.status };
    return 'busy';
  }

  async function deliverEmail(emailId: string, context?: JobContext): Promise<DeliveryResult> {
    const claimed = await claim(emailId);
    if (claimed === 'busy') throw new EmailBusyError(emailId);
    if ('outcome' in claimed) {
      if (claimed.outcome === 'missing') logger.warn({ emailId }, 'email.send for a row that does not exist');
      return claimed;
    }
    const row = claimed;
    // Only runs that died mid-send leave a row PENDING with its attempts used up.
    if (row.attempts > JOB_ATTEMPTS) return giveUpUnsent(row, `no send finished in ${JOB_ATTEMPTS} attempts`);

    // Written before the account was deleted, or after by something that still names it (a refund).
    if (isDeletedAddress(row.to_address)) return giveUpUnsent(row, 'the account was deleted');

    const template = EmailTemplateSchema.safeParse(row.template);
    const data = EmailDataSchema.safeParse(row.data);
    if (!template.success || !data.success) return giveUpUnsent(row, 'stored template or data is invalid');
    const expiresAt = new Date(row.created_at).getTime() + data.data.expiresInMinutes * 60_000;
    if (expiresAt <= now().getTime()) return giveUpUnsent(row, 'the link expired before it could be sent');

    let message: RenderedEmail;
    try {
      message = renderEmail(template.data, row.locale, data.data);
    } catch (error) {
      return giveUpUnsent(row, `cannot be rendered: ${describeError(error)}`);
    }

    const { attempts } = row;
    try {
      await mailer.send({
        id: row.id,
        to: row.to_address,
        subject: message.subject,
        html: message.html,
        text: message.text,
      });
    } catch (error) {
      const permanent = permanentFailure(error);
      const final =
        permanent !== undefined ||
        attempts >= JOB_ATTEMPTS ||
        (context !== undefined && context.attempt >= context.maxAttempts);
      await finish(row, { lastError: describeError(error), ...(final ? { status: 'FAILED' } : {}) });
      if (permanent) {
        logger.warn({ emailId, attempts, reason: permanent }, 'email given up');
        return { outcome: 'failed', reason: permanent };
      }
      // The failure is recorded first; the throw then hands the retry (with backoff) to the queue.
      const log = { emailId, attempts, err: error };
      if (final) logger.error(log, 'email failed for good');
      else logger.warn(log, 'email send failed, will retry');
      throw error;
    }
    await finish(row, { status: 'SENT', sentAt: now() });
    logger.info({ emailId, attempts }, 'email sent');
    return { outcome: 'sent', attempts };
  }

  return { deliverEmail };
}

export type EmailDelivery = ReturnType<typeof createEmailDelivery>;
