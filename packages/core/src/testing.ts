import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** Test helpers shared by the packages that deliver mail. Development dependencies only. */

export interface ReceivedMail {
  /** The addresses of the SMTP envelope (RCPT TO). */
  recipients: string[];
  /** The user the client authenticated as. */
  user: string | undefined;
  parsed: ParsedMail;
}

export interface TestSmtpServer {
  /** smtp://user:pass@127.0.0.1:port of this server. */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** The next `count` messages are refused at MAIL FROM with this reply code (4xx: try again later). */
  refuseNext(count: number, code?: number): void;
  /** Every RCPT TO for this address is refused with 550. */
  refuseRecipient(address: string): void;
  /** Holds each message this long before accepting it, to keep a send in flight. */
  delayAccept(ms: number): void;
  /** Resolves once `count` messages have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

const USER = 'store';
const PASSWORD = 'secret';

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

/**
 * A real SMTP server in the test process (smtp-server), requiring the credentials of its URL and
 * parsing every accepted message with mailparser. Listens on `port`, or any free one.
 */
export async function startTestSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const refusedRecipients = new Set<string>();
  let refusals = 0;
  let refusalCode = 451;
  let acceptDelayMs = 0;

  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) return callback(null, { user: USER });
      return callback(smtpError('Invalid username or password', 535));
    },
    onMailFrom(_address, _session, callback) {
      if (refusals > 0) {
        refusals--;
        return callback(smtpError('Mailbox busy, try again later', refusalCode));
      }
      return callback();
    },
    onRcptTo(address, _session, callback) {
      if (refusedRecipients.has(address.address.toLowerCase())) return callback(smtpError('No such user', 550));
      return callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          setTimeout(() => {
            received.push({
              recipients: session.envelope.rcptTo.map((recipient) => recipient.address),
              user: typeof session.user === 'string' ? session.user : undefined,
              parsed,
            });
            callback();
          }, acceptDelayMs);
        },
        (error: Error) => callback(error),
      );
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actualPort = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://${USER}:${PASSWORD}@127.0.0.1:${actualPort}`,
    port: actualPort,
    received,
    refuseNext(count, code = 451) {
      refusals = count;
      refusalCode = code;
    },
    refuseRecipient(address) {
      refusedRecipients.add(address.toLowerCase());
    },
    delayAccept(ms) {
      acceptDelayMs = ms;
    },
    async waitFor(count, timeoutMs = 15_000) {
      const start = Date.now();
      while (received.length < count) {
        if (Date.now() - start > timeoutMs) {
          throw new Error(`expected ${count} messages, received ${received.length} in ${timeoutMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received;
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls until `check` holds. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
