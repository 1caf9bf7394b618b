import { EmailDataSchema, EmailTemplateSchema } from '@store/contract';
import type { Prisma, PrismaClient } from '@store/db';
import type { JobContext } from '../queue/job-handlers.ts';
import { JOB_ATTEMPTS } from '../queue/job-queue.ts';
import type { Logger } from '../shared/logger.ts';
import { type Mailer, SMTP_SEND_DEADLINE_MS } from './mailer.ts';
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
  db: PrismaClient;
  mailer: Mailer;
  logger: Logger;
  now?: () => Date;
}

/**
 * How long a run may hold a row before another may take it over: longer than any send may take, so
 * only a run that died mid-send loses its claim.
 */
const LEASE_MS = SMTP_SEND_DEADLINE_MS + 30_000;
const MAX_ERROR_LENGTH = 1_000;

interface ClaimedRow {
  id: string;
  to_address: string;
  template: string;
  locale: string;
  data: unknown;
  attempts: number;
  created_at: Date;
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/** A recipient address the server refused for good (5xx at RCPT TO) will be refused on every retry. */
function isRecipientRefused(error: unknown): boolean {
  const smtp = error as { code?: string; permanent?: boolean };
  return smtp?.code === 'EENVELOPE' && smtp.permanent === true;
}

/**
 * Turns an `outbound_emails` row into a delivered message. A run first claims the row with a lease
 * (`locked_until`), in one conditional UPDATE, and sends with no transaction or connection held:
 * two runs given the same id never both send, because the second finds the lease taken and throws
 * EmailBusyError (its queue retries later) or finds the row SENT. A run that dies mid-send leaves
 * the lease to expire and the row PENDING, so the outbox sweep brings it back. `attempts` counts the
 * sends tried, the successful one included; after JOB_ATTEMPTS failures (or on the queue's last
 * attempt) the row is FAILED and nothing retries it.
 */
export function createEmailDelivery({ db, mailer, logger, now = () => new Date() }: EmailDeliveryDeps) {
  async function finish(id: string, data: Prisma.OutboundEmailUpdateInput) {
    await db.outboundEmail.update({ where: { id }, data: { ...data, lockedUntil: null } });
  }

  async function markFailed(id: string, reason: string) {
    await finish(id, { status: 'FAILED', lastError: reason });
    logger.warn({ emailId: id, reason }, 'email given up');
    return { outcome: 'failed', reason } as const;
  }

  /** Takes the row for this run, or says why not. */
  async function claim(emailId: string): Promise<ClaimedRow | DeliveryResult | 'busy'> {
    // The database's clock sets and reads every lease, so workers whose clocks differ still agree.
    const claimed = await db.$queryRaw<ClaimedRow[]>`
      UPDATE outbound_emails SET locked_until = now() + ${LEASE_MS}::int * interval '1 millisecond'
      WHERE id = ${emailId}::uuid AND status = 'PENDING' AND (locked_until IS NULL OR locked_until < now())
      RETURNING id, to_address, template, locale, data, attempts, created_at`;
    if (claimed[0]) return claimed[0];
    const row = await db.outboundEmail.findUnique({ where: { id: emailId }, select: { status: true } });
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

    const template = EmailTemplateSchema.safeParse(row.template);
    const data = EmailDataSchema.safeParse(row.data);
    if (!template.success || !data.success) return markFailed(row.id, 'stored template or data is invalid');
    const expiresAt = new Date(row.created_at).getTime() + data.data.expiresInMinutes * 60_000;
    if (expiresAt <= now().getTime()) return markFailed(row.id, 'the link expired before it could be sent');

    let message: RenderedEmail;
    try {
      message = renderEmail(template.data, row.locale, data.data);
    } catch (error) {
      return markFailed(row.id, `cannot be rendered: ${describeError(error)}`);
    }

    const attempts = row.attempts + 1;
    try {
      await mailer.send({ to: row.to_address, subject: message.subject, html: message.html, text: message.text });
    } catch (error) {
      const refused = isRecipientRefused(error);
      const final =
        refused || attempts >= JOB_ATTEMPTS || (context !== undefined && context.attempt >= context.maxAttempts);
      await finish(row.id, { attempts, lastError: describeError(error), ...(final ? { status: 'FAILED' } : {}) });
      if (refused) {
        logger.warn({ emailId, attempts }, 'email given up: recipient refused');
        return { outcome: 'failed', reason: 'recipient refused' };
      }
      // The failure is recorded first; the throw then hands the retry (with backoff) to the queue.
      const log = { emailId, attempts, err: error };
      if (final) logger.error(log, 'email failed for good');
      else logger.warn(log, 'email send failed, will retry');
      throw error;
    }
    await finish(row.id, { attempts, status: 'SENT', sentAt: now() });
    logger.info({ emailId, attempts }, 'email sent');
    return { outcome: 'sent', attempts };
  }

  return { deliverEmail };
}

export type EmailDelivery = ReturnType<typeof createEmailDelivery>;
