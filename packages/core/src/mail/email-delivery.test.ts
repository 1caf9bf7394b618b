import { randomUUID } from 'node:crypto';
import { type EmailTemplate, type Locale, QUEUE_NAME } from '@store/contract';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deletedAddress } from '../accounts/account-data.ts';
import { createBullQueue, createBullWorker, createRedisConnection } from '../queue/bullmq-queue.ts';
import { createInProcessQueue } from '../queue/in-process-queue.ts';
import { createJobHandlers } from '../queue/job-handlers.ts';
import { JOB_ATTEMPTS } from '../queue/job-queue.ts';
import { silentLogger } from '../shared/logger.ts';
import { eventually, startTestSmtpServer, type TestSmtpServer } from '../testing.ts';
import { createDevMailbox } from './dev-outbox.ts';
import { createEmailDelivery, EmailBusyError } from './email-delivery.ts';
import type { Mailer } from './mail-types.ts';
import { createNoMailer, createOutboxMailer, createSmtpMailer } from './mailer.ts';
import { recordEmail } from './outbox.ts';

const FROM = 'Giftstore <no-reply@giftstore.example>';
const PUBLIC_URL = 'https://shop.example';

let database: TestDatabase;
let smtp: TestSmtpServer;
let mailer: Mailer;

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startTestSmtpServer();
  mailer = createSmtpMailer({ smtpUrl: smtp.url, from: FROM, timeoutMs: 2_000 });
});

afterAll(async () => {
  await mailer?.close();
  await smtp?.close();
  await database?.cleanup();
});

afterEach(() => {
  smtp.received.length = 0;
  smtp.refuseNext(0);
  smtp.delayAccept(0);
});

interface Recorded {
  id: string;
  to: string;
  token: string;
}

async function record(
  template: EmailTemplate = 'password-reset',
  { locale = 'en' as Locale, name = 'Maria', expiresInMinutes = 60 } = {},
): Promise<Recorded> {
  const token = randomUUID().replaceAll('-', '');
  const to = `customer-${randomUUID()}@example.com`;
  const link =
    template === 'password-reset' ? `${PUBLIC_URL}/password-reset/${token}` : `${PUBLIC_URL}/?accountToken=${token}`;
  const id = await recordEmail(database.sql, { to, template, locale, data: { name, link, expiresInMinutes } });
  return { id, to, token };
}

const row = (id: string) => database.prisma.outboundEmail.findUniqueOrThrow({ where: { id } });
/** Nothing of the row, its link included, still holds the token. */
const expectNoToken = async (email: Recorded) => {
  const stored = await row(email.id);
  expect(stored.data).not.toHaveProperty('link');
  expect(JSON.stringify(stored)).not.toContain(email.token);
};
const receivedBy = (to: string) => smtp.received.filter((mail) => mail.recipients.includes(to));
const job = (emailId: string) => ({ kind: 'email.send' as const, emailId });

