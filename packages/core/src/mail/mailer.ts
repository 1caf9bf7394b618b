import nodemailer from 'nodemailer';
import type { Logger } from '../shared/logger.ts';

export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** Hands a rendered message to whatever delivers mail; resolves once it was accepted. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: OutgoingEmail): Promise<void>;
  close(): Promise<void>;
}

export interface SmtpMailerOptions {
  /** smtp://user:pass@host:port, or smtps:// for implicit TLS. */
  smtpUrl: string;
  /** The From header, e.g. `Gift Store <no-reply@example.com>`. */
  from: string;
  /** Upper bound of each network wait; a job retries later rather than hanging on a dead server. */
  timeoutMs?: number;
}

export const SMTP_TIMEOUT_MS = 15_000;
/** However slow each step, one send gives up after this, well before its claim on the outbox row lapses. */
export const SMTP_SEND_DEADLINE_MS = 30_000;

/** Sends over SMTP with nodemailer. A refused recipient or a server error rejects, so the job retries. */
export function createSmtpMailer({ smtpUrl, from, timeoutMs = SMTP_TIMEOUT_MS }: SmtpMailerOptions): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
  });
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        signal: AbortSignal.timeout(SMTP_SEND_DEADLINE_MS),
      });
    },
    async close() {
      transport.close();
    },
  };
}

/**
 * Without SMTP (the embedded mode) nothing leaves the machine: the outbox row is the message, and the
 * dev mailbox renders it from there. Only the fact is logged, never the link, which carries a token.
 */
export function createOutboxMailer(logger: Logger): Mailer {
  return {
    kind: 'outbox',
    async send(message) {
      logger.info({ to: message.to, subject: message.subject }, 'email kept in the dev outbox (no SMTP_URL)');
    },
    async close() {},
  };
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  logger: Logger;
}

/** SMTP when a URL is configured, the dev outbox otherwise. */
export function createMailer({ smtpUrl, from, logger }: MailerOptions): Mailer {
  return smtpUrl ? createSmtpMailer({ smtpUrl, from }) : createOutboxMailer(logger);
}
