import type { Transporter } from 'nodemailer';
import type { Logger } from '../shared/logger.ts';
import type { DevMailbox } from './dev-outbox.ts';
import type { Mailer } from './mail-types.ts';

/**
 * Thrown by a mailer that will never deliver anything (no transport is configured): a retry cannot
 * help, so the email is given up at once.
 */
export class NoMailTransportError extends Error {
  readonly permanent = true;
  constructor() {
    super('no mail transport: SMTP_URL is not set and this process keeps no dev mailbox');
    this.name = 'NoMailTransportError';
  }
}

export interface SmtpMailerOptions {
  /** smtp://user:pass@host:port, or smtps:// for implicit TLS. */
  smtpUrl: string;
  /** The From header, e.g. `Giftstore <no-reply@example.com>`. */
  from: string;
  /** However slow each step, one send gives up after this. */
  deadlineMs?: number;
  /** Upper bound of each network wait; a job retries later rather than hanging on a dead server. */
  timeoutMs?: number;
}

export const SMTP_TIMEOUT_MS = 15_000;
export const SMTP_SEND_DEADLINE_MS = 30_000;

/**
 * Sends over SMTP with nodemailer. A refused recipient or a server error rejects, so the job retries.
 * nodemailer is loaded with the first message: a process that never sends mail never loads it.
 */
export function createSmtpMailer({
  smtpUrl,
  from,
  deadlineMs = SMTP_SEND_DEADLINE_MS,
  timeoutMs = Math.min(SMTP_TIMEOUT_MS, deadlineMs),
}: SmtpMailerOptions): Mailer {
  let transport: Promise<Transporter> | undefined;
  const open = () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtpUrl,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
        dnsTimeout: timeoutMs,
      }),
    );
    return transport;
  };
  return {
    kind: 'smtp',
    sendDeadlineMs: deadlineMs,
    async send(message) {
      await (await open()).sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        signal: AbortSignal.timeout(deadlineMs),
      });
    },
    async close() {
      (await transport)?.close();
    },
  };
}

/** Delivering into memory is instant; the claim on a row still outlives a stuck event loop. */
const OUTBOX_SEND_DEADLINE_MS = 5_000;

/**
 * Without SMTP, in development, nothing leaves the machine: the message is delivered into the dev
 * mailbox of this process, which is where the developer reads it (the outbox row gives up its link
 * once sent, like any other). Only the fact is logged, never the link, which carries a token.
 */
export function createOutboxMailer(mailbox: DevMailbox, logger: Logger): Mailer {
  return {
    kind: 'outbox',
    sendDeadlineMs: OUTBOX_SEND_DEADLINE_MS,
    async send(message) {
      mailbox.deliver(message);
      logger.info({ emailId: message.id, to: message.to }, 'email delivered into the dev mailbox (no SMTP_URL)');
    },
    async close() {},
  };
}

/**
 * Where there is neither SMTP nor a dev mailbox (production without SMTP_URL, a worker without it)
 * there is nowhere to put a message: every send fails for good, and the row says why.
 */
export function createNoMailer(): Mailer {
  return {
    kind: 'none',
    sendDeadlineMs: OUTBOX_SEND_DEADLINE_MS,
    async send() {
      throw new NoMailTransportError();
    },
    async close() {},
  };
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  logger: Logger;
  /** Without SMTP, messages are delivered here (development only); without either, nowhere. */
  devMailbox?: DevMailbox;
  /** The longest one SMTP send may take. */
  sendDeadlineMs?: number;
}

/** SMTP when a URL is configured, the dev mailbox otherwise, and no delivery at all without either. */
export function createMailer({ smtpUrl, from, logger, devMailbox, sendDeadlineMs }: MailerOptions): Mailer {
  if (smtpUrl) return createSmtpMailer({ smtpUrl, from, deadlineMs: sendDeadlineMs });
  return devMailbox ? createOutboxMailer(devMailbox, logger) : createNoMailer();
}
