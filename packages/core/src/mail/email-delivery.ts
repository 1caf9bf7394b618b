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

/** The row lock is held while the message is handed over, so the transaction must outlive a send. */
const TRANSACTION_TIMEOUT_MS = SMTP_SEND_DEADLINE_MS + 15_000;
const MAX_ERROR_LENGTH = 1_000;

/** What the transaction decided; `busy` and `retry` become throws once it has committed. */
type RunResult =
  | DeliveryResult
  | { outcome: 'busy' }
  | { outcome: 'retry'; error: unknown; attempts: number; final: boolean };

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
 * Turns an `outbound_emails` row into a delivered message. The row is locked (`FOR UPDATE SKIP
 * LOCKED`) for the whole send, so two workers given the same id never both send: the second sees
 * the lock and throws EmailBusyError (its queue retries later), or waits its turn and finds the row
 * SENT. `attempts` counts the sends tried,
 * the successful one included; after JOB_ATTEMPTS failures (or on the queue's last attempt) the
 * row is FAILED and nothing retries it.
 */
export function createEmailDelivery({ db, mailer, logger, now = () => new Date() }: EmailDeliveryDeps) {
  async function markFailed(tx: Prisma.TransactionClient, id: string, reason: string) {
    await tx.outboundEmail.update({ where: { id }, data: { status: 'FAILED', lastError: reason } });
    logger.warn({ emailId: id, reason }, 'email given up');
    return { outcome: 'failed', reason } as const;
  }

  async function deliverEmail(emailId: string, context?: JobContext): Promise<DeliveryResult> {
    const result = await db.$transaction(
      async (tx): Promise<RunResult> => {
        const locked = await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM outbound_emails WHERE id = ${emailId}::uuid FOR UPDATE SKIP LOCKED`;
        if (locked.length === 0) {
          const exists = await tx.outboundEmail.count({ where: { id: emailId } });
          return exists ? { outcome: 'busy' } : { outcome: 'missing' };
        }
        const row = await tx.outboundEmail.findUniqueOrThrow({ where: { id: emailId } });
        if (row.status !== 'PENDING') return { outcome: 'skipped', status: row.status };

        const template = EmailTemplateSchema.safeParse(row.template);
        const data = EmailDataSchema.safeParse(row.data);
        if (!template.success || !data.success) return markFailed(tx, row.id, 'stored template or data is invalid');
        const expiresAt = row.createdAt.getTime() + data.data.expiresInMinutes * 60_000;
        if (expiresAt <= now().getTime()) return markFailed(tx, row.id, 'the link expired before it could be sent');

        let message: RenderedEmail;
        try {
          message = renderEmail(template.data, row.locale, data.data);
        } catch (error) {
          return markFailed(tx, row.id, `cannot be rendered: ${describeError(error)}`);
        }
        const attempts = row.attempts + 1;
        try {
          await mailer.send({ to: row.toAddress, subject: message.subject, html: message.html, text: message.text });
        } catch (error) {
          const refused = isRecipientRefused(error);
          const final =
            refused || attempts >= JOB_ATTEMPTS || (context !== undefined && context.attempt >= context.maxAttempts);
          await tx.outboundEmail.update({
            where: { id: row.id },
            data: { attempts, lastError: describeError(error), ...(final ? { status: 'FAILED' } : {}) },
          });
          if (refused) return { outcome: 'failed', reason: 'recipient refused' };
          return { outcome: 'retry', error, attempts, final };
        }
        await tx.outboundEmail.update({
          where: { id: row.id },
          data: { attempts, status: 'SENT', sentAt: now() },
        });
        return { outcome: 'sent', attempts };
      },
      { timeout: TRANSACTION_TIMEOUT_MS, maxWait: 10_000 },
    );

    if (result.outcome === 'busy') throw new EmailBusyError(emailId);
    if (result.outcome === 'retry') {
      // The failure is committed first; the throw then hands the retry (with backoff) to the queue.
      const log = { emailId, attempts: result.attempts, err: result.error };
      if (result.final) logger.error(log, 'email failed for good');
      else logger.warn(log, 'email send failed, will retry');
      throw result.error;
    }
    if (result.outcome === 'sent') logger.info({ emailId, attempts: result.attempts }, 'email sent');
    else if (result.outcome === 'missing') logger.warn({ emailId }, 'email.send for a row that does not exist');
    return result;
  }

  return { deliverEmail };
}

export type EmailDelivery = ReturnType<typeof createEmailDelivery>;
