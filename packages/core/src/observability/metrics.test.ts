import { randomBytes, randomUUID } from 'node:crypto';
import { createCodeCipher } from '@store/db';
import { createProductRefs, createTestDatabase, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, transfer } from '../ledger/ledger-service.ts';
import { silentLogger } from '../shared/logger.ts';
import {
  createJobMetrics,
  createMetricsRegistry,
  createStoreGauges,
  mayReadMetrics,
  measuredHandlers,
} from './metrics.ts';
import { startMetricsServer } from './metrics-server.ts';

let database: TestDatabase;
const db = () => database.prisma;
const cipher = createCodeCipher('3c'.repeat(32));

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.cleanup();
});

/** The value of a sample in Prometheus' text format, by its name and labels as written. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}${labels ? `{${labels}` : ''}`));
  if (!line) return undefined;
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('who may read the metrics', () => {
  it('the loopback address, or a caller with the token; nobody else', () => {
    for (const address of ['127.0.0.1', '127.3.4.5', '::1', '::ffff:127.0.0.1']) {
      expect(mayReadMetrics(address, undefined, undefined), address).toBe(true);
    }
    for (const address of ['10.0.0.5', '203.0.113.9', '::ffff:192.168.1.2', '2001:db8::1', undefined]) {
      expect(mayReadMetrics(address, undefined, 'a-token-of-some-length'), String(address)).toBe(false);
    }
    const token = 'metrics-token-0123456789';
    expect(mayReadMetrics('203.0.113.9', `Bearer ${token}`, token)).toBe(true);
    expect(mayReadMetrics('203.0.113.9', `Bearer ${token}x`, token)).toBe(false);
    expect(mayReadMetrics('203.0.113.9', token, token)).toBe(false);
    // Without a token configured, no header opens it.
    expect(mayReadMetrics('203.0.113.9', 'Bearer ', undefined)).toBe(false);
  });
});

describe('the store-wide gauges', () => {
  it('say what the database holds: orders, events, emails, refunds, debts, low stock, the books', async () => {
    const user = await db().user.create({
      data: { email: `metrics.${randomUUID()}@example.com`, name: 'Metrics', passwordHash: 'x' },
    });
    const order = (status: 'CREATED' | 'EXPIRED') =>
      db().order.create({
        data: { userId: user.id, type: 'BALANCE', status, subtotalMinor: 100n, totalMinor: 100n },
      });
    const created = await order('CREATED');
    await order('CREATED');
    await order('EXPIRED');
    const event = (id: string, extra: object) =>
      db().paymentEvent.create({
        data: {
          provider: 'sandbox',
          providerEventId: id,
          type: 'payment.succeeded',
          payload: {},
          orderId: created.id,
          receivedAt: new Date(Date.now() - 90_000),
          ...extra,
        },
      });
    await event('evt_waiting', {});
    await event('evt_dead', { deadAt: new Date(), attempts: 10 });
    await event('evt_aside', { processedAt: new Date(), rejection: 'amount_mismatch' });
    await db().outboundEmail.createMany({
      data: [
        { toAddress: user.email, template: 'order-receipt', locale: 'en', data: {}, status: 'PENDING' },
        { toAddress: user.email, template: 'order-receipt', locale: 'en', data: {}, status: 'FAILED' },
      ],
    });
    await database.sql.transaction((tx) =>
      transfer(tx, {
        key: `test:${randomUUID()}`,
        kind: 'PROVIDER_REFUND',
        from: accounts.receivable(user.id),
        to: accounts.clearing('sandbox'),
        amountMinor: 1_250,
      }),
    );
    const refs = await createProductRefs(db());
    const scarce = await db().product.create({
      data: { ...refs, name: `Scarce ${randomBytes(3).toString('hex')}`, nominalMinor: 1_000, priceMinor: 1_000 },
    });
    await db().productCode.create({
      data: { productId: scarce.id, ciphertext: cipher.encrypt('ONLY-ONE'), codeDigest: cipher.digest('ONLY-ONE') },
    });

    const registry = createMetricsRegistry('api');
    const depths = async () => [{ queue: 'store-payments', state: 'waiting', count: 3 }];
    const gauges = createStoreGauges(registry, {
      sql: database.sql,
      queue: { depths },
      ledgerCheckEveryMs: 0,
    });
    await gauges.refresh();
    const text = await registry.metrics();

    expect(sample(text, 'store_orders', 'status="created"')).toBe(2);
    expect(sample(text, 'store_orders', 'status="expired"')).toBe(1);
    // A status no order has is there too, at 0.
    expect(sample(text, 'store_orders', 'status="partially_refunded"')).toBe(0);
    expect(sample(text, 'store_payment_events', 'state="waiting"')).toBe(1);
    expect(sample(text, 'store_payment_events', 'state="dead"')).toBe(1);
    expect(sample(text, 'store_payment_events', 'state="set_aside"')).toBe(1);
    expect(sample(text, 'store_payment_event_oldest_waiting_seconds')).toBeGreaterThanOrEqual(89);
    expect(sample(text, 'store_outbox_emails', 'status="pending"')).toBe(1);
    expect(sample(text, 'store_outbox_emails', 'status="failed"')).toBe(1);
    expect(sample(text, 'store_customers_owing')).toBe(1);
    expect(sample(text, 'store_owed_minor')).toBe(1_250);
    expect(sample(text, 'store_product_stock_low', `product_id="${scarce.id}"`)).toBe(1);
    expect(sample(text, 'store_queue_jobs', 'queue="store-payments",state="waiting"')).toBe(3);
    expect(sample(text, 'store_ledger_problems')).toBe(0);
    expect(text).toContain('process="api"');
    expect(text).toContain('store_process_cpu_user_seconds_total');

    // Books that do not balance are seen at the next proof.
    await db().user.update({ where: { id: user.id }, data: { balanceMinor: 1n } });
    try {
      await gauges.refresh();
      expect(sample(await registry.metrics(), 'store_ledger_problems')).toBe(1);
    } finally {
      await db().user.update({ where: { id: user.id }, data: { balanceMinor: 0n } });
    }
  });
});

describe('the worker’s jobs and its /metrics', () => {
  it('counts each job by kind and outcome, and serves them to the loopback address', async () => {
    const registry = createMetricsRegistry('worker');
    const jobs = createJobMetrics(registry);
    const failing = async () => {
      throw new Error('no');
    };
    const handlers = measuredHandlers(
      {
        health: async () => ({ nonce: 'n', handledAt: new Date().toISOString(), database: 'ok' as const }),
        'email.send': failing,
        'payment.event': failing,
        'payment.refund': failing,
      },
      jobs,
    );
    await handlers.health({ kind: 'health', nonce: 'n', requestedAt: new Date().toISOString() });
    await expect(handlers['email.send']({ kind: 'email.send', emailId: randomUUID() })).rejects.toThrow('no');

    const server = await startMetricsServer({
      registry,
      host: '127.0.0.1',
      port: 0,
      token: undefined,
      logger: silentLogger,
    });
    try {
      const answer = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(sample(text, 'store_jobs_total', 'kind="health",outcome="done"')).toBe(1);
      expect(sample(text, 'store_jobs_total', 'kind="email.send",outcome="failed"')).toBe(1);
      expect(sample(text, 'store_job_last_done_timestamp_seconds')).toBeGreaterThan(1_700_000_000);
      expect((await fetch(`http://127.0.0.1:${server.port}/other`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
