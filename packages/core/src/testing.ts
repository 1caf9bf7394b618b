import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { type AddressInfo, connect, createServer } from 'node:net';
import { QUEUE_NAMES } from '@store/contract';
import { Queue } from 'bullmq';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';
import { createRedisConnection } from './queue/bullmq-queue.ts';

/** Test helpers shared by the packages: a real SMTP server, a Redis of the test's own. Development dependencies only. */

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
  /** The next `count` messages are held in the DATA phase with no answer, until the client goes away. */
  holdData(count: number): void;
  /** How many messages have reached the DATA phase, held ones included. */
  readonly dataStarted: number;
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
  let holds = 0;
  let dataStarted = 0;

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
      dataStarted++;
      if (holds > 0) {
        holds--;
        // Read and never answer: the sender waits on the final reply, as on a server that hangs.
        stream.resume();
        return;
      }
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

  // A client that dies mid-message (a killed worker) resets its connection: that is not a test failure.
  server.on('error', () => {});
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
    holdData(count) {
      holds = count;
    },
    get dataStarted() {
      return dataStarted;
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

/**
 * Retries assertions until they pass, for at most `timeoutMs`, then throws their last failure: for
 * what a change feed delivers asynchronously (not slowly).
 */
export async function eventuallyPasses(check: () => Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** A TCP port nothing listens on right now (the system's pick, released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether a Redis answers PING on the port: listening alone is not ready. */
async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.setTimeout(500, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}

export interface PrivateRedis {
  url: string;
  port: number;
  /** Freezes the server (SIGSTOP): connections stay open, nothing answers. */
  pause(): void;
  resume(): void;
  /** Kills the server at once, as a crash or a network cut would; the port stays reserved for `start`. */
  stop(): Promise<void>;
  /** Starts it again, empty, on the same port. */
  start(): Promise<void>;
}

/** Whether a `redis-server` binary is on the PATH, for tests that run a Redis of their own. */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * A redis-server of the test's own on a free port, for tests that need Redis to go away: never the
 * shared one other tests use. Keeps nothing on disk. Call `stop` in afterAll.
 */
export async function startPrivateRedis(timeoutMs = 10_000): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start() {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const started = Date.now();
    while (!(await answersPing(port))) {
      if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited with ${child.exitCode}`);
      if (Date.now() - started > timeoutMs) throw new Error(`redis-server did not listen on ${port} in time`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function stop() {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    // A frozen server takes the kill only once it runs again.
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited;
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    stop,
    start,
  };
}

/** Removes every key a test's BullMQ prefix left in a shared Redis (both lanes). */
export async function dropTestQueue(redisUrl: string, prefix: string): Promise<void> {
  const connection = createRedisConnection(redisUrl);
  const queues = QUEUE_NAMES.map((name) => new Queue(name, { connection, prefix }));
  try {
    for (const queue of queues) await queue.obliterate({ force: true });
  } finally {
    await Promise.all(queues.map((queue) => queue.close()));
    connection.disconnect();
  }
}

/**
 * The Standard Webhooks headers of a provider callback, signed by the same library the sandbox signs
 * with, for tests that send callbacks of their own (a replay, a changed byte, an old timestamp).
 */
export function signCallback(
  secret: string,
  body: string,
  { id, timestamp = new Date() }: { id: string; timestamp?: Date },
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, timestamp, body),
  };
}

/** The local stand-in for Stripe's API that the Stripe adapter's tests run against (stripe-fake.ts). */
export { type StripeFake, startStripeFake } from './payments/stripe/stripe-fake.ts';
