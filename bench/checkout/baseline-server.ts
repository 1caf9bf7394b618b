import { randomUUID } from 'node:crypto';
import { createSandboxPaymentProvider } from '@store/core';
import { createCodeCipher } from '@store/db';
import Fastify from 'fastify';
import pg from 'pg';

/**
 * The baseline: bare Fastify and pg doing the checkout's writes in hand-written SQL, the customer
 * named by a header (no sessions), no validation, no rate limits, no queue. The callback is verified
 * as the store verifies it (the same Standard Webhooks check), stored under its event id and applied
 * in this process right after the answer: the order is paid, its codes claimed with SKIP LOCKED,
 * its basket lines taken out, the event marked processed. What it leaves out against the store: the
 * ledger, the receipt in the outbox, the state machine's checks, Redis and the worker process.
 */
const databaseUrl = process.env.BENCH_DATABASE_URL;
const port = Number(process.env.BENCH_PORT);
const secret = process.env.PAYMENTS_WEBHOOK_SECRETS;
const key = process.env.CODE_ENCRYPTION_KEY;
if (!databaseUrl || !port || !secret || !key) {
  throw new Error('BENCH_DATABASE_URL, BENCH_PORT, PAYMENTS_WEBHOOK_SECRETS and CODE_ENCRYPTION_KEY are required');
}

const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const cipher = createCodeCipher(key);
const verifier = createSandboxPaymentProvider({
  apiUrl: 'http://127.0.0.1:9',
  publicUrl: 'http://127.0.0.1:9',
  apiKey: 'unused-by-the-baseline',
  webhookSecrets: [secret],
  callbackUrl: 'http://127.0.0.1:9',
});
const app = Fastify({ logger: false });

async function transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

const user = (headers: Record<string, unknown>) => String(headers['x-user-id']);

