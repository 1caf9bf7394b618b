import { randomUUID } from 'node:crypto';
import { recordEmail, silentLogger } from '@store/core';
import { createBullQueue } from '@store/core/bullmq';
import { eventually, freePort, startTestSmtpServer, type TestSmtpServer } from '@store/core/testing';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from './env.ts';
import { startWorker } from './worker.ts';

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!databaseUrl || !redisUrl) {
  console.warn('DATABASE_URL or REDIS_URL is not set: the worker is NOT tested end to end (CI sets both).');
}

describe.runIf(databaseUrl && redisUrl)('the worker process', () => {
  const prefix = `test-worker-${randomUUID()}`;
  let database: TestDatabase;
  let smtp: TestSmtpServer;
  let worker: Awaited<ReturnType<typeof startWorker>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startTestSmtpServer();
    const env = loadEnv({
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      SMTP_URL: smtp.url,
      LOG_LEVEL: 'silent',
      QUEUE_PREFIX: prefix,
      OUTBOX_SWEEP_INTERVAL_MS: '100',
      WORKER_METRICS_PORT: String(await freePort()),
    });
    worker = await startWorker({ env, logger: silentLogger });
  });
  afterAll(async () => {
    await worker?.close();
    await smtp?.close();
    await database?.cleanup();
  });

  const record = (to: string) =>
    recordEmail(database.sql, {
      to,
      template: 'email-verify',
      locale: 'ru',
      data: { name: 'Иван', link: `https://shop.example/verify-email/${randomUUID()}`, expiresInMinutes: 4_320 },
    });

  it('delivers an enqueued email over SMTP', async () => {
    const queue = createBullQueue({ redisUrl: redisUrl!, prefix });
    try {
      const id = await record('ivan@example.com');
      await queue.enqueue({ kind: 'email.send', emailId: id }, { jobId: id });
      const [mail] = await smtp.waitFor(1);
      expect(mail?.recipients).toEqual(['ivan@example.com']);
      expect(mail?.parsed.subject).toBe('Подтвердите адрес электронной почты');
      expect(mail?.parsed.text).toContain('Ссылка действует 3 дня.');
      await eventually(
        async () => (await database.prisma.outboundEmail.findUniqueOrThrow({ where: { id } })).status === 'SENT',
      );
    } finally {
      await queue.close();
    }
  });

  it('sweeps up an email whose job was lost after the commit', async () => {
    const id = await record('lost@example.com');
    await database.prisma.outboundEmail.update({ where: { id }, data: { createdAt: new Date(Date.now() - 120_000) } });
    await eventually(() => smtp.received.some((mail) => mail.recipients.includes('lost@example.com')));
    await eventually(
      async () => (await database.prisma.outboundEmail.findUniqueOrThrow({ where: { id } })).status === 'SENT',
    );
  });

  it('answers /metrics to the loopback address with the jobs it ran, and 404 to anything else', async () => {
    await eventually(() => smtp.received.length > 0);
    const url = `http://127.0.0.1:${worker.metricsPort}`;
    const answer = await fetch(`${url}/metrics`);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).toMatch(/store_jobs_total\{[^}]*kind="email\.send"[^}]*outcome="done"[^}]*\} [1-9]/);
    expect(text).toContain('process="worker"');
    expect((await fetch(`${url}/`)).status).toBe(404);
  });
});
