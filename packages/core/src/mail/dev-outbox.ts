import { EmailDataSchema, EmailTemplateSchema } from '@store/contract';
import type { PrismaClient } from '@store/db';
import type { OutgoingEmail } from './mail-types.ts';
import { extractLinks, renderEmail } from './templates.ts';

/** A message as the outbox mailer delivered it. */
export interface DeliveredEmail extends OutgoingEmail {
  deliveredAt: Date;
}

/**
 * The development mail server: what the outbox mailer delivers, kept in this process's memory only.
 * The outbox row gives up its link once the message is sent, so this is the one place the link of a
 * sent message is still readable, as it would be in a real inbox; nothing of it reaches the
 * database or survives a restart.
 */
export interface DevMailbox {
  deliver(message: OutgoingEmail): void;
  get(id: string): DeliveredEmail | undefined;
}

/** The newest messages a dev mailbox keeps; older ones are dropped, so a long session stays small. */
export const DEV_MAILBOX_CAPACITY = 500;

export function createDevMailbox({ capacity = DEV_MAILBOX_CAPACITY, now = () => new Date() } = {}): DevMailbox {
  // A Map iterates in insertion order, so the first key is the oldest delivery.
  const messages = new Map<string, DeliveredEmail>();
  return {
    deliver(message) {
      messages.delete(message.id);
      messages.set(message.id, { ...message, deliveredAt: now() });
      for (const id of messages.keys()) {
        if (messages.size <= capacity) break;
        messages.delete(id);
      }
    },
    get: (id) => messages.get(id),
  };
}

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
type Shown = Pick<OutboxMessage, 'locale' | 'subject' | 'text' | 'html'>;

const UNRENDERABLE = { subject: '(cannot be rendered)', text: 'The stored template or data is invalid.', html: '' };

/** Renders with the same templates the sender uses, so what is shown is what will be sent. */
function renderPending(row: Row): Shown {
  const template = EmailTemplateSchema.safeParse(row.template);
  const data = EmailDataSchema.safeParse(row.data);
  try {
    if (template.success && data.success) return renderEmail(template.data, row.locale, data.data);
  } catch {
    // Shown as unrenderable below; the sender marks such a row FAILED.
  }
  return { locale: row.locale, ...UNRENDERABLE };
}

/** Any web link renders the subject: it is the same whatever the (no longer stored) link was. */
const NO_LINK = 'https://link.invalid/';

/** A sent or given-up message this process holds no copy of: the row no longer has its link. */
function renderWithoutLink(row: Row): Shown {
  const template = EmailTemplateSchema.safeParse(row.template);
  const data = EmailDataSchema.safeParse({ ...(row.data as object), link: NO_LINK });
  let subject = UNRENDERABLE.subject;
  let locale = row.locale;
  if (template.success && data.success) {
    try {
      ({ subject, locale } = renderEmail(template.data, row.locale, data.data));
    } catch {
      // The subject stays unrenderable; the status below says what became of the message.
    }
  }
  const text =
    row.status === 'FAILED'
      ? `Not delivered: ${row.lastError ?? 'given up'}. Its link was discarded with it.`
      : 'Delivered by another process, or by this one before it restarted. The store keeps no link ' +
        'once a message is sent, and this mailbox only what this process delivered.';
  return { locale, subject, text, html: '' };
}

function toMessage(row: Row, mailbox: DevMailbox): OutboxMessage {
  const delivered = row.status === 'SENT' ? mailbox.get(row.id) : undefined;
  const shown: Shown = delivered
    ? { locale: row.locale, subject: delivered.subject, text: delivered.text, html: delivered.html }
    : row.status === 'PENDING'
      ? renderPending(row)
      : renderWithoutLink(row);
  return {
    id: row.id,
    to: row.toAddress,
    template: row.template,
    locale: shown.locale,
    subject: shown.subject,
    text: shown.text,
    html: shown.html,
    links: extractLinks(shown.text),
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

/**
 * The newest messages of the outbox, newest first: a pending one as it will be sent, a sent one as
 * this process delivered it into `mailbox`.
 */
export async function listOutboxMessages(
  db: PrismaClient,
  mailbox: DevMailbox,
  { to, limit = 50 }: ListOutboxOptions = {},
): Promise<OutboxMessage[]> {
  const rows = await db.outboundEmail.findMany({
    where: to ? { toAddress: { equals: to, mode: 'insensitive' } } : {},
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
  return rows.map((row) => toMessage(row, mailbox));
}

export async function getOutboxMessage(
  db: PrismaClient,
  mailbox: DevMailbox,
  id: string,
): Promise<OutboxMessage | undefined> {
  const row = await db.outboundEmail.findUnique({ where: { id } });
  return row ? toMessage(row, mailbox) : undefined;
}