app.post('/orders/create', async (request, reply) => {
  const userId = user(request.headers);
  const order = await transaction(async (client) => {
    await client.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
    const { rows: lines } = await client.query<{ id: number; name: string; price_minor: number; quantity: number }>(
      `SELECT p.id, p.name, p.price_minor, bl.quantity FROM basket_lines bl JOIN products p ON p.id = bl.product_id
       WHERE bl.user_id = $1 AND p.stock_count >= bl.quantity ORDER BY bl.position`,
      [userId],
    );
    if (lines.length === 0) return null;
    const total = lines.reduce((sum, line) => sum + line.price_minor * line.quantity, 0);
    const id = randomUUID();
    await client.query(
      `INSERT INTO orders (id, user_id, type, subtotal_minor, total_minor, currency, expires_at, updated_at)
       VALUES ($1, $2, 'PURCHASE', $3, $3, 'BRL', now() + interval '30 minutes', now())`,
      [id, userId, total],
    );
    for (const line of lines) {
      await client.query(
        `INSERT INTO order_lines (id, order_id, product_id, product_name, quantity, unit_price_minor)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [randomUUID(), id, line.id, line.name, line.quantity, line.price_minor],
      );
    }
    return { order_id: id, total_minor: total };
  });
  if (!order) return reply.code(422).send({ message: 'out of stock' });
  return reply.code(201).send(order);
});

app.post<{ Body: { orderId: string } }>('/payment', async (request, reply) => {
  const { rows } = await pool.query<{ total_minor: number }>(
    `UPDATE orders SET status = 'PENDING', updated_at = now() WHERE id = $1 AND user_id = $2 RETURNING total_minor`,
    [request.body.orderId, user(request.headers)],
  );
  const order = rows[0];
  if (!order || order.total_minor <= 0) return reply.code(422).send({ message: 'nothing to pay' });
  const id = randomUUID();
  await pool.query(
    `INSERT INTO payments (id, order_id, provider, method, amount_minor, currency, updated_at)
     VALUES ($1, $2, 'sandbox', 'WIDGET', $3, 'BRL', now())`,
    [id, request.body.orderId, order.total_minor],
  );
  return { payment_id: id };
});

async function applyEvent(eventId: string, orderId: string, providerPaymentId: string) {
  await transaction(async (client) => {
    const { rows: events } = await client.query('SELECT processed_at FROM payment_events WHERE id = $1 FOR UPDATE', [
      eventId,
    ]);
    if (events[0]?.processed_at) return;
    const { rows: orders } = await client.query<{ user_id: string }>(
      'SELECT user_id FROM orders WHERE id = $1 FOR NO KEY UPDATE',
      [orderId],
    );
    const { rows: payments } = await client.query<{ id: string }>(
      `UPDATE payments SET status = 'SUCCEEDED', provider_payment_id = $2, provider_version = 2, updated_at = now()
       WHERE id = (SELECT id FROM payments WHERE order_id = $1 AND provider_payment_id IS NULL LIMIT 1) RETURNING id`,
      [orderId, providerPaymentId],
    );
    await client.query(
      `UPDATE orders SET status = 'FULFILLED', paid_at = now(), fulfilled_at = now(), payment_id = $2, updated_at = now()
       WHERE id = $1`,
      [orderId, payments[0]?.id],
    );
    const { rows: lines } = await client.query<{ id: string; product_id: number; quantity: number }>(
      'SELECT id, product_id, quantity FROM order_lines WHERE order_id = $1 ORDER BY product_id',
      [orderId],
    );
    for (const line of lines) {
      await client.query(
        `UPDATE product_codes SET status = 'SOLD', order_line_id = $1, sold_at = now()
         WHERE id IN (SELECT id FROM product_codes WHERE product_id = $2 AND status = 'AVAILABLE'
                      ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)`,
        [line.id, line.product_id, line.quantity],
      );
      await client.query('DELETE FROM basket_lines WHERE user_id = $1 AND product_id = $2', [
        orders[0]?.user_id,
        line.product_id,
      ]);
    }
    await client.query(
      `UPDATE payment_events SET processed_at = now(), outcome = 'completed', attempts = attempts + 1 WHERE id = $1`,
      [eventId],
    );
  });
}

// The signature covers the bytes as sent: this route alone reads its body raw.
await app.register(async (raw) => {
  raw.removeAllContentTypeParsers();
  raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  raw.post('/payments/callback', async (request, reply) => {
    const event = verifier.verifyCallback(request.body as Buffer, request.headers);
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO payment_events (id, provider, provider_event_id, type, payload, provider_payment_id, order_id, version)
       VALUES ($1, 'sandbox', $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
      [
        randomUUID(),
        event.eventId,
        event.type,
        JSON.stringify(event.payload),
        event.providerPaymentId,
        event.orderId,
        event.version,
      ],
    );
    const stored = rows[0];
    if (stored) {
      setImmediate(() => {
        applyEvent(stored.id, event.orderId, event.providerPaymentId).catch((error) =>
          console.error('baseline: applying an event failed', error),
        );
      });
    }
    return reply.send({ received: true, duplicate: !stored });
  });
});

app.post<{ Body: { orderId: string } }>('/payment/status', async (request) => {
  const { rows } = await pool.query<{ status: string }>('SELECT status FROM orders WHERE id = $1 AND user_id = $2', [
    request.body.orderId,
    user(request.headers),
  ]);
  return { status: rows[0]?.status === 'FULFILLED' ? 'success' : 'init' };
});

app.get<{ Params: { orderId: string } }>('/payment-confirm/:orderId', async (request) => {
  const userId = user(request.headers);
  const { rows } = await pool.query<{ id: string; ciphertext: Buffer }>(
    `SELECT pc.id, pc.ciphertext FROM product_codes pc JOIN order_lines ol ON ol.id = pc.order_line_id
     JOIN orders o ON o.id = ol.order_id WHERE o.id = $1 AND o.user_id = $2`,
    [request.params.orderId, userId],
  );
  for (const row of rows) {
    await pool.query(`INSERT INTO code_reveals (id, user_id, code_id, ip, route) VALUES ($1, $2, $3, $4, $5)`, [
      randomUUID(),
      userId,
      row.id,
      request.ip,
      '/payment-confirm/:orderId',
    ]);
  }
  return { codes: rows.map((row) => ({ id: row.id, code: cipher.decrypt(row.ciphertext) })) };
});

await app.listen({ host: '127.0.0.1', port });
process.send?.({ ready: true });
process.on('SIGTERM', async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});