describe('email.send over a real SMTP conversation', () => {
  it('renders, sends and marks the row SENT; the received link opens the SPA route with the token', async () => {
    const handlers = createJobHandlers({ sql: database.sql, logger: silentLogger, mailer });
    const email = await record('password-reset', { locale: 'pt-BR', name: '<script>alert(1)</script>' });

    await expect(handlers['email.send'](job(email.id))).resolves.toEqual({ outcome: 'sent', attempts: 1 });

    const [mail] = await smtp.waitFor(1);
    expect(mail!.recipients).toEqual([email.to]);
    expect(mail!.user).toBe('store');
    expect(mail!.parsed.subject).toBe('Redefina sua senha da Giftstore');
    expect(mail!.parsed.from?.text).toContain('no-reply@giftstore.example');
    const html = String(mail!.parsed.html);
    expect(html).toContain('lang="pt-BR"');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail!.parsed.text).toContain('Olá, <script>alert(1)</script>!');

    const link = new URL(/https?:\/\/\S+/.exec(mail!.parsed.text ?? '')![0]);
    expect(link.origin).toBe(PUBLIC_URL);
    expect(link.pathname).toBe(`/password-reset/${email.token}`);
    expect(html).toContain(`href="${link.href}"`);

    const stored = await row(email.id);
    expect(stored).toMatchObject({ status: 'SENT', attempts: 1, lastError: null });
    expect(stored.sentAt).toBeInstanceOf(Date);
    // The recipient's copy is the only one with the link: the row keeps the rest.
    expect(stored.data).toEqual({ name: '<script>alert(1)</script>', expiresInMinutes: 60 });
    await expectNoToken(email);
  });

  it('counts an attempt when a send starts, so a run that died mid-send is counted too', async () => {
    const stuck: Mailer = { ...mailer, sendDeadlineMs: 1_000, send: () => new Promise(() => {}) };
    const dying = createEmailDelivery({ sql: database.sql, mailer: stuck, logger: silentLogger });
    const email = await record('password-reset');
    // This run never returns: as good as a worker killed while the server held the message.
    void dying.deliverEmail(email.id);
    await eventually(async () => (await row(email.id)).attempts === 1);
    expect(await row(email.id)).toMatchObject({ status: 'PENDING' });
    // The row keeps its link while it is unsent, so the next run can still send it.
    expect((await row(email.id)).data).toHaveProperty('link');

    await database.prisma.outboundEmail.update({ where: { id: email.id }, data: { lockedUntil: new Date(0) } });
    const delivery = createEmailDelivery({ sql: database.sql, mailer, logger: silentLogger });
    await expect(delivery.deliverEmail(email.id)).resolves.toEqual({ outcome: 'sent', attempts: 2 });
    expect(await row(email.id)).toMatchObject({ status: 'SENT', attempts: 2 });
    expect(receivedBy(email.to)).toHaveLength(1);
  });

  it('gives up without sending a row whose runs all died mid-send', async () => {
    const delivery = createEmailDelivery({ sql: database.sql, mailer, logger: silentLogger });
    const email = await record('email-verify');
    await database.prisma.outboundEmail.update({ where: { id: email.id }, data: { attempts: JOB_ATTEMPTS } });
    await expect(delivery.deliverEmail(email.id)).resolves.toMatchObject({ outcome: 'failed' });
    expect(await row(email.id)).toMatchObject({ status: 'FAILED', attempts: JOB_ATTEMPTS });
    expect(receivedBy(email.to)).toHaveLength(0);
    await expectNoToken(email);
  });

  it('a job delivered twice sends once', async () => {
    const handlers = createJobHandlers({ sql: database.sql, logger: silentLogger, mailer });
    const email = await record('account-activation');
    await handlers['email.send'](job(email.id));
    await expect(handlers['email.send'](job(email.id))).resolves.toEqual({ outcome: 'skipped', status: 'SENT' });
    expect(receivedBy(email.to)).toHaveLength(1);
    expect(await row(email.id)).toMatchObject({ status: 'SENT', attempts: 1 });
  });

  it('two deliveries of the same row at the same moment send once (the first claims it while sending)', async () => {
    const delivery = createEmailDelivery({ sql: database.sql, mailer, logger: silentLogger });
    const email = await record('email-verify');
    smtp.delayAccept(300);
    const results = await Promise.allSettled([delivery.deliverEmail(email.id), delivery.deliverEmail(email.id)]);
    const sent = results.filter((result) => result.status === 'fulfilled' && result.value.outcome === 'sent');
    expect(sent).toHaveLength(1);
    // The other run either gave way (and its queue retries later) or waited and found the row SENT.
    const other = results.find((result) => !sent.includes(result));
    if (other?.status === 'rejected') expect(other.reason).toBeInstanceOf(EmailBusyError);
    else expect(other).toEqual({ status: 'fulfilled', value: { outcome: 'skipped', status: 'SENT' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receivedBy(email.to)).toHaveLength(1);
  });

  it('holds no transaction while sending: the database answers other queries during a slow send', async () => {
    const delivery = createEmailDelivery({ sql: database.sql, mailer, logger: silentLogger });
    const email = await record('password-reset');
    smtp.delayAccept(400);
    const sending = delivery.deliverEmail(email.id);
    await eventually(async () => (await row(email.id)).lockedUntil !== null);
    // The claim is visible to others at once, and the row can be read and written meanwhile.
    expect((await row(email.id)).status).toBe('PENDING');
    await database.prisma.outboundEmail.update({ where: { id: email.id }, data: { lastError: 'probe' } });
    await expect(sending).resolves.toEqual({ outcome: 'sent', attempts: 1 });
    expect(await row(email.id)).toMatchObject({ status: 'SENT', lockedUntil: null });
  });

  it('a claim another run still holds makes this run give way; a lapsed one is taken over', async () => {
    const delivery = createEmailDelivery({ sql: database.sql, mailer, logger: silentLogger });
    const email = await record('email-change');
    const claim = (ms: number) =>
      database.prisma.outboundEmail.update({
        where: { id: email.id },
        data: { lockedUntil: new Date(Date.now() + ms) },
      });
    await claim(60_000);
    await expect(delivery.deliverEmail(email.id)).rejects.toBeInstanceOf(EmailBusyError);
    expect(receivedBy(email.to)).toHaveLength(0);
    // The run holding it died mid-send: once its lease lapses, the next run sends.
    await claim(-1_000);
    await expect(delivery.deliverEmail(email.id)).resolves.toEqual({ outcome: 'sent', attempts: 1 });
    expect(receivedBy(email.to)).toHaveLength(1);
  });

  it('the in-process queue retries a refused send with backoff until the server accepts it', async () => {
    const queue = createInProcessQueue(
      createJobHandlers({ sql: database.sql, logger: silentLogger, mailer }),
      silentLogger,
    );
    try {
      const email = await record('password-reset', { locale: 'ru' });
      smtp.refuseNext(2);
      const started = Date.now();
      await queue.enqueue(job(email.id), { jobId: email.id });
      await smtp.waitFor(1, 15_000);
      // Two failures: 1 s and 2 s of backoff before the third attempt.
      expect(Date.now() - started).toBeGreaterThanOrEqual(3_000 - 50);
      await eventually(async () => (await row(email.id)).status === 'SENT');
      const stored = await row(email.id);
      expect(stored.attempts).toBe(3);
      expect(stored.lastError).toMatch(/451|try again/i);
      expect(receivedBy(email.to)[0]?.parsed.subject).toBe('Сброс пароля в Giftstore');
    } finally {
      await queue.close();
    }
  });

  it('a server that is down at first gets the message on a retry', async () => {
    const spare = await startTestSmtpServer();
    const port = spare.port;
    const url = spare.url;
    await spare.close();
    const downMailer = createSmtpMailer({ smtpUrl: url, from: FROM, timeoutMs: 2_000 });
    const queue = createInProcessQueue(
      createJobHandlers({ sql: database.sql, logger: silentLogger, mailer: downMailer }),
      silentLogger,
    );
    let revived: TestSmtpServer | undefined;
    try {
      const email = await record('email-change');
      await queue.enqueue(job(email.id), { jobId: email.id });
      // The attempt is counted when the send starts; wait for its failure to be recorded too.
      await eventually(async () => (await row(email.id)).lastError !== null);
      expect(await row(email.id)).toMatchObject({ status: 'PENDING', attempts: 1 });
      expect((await row(email.id)).lastError).toMatch(/ECONNREFUSED|connect/i);
      expect((await row(email.id)).data).toHaveProperty('link');
      revived = await startTestSmtpServer(port);
      await revived.waitFor(1, 10_000);
      await eventually(async () => (await row(email.id)).status === 'SENT');
      expect((await row(email.id)).attempts).toBe(2);
    } finally {
      await queue.close();
      await downMailer.close();
      await revived?.close();
    }
  });

  it('marks the row FAILED after the last attempt and rethrows', async () => {
    const delivery = createEmailDelivery({ sql: database.sql, mailer, logger: silentLogger });
    const email = await record('password-change');
    smtp.refuseNext(1);
    await expect(delivery.deliverEmail(email.id, { attempt: 1, maxAttempts: 1 })).rejects.toThrow();
    expect(await row(email.id)).toMatchObject({ status: 'FAILED', attempts: 1 });
    await expectNoToken(email);
    // A redelivery of the job finds it FAILED and leaves it.
    await expect(delivery.deliverEmail(email.id)).resolves.toEqual({ outcome: 'skipped', status: 'FAILED' });
    expect(receivedBy(email.to)).toHaveLength(0);
  });

  it('never tries more than JOB_ATTEMPTS times in all, even across re-enqueued jobs', async () => {
    const delivery = createEmailDelivery({ sql: database.sql, mailer, logger: silentLogger });
    const email = await record('password-change');
    await database.prisma.outboundEmail.update({ where: { id: email.id }, data: { attempts: JOB_ATTEMPTS - 1 } });
    smtp.refuseNext(1);
    await expect(delivery.deliverEmail(email.id, { attempt: 1, maxAttempts: JOB_ATTEMPTS })).rejects.toThrow();
    expect(await row(email.id)).toMatchObject({ status: 'FAILED', attempts: JOB_ATTEMPTS });
  });

  it('gives up at once on a recipient the server refuses for good', async () => {
    const delivery = createEmailDelivery({ sql: database.sql, mailer, logger: silentLogger });
    const email = await record('account-activation');
    smtp.refuseRecipient(email.to);
    await expect(delivery.deliverEmail(email.id, { attempt: 1, maxAttempts: JOB_ATTEMPTS })).resolves.toEqual({
      outcome: 'failed',
      reason: 'recipient refused',
    });
    const stored = await row(email.id);
    expect(stored).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(stored.lastError).toMatch(/550/);
    await expectNoToken(email);
  });

  it('does not send a link that expired while the message waited', async () => {
    const later = () => new Date(Date.now() + 61 * 60_000);
    const delivery = createEmailDelivery({ sql: database.sql, mailer, logger: silentLogger, now: later });
    const email = await record('password-reset', { expiresInMinutes: 60 });
    await expect(delivery.deliverEmail(email.id)).resolves.toMatchObject({ outcome: 'failed' });
    expect(await row(email.id)).toMatchObject({ status: 'FAILED', attempts: 0 });
    expect(receivedBy(email.to)).toHaveLength(0);
    await expectNoToken(email);
  });

  it('gives up at once on a row that cannot be rendered (a link that is not http)', async () => {
    const delivery = createEmailDelivery({ sql: database.sql, mailer, logger: silentLogger });
    const { id } = await database.prisma.outboundEmail.create({
      data: {
        toAddress: 'x@example.com',
        template: 'password-reset',
        locale: 'en',
        data: { name: 'X', link: 'javascript:alert(1)', expiresInMinutes: 60 },
      },
    });
    await expect(delivery.deliverEmail(id)).resolves.toMatchObject({ outcome: 'failed' });
    expect(await row(id)).toMatchObject({ status: 'FAILED', attempts: 0, data: { name: 'X', expiresInMinutes: 60 } });
    expect((await row(id)).lastError).toMatch(/cannot be rendered/);
  });

  it('never sends to a deleted account’s placeholder address', async () => {
    const delivery = createEmailDelivery({ sql: database.sql, mailer, logger: silentLogger });
    const to = deletedAddress(randomUUID());
    const id = await recordEmail(database.sql, {
      to,
      template: 'password-reset',
      locale: 'en',
      data: { name: 'deleted', link: `${PUBLIC_URL}/password-reset/${'a'.repeat(43)}`, expiresInMinutes: 60 },
    });
    await expect(delivery.deliverEmail(id)).resolves.toMatchObject({ outcome: 'failed' });
    expect(await row(id)).toMatchObject({ status: 'FAILED', attempts: 0, lastError: 'the account was deleted' });
    expect(receivedBy(to)).toEqual([]);
  });

  it('ignores a job whose row does not exist', async () => {
    const delivery = createEmailDelivery({ sql: database.sql, mailer, logger: silentLogger });
    await expect(delivery.deliverEmail(randomUUID())).resolves.toEqual({ outcome: 'missing' });
  });

  it('without SMTP the message goes into the dev mailbox, the only place its link is kept', async () => {
    const mailbox = createDevMailbox();
    const handlers = createJobHandlers({
      sql: database.sql,
      logger: silentLogger,
      mailer: createOutboxMailer(mailbox, silentLogger),
    });
    const email = await record('email-verify');
    await expect(handlers['email.send'](job(email.id))).resolves.toEqual({ outcome: 'sent', attempts: 1 });
    expect(smtp.received).toHaveLength(0);
    expect(mailbox.get(email.id)).toMatchObject({ id: email.id, to: email.to });
    expect(mailbox.get(email.id)?.text).toContain(email.token);
    await expectNoToken(email);
  });

  it('with neither SMTP nor a dev mailbox the email is given up at once, and says why', async () => {
    const handlers = createJobHandlers({
      sql: database.sql,
      logger: silentLogger,
      mailer: createNoMailer(),
    });
    const email = await record('email-verify');
    await expect(handlers['email.send'](job(email.id))).resolves.toEqual({
      outcome: 'failed',
      reason: 'no mail transport',
    });
    expect(await row(email.id)).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect((await row(email.id)).lastError).toMatch(/SMTP_URL is not set/);
    await expectNoToken(email);
  });
});

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn('REDIS_URL is not set: email delivery through BullMQ is NOT tested (CI sets it).');

describe.runIf(redisUrl)('email.send through BullMQ on Redis with a real worker', () => {
  const prefix = `test-mail-${randomUUID()}`;
  let worker: ReturnType<typeof createBullWorker>;

  beforeAll(async () => {
    worker = createBullWorker({
      redisUrl: redisUrl!,
      prefix,
      handlers: createJobHandlers({ sql: database.sql, logger: silentLogger, mailer }),
      logger: silentLogger,
    });
    await worker.waitUntilReady();
  });
  afterAll(async () => {
    await worker?.close();
  });

  it('delivers over SMTP, retrying a refused attempt, and collapses a duplicate job id', async () => {
    const queue = createBullQueue({ redisUrl: redisUrl!, prefix });
    const connection = createRedisConnection(redisUrl!);
    const inspect = new Queue(QUEUE_NAME, { connection, prefix });
    try {
      const email = await record('account-activation', { locale: 'hi', name: 'Asha' });
      smtp.refuseNext(1);
      await expect(queue.enqueue(job(email.id), { jobId: email.id })).resolves.toBe('queued');
      await expect(queue.enqueue(job(email.id), { jobId: email.id })).resolves.toBe('already-queued');
      const [mail] = await smtp.waitFor(1, 15_000);
      expect(mail!.parsed.subject).toBe('अपना Giftstore खाता सक्रिय करें');
      expect(mail!.parsed.text).toContain('नमस्ते, Asha!');
      const link = new URL(/https?:\/\/\S+/.exec(mail!.parsed.text ?? '')![0]);
      expect(link.pathname).toBe('/');
      expect(link.searchParams.get('accountToken')).toBe(email.token);

      await eventually(async () => (await row(email.id)).status === 'SENT');
      expect((await row(email.id)).attempts).toBe(2);
      const bullJob = await inspect.getJob(email.id);
      await eventually(async () => (await bullJob?.isCompleted()) === true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receivedBy(email.to)).toHaveLength(1);
    } finally {
      await inspect.close();
      connection.disconnect();
      await queue.close();
    }
  });
});
