import { EmailDataSchema, EmailTemplateSchema } from '@store/contract';
import type { PrismaClient } from '@store/db';
import { extractLinks, type RenderedEmail, renderEmail } from './templates.ts';

/** An outbox row as the recipient sees it; what the dev mailbox shows. */
export interface OutboxMessage {
  id: string;
  to: string;
  template: string;
  locale: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  status: 'PENDING' | 'SENT' | 'FAILED';
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

type Row = Awaited<ReturnType<PrismaClient['outboundEmail']['findFirstOrThrow']>>;

function render(row: Row): Omit<RenderedEmail, 'locale'> & { locale: string } {
  const template = EmailTemplateSchema.safeParse(row.template);
  const data = EmailDataSchema.safeParse(row.data);
  try {
    if (template.success && data.success) return renderEmail(template.data, row.locale, data.data);
  } catch {
    // Shown as unrenderable below; the sender marks such a row FAILED.
  }
  return {
    locale: row.locale,
    subject: '(cannot be rendered)',
    text: 'The stored template or data is invalid.',
    html: '',
  };
}

/** Renders with the same templates the sender uses, so what is shown is what is (or was) sent. */
function toMessage(row: Row): OutboxMessage {
  const rendered = render(row);
  return {
    id: row.id,
    to: row.toAddress,
    template: row.template,
    locale: rendered.locale,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    links: extractLinks(rendered.text),
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt,
    sentAt: row.sentAt,
  };
}

export interface ListOutboxOptions {
  /** Only messages to this address, compared case-insensitively. */
  to?: string;
  limit?: number;
}

/** The newest messages of the outbox, newest first. */
export async function listOutboxMessages(
  db: PrismaClient,
  { to, limit = 50 }: ListOutboxOptions = {},
): Promise<OutboxMessage[]> {
  const rows = await db.outboundEmail.findMany({
    where: to ? { toAddress: { equals: to, mode: 'insensitive' } } : {},
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
  return rows.map(toMessage);
}

export async function getOutboxMessage(db: PrismaClient, id: string): Promise<OutboxMessage | undefined> {
  const row = await db.outboundEmail.findUnique({ where: { id } });
  return row ? toMessage(row) : undefined;
}
