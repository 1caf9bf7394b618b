import { type EmailData, EmailDataSchema, type EmailTemplate, type Locale } from '@store/contract';
import type { Prisma, PrismaClient } from '@store/db';

export interface EmailRequest {
  to: string;
  template: EmailTemplate;
  locale: Locale;
  data: EmailData;
}

/** A Prisma client or an open transaction of one. */
export type Db = PrismaClient | Prisma.TransactionClient;

/**
 * Writes an email into the outbox (`outbound_emails`). Call it inside the transaction that creates
 * the token the email carries, so the two are stored together or not at all; after the commit,
 * enqueue `{ kind: 'email.send', emailId }` with `jobId: emailId`. A job lost on the way is
 * picked up again by the outbox sweep, because the row stays PENDING until the send succeeds.
 */
export async function recordEmail(db: Db, request: EmailRequest): Promise<string> {
  const data = EmailDataSchema.parse(request.data);
  const row = await db.outboundEmail.create({
    data: { toAddress: request.to, template: request.template, locale: request.locale, data },
    select: { id: true },
  });
  return row.id;
}
