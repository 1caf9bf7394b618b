import { randomUUID } from 'node:crypto';
import { type EmailData, EmailDataSchema, type EmailTemplate, type Locale } from '@store/contract';
import { Prisma, type Queryable } from '@store/db';
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
 * passes `prismaQueryable(tx)`); after the commit,
 * hand it to `enqueueEmailSend`. A job lost on the way is picked up again by the outbox sweep,
 * because the row stays PENDING until the send succeeds or is given up.
 */
export async function recordEmail(db: Queryable, request: EmailRequest): Promise<string> {
  const data = EmailDataSchema.parse(request.data);
  const id = randomUUID();
  await db.execute(Prisma.sql`
    INSERT INTO outbound_emails (id, to_address, template, locale, data)
    VALUES (${id}::uuid, ${request.to}, ${request.template}, ${request.locale}, ${JSON.stringify(data)}::jsonb)`);
  return id;
}

/**
 * Enqueues the sending of a committed email without making the caller wait for it: the row is the
 * durable record, so an enqueue that fails or is slow (Redis down; the queue bounds its own wait)
 * costs a log line, and the outbox sweep sends the email later. An HTTP answer therefore takes
 * the same time whether Redis is up or not.
 */
export function enqueueEmailSend(queue: JobQueue, emailId: string, logger: Logger): void {
  queue.enqueue({ kind: 'email.send', emailId }, { jobId: emailId }).catch((error: unknown) => {
    logger.warn({ err: error, emailId }, 'email job not enqueued; the outbox sweep sends it later');
  });
}
