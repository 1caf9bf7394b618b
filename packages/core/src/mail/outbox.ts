import { randomUUID } from 'node:crypto';
import { type EmailData, EmailDataSchema, type EmailTemplate, type Locale } from '@store/contract';
import { prepare, type Queryable, qb } from '@store/db';
import type { JobQueue } from '../queue/job-queue.ts';
import type { Logger } from '../shared/logger.ts';

export interface EmailRequest {
  to: string;
  template: EmailTemplate;
  locale: Locale;
  data: EmailData;
}

/**
 * Writes an email into the outbox (`outbound_emails`). Call it inside the transaction that creates
 * the token the email carries, so the two are stored together or not at all (a Prisma transaction
 * passes `prismaQueryable(tx)`, which runs the insert in that transaction); after the commit,
 * hand it to `enqueueEmailSend`. A job lost on the way is picked up again by the outbox sweep,
 * because the row stays PENDING until the send succeeds or is given up.
 */
export async function recordEmail(db: Queryable, request: EmailRequest): Promise<string> {
  const row = emailRow(request);
  await db.execute(emailStatement(row));
  return row.id;
}

const emailStatement = prepare(emailRowInsert);

/**
 * recordEmail's insert, built with `qb`, for a caller that runs it with others in one statement (as
 * a CTE: `.with('receipt', () => insert)`), and the row's id.
 */
export function emailInsert(request: EmailRequest) {
  const row = emailRow(request);
  return { id: row.id, insert: emailRowInsert(row) };
}

/** An outbox row's values, the data checked against its template's schema and sent as JSON text. */
export interface EmailRow {
  id: string;
  to: string;
  template: EmailTemplate;
  locale: Locale;
  data: string;
}

export function emailRow(request: EmailRequest): EmailRow {
  const data = EmailDataSchema.parse(request.data);
  return {
    id: randomUUID(),
    to: request.to,
    template: request.template,
    locale: request.locale,
    data: JSON.stringify(data),
  };
}

/**
 * The insert of an outbox row (emailRow), for a prepared statement too: each value is one parameter.
 * PostgreSQL takes the parameters' types from the columns: the id a uuid, the data jsonb.
 */
export function emailRowInsert(row: EmailRow) {
  return qb.insertInto('outbound_emails').values({
    id: row.id,
    to_address: row.to,
    template: row.template,
    locale: row.locale,
    data: row.data,
  });
}

/**
 * Enqueues the sending of an email just recorded and committed. It never rejects: the row is the
 * durable record, so an enqueue that fails or is slow (Redis down; the queue bounds its own wait)
 * costs a log line, and the outbox sweep sends the email later. A caller that answers HTTP need not
 * wait for it, so its answer takes the same time whether Redis is up or not.
 */
export async function enqueueEmailSend(
  queue: Pick<JobQueue, 'enqueue'>,
  emailId: string,
  logger: Logger,
): Promise<void> {
  try {
    await queue.enqueue({ kind: 'email.send', emailId }, { jobId: emailId, newId: true });
  } catch (error) {
    logger.warn({ err: error, emailId }, 'email job not enqueued; the outbox sweep sends it later');
  }
}
