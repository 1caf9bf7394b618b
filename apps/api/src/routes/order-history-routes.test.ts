import { randomUUID } from 'node:crypto';
import {
  CreateOrderResponseSchema,
  MessageErrorSchema,
  OrderHistoryDetailSchema,
  OrderHistoryPageSchema,
  orderNumber,
} from '@store/contract';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { createCodedProduct, fund } from '../../test/orders.ts';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp(
    { RATE_LIMIT_SCALE: '1000', STORE_LEGAL_NAME: 'Loja Teste Ltda.', STORE_TAX_ID: '11.222.333/0001-44' },
    { queue: createRecordingQueue() },
  );
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.prisma;
const get = (url: string, token?: string) => call(ctx.app, 'GET', url, { token });

/** The receipt as the browser downloads it: the raw answer, not JSON. */
const receipt = (orderId: string, token?: string) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/profile/orders/${orderId}/receipt`,
    headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });

/**
 * A signed-in customer with two orders of a fresh product: a failed one (a card refused), then one
 * paid from the balance.
 */
async function customerWithOrders() {
  const customer = await registerUser(ctx.app);
  await fund(ctx.database.sql, customer.user.id, 100_000);
  const { product, codes } = await createCodedProduct(db(), { priceMinor: 1_990, stock: 5 });
  const basket = await call(ctx.app, 'PATCH', '/api/basket', {
    token: customer.token,
    body: { flush_id: randomUUID(), products: [{ id: product.id, type: 'increase', count: 2 }] },
  });
  expect(basket.status, JSON.stringify(basket.body)).toBe(200);
  const first = await call(ctx.app, 'POST', '/api/orders/create', {
    token: customer.token,
    body: { type: 'purchase' },
  });
  const failed = CreateOrderResponseSchema.parse(first.body).order_id;
  await db().payment.create({
    data: {
      orderId: failed,
      provider: 'sandbox',
      method: 'CARD',
      status: 'FAILED',
      amountMinor: 3_980,
      currency: 'BRL',
    },
  });
  await db().order.update({ where: { id: failed }, data: { status: 'FAILED', changedBy: 'system' } });
  const second = await call(ctx.app, 'POST', '/api/orders/create?type=spending', {
    token: customer.token,
    body: { type: 'spending' },
  });
  const paid = CreateOrderResponseSchema.parse(second.body).order_id;
  const spent = await call(ctx.app, 'POST', `/api/payment/spending-balance-handle?orderId=${paid}`, {
    token: customer.token,
  });
  expect(spent.status, JSON.stringify(spent.body)).toBe(200);
  return { ...customer, product, codes, failed, paid };
}

describe('GET /profile/orders and /profile/orders/{id}', () => {
  it('asks for a session', async () => {
    const id = randomUUID();
    for (const url of ['/api/profile/orders', `/api/profile/orders/${id}`]) {
      const response = await get(url);
      expect(response.status).toBe(401);
      expect(MessageErrorSchema.safeParse(response.body).success).toBe(true);
    }
    expect((await receipt(id)).statusCode).toBe(401);
  });

  it('lists the customer’s orders newest first, a failed one beside the paid one, and opens each', async () => {
    const customer = await customerWithOrders();
    const listed = await get('/api/profile/orders', customer.token);
    expect(listed.status).toBe(200);
    expect(listed.headers['cache-control']).toBe('no-store');
    const page = OrderHistoryPageSchema.parse(listed.body);
    expect(page).toMatchObject({ page: 1, pages: 1, total: 2 });
    expect(page.orders.map((order) => [order.id, order.status, order.method, order.receipt])).toEqual([
      [customer.paid, 'fulfilled', 'balance', true],
      [customer.failed, 'failed', 'card', false],
    ]);
    expect(page.orders[0]).toMatchObject({
      number: orderNumber(customer.paid),
      total_minor: 3_980,
      paid_minor: 3_980,
      lines: [{ product_id: customer.product.id, quantity: 2, unit_price_minor: 1_990, delivered: 2 }],
    });
    for (const code of customer.codes) expect(JSON.stringify(page)).not.toContain(code);

    const one = await get(`/api/profile/orders/${customer.failed}`, customer.token);
    expect(one.status).toBe(200);
    expect(OrderHistoryDetailSchema.parse(one.body).order).toMatchObject({ id: customer.failed, status: 'failed' });
  });

  it('finds no order of anyone else’s, and says which input is wrong', async () => {
    const owner = await customerWithOrders();
    const stranger = await registerUser(ctx.app);
    expect((await get(`/api/profile/orders/${owner.paid}`, stranger.token)).status).toBe(404);
    expect((await get(`/api/profile/orders/${randomUUID()}`, owner.token)).status).toBe(404);
    const listed = OrderHistoryPageSchema.parse((await get('/api/profile/orders', stranger.token)).body);
    expect(listed.orders).toEqual([]);
    expect((await get('/api/profile/orders/not-an-id', owner.token)).status).toBe(422);
    expect((await get('/api/profile/orders?page=0', owner.token)).status).toBe(422);
    expect((await get('/api/profile/orders?page=abc', owner.token)).status).toBe(422);
    const beyond = OrderHistoryPageSchema.parse((await get('/api/profile/orders?page=5', owner.token)).body);
    expect(beyond).toMatchObject({ orders: [], page: 5, pages: 1, total: 2 });
  });
});

describe('GET /profile/orders/{id}/receipt', () => {
  it('downloads a paid order’s receipt as a PDF holding its number, total and seller, and no code', async () => {
    const customer = await customerWithOrders();
    const response = await receipt(customer.paid, customer.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="receipt-${orderNumber(customer.paid)}.pdf"`,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const { text } = await extractText(new Uint8Array(response.rawPayload), { mergePages: true });
    const plain = (value: string) => value.replace(/\s+/g, ' ');
    // In the customer's language (English, as registered here), money as the store's pages write it.
    expect((await db().user.findUniqueOrThrow({ where: { id: customer.user.id } })).locale).toBe('en');
    for (const expected of [
      orderNumber(customer.paid),
      'Total paid BRL 39.80',
      'BRL 19.90',
      'Loja Teste Ltda.',
      '11.222.333/0001-44',
      customer.product.name,
    ]) {
      expect(plain(text)).toContain(expected);
    }
    for (const code of customer.codes) expect(text).not.toContain(code);
  });

  it('has no receipt for an order never paid (409), nor for anyone else’s order (404)', async () => {
    const customer = await customerWithOrders();
    const unpaid = await receipt(customer.failed, customer.token);
    expect(unpaid.statusCode).toBe(409);
    expect(MessageErrorSchema.parse(unpaid.json()).message).toMatch(/not paid/);
    const stranger = await registerUser(ctx.app);
    expect((await receipt(customer.paid, stranger.token)).statusCode).toBe(404);
    expect((await receipt(randomUUID(), customer.token)).statusCode).toBe(404);
  });

  it('is documented with the order history in OpenAPI', async () => {
    const paths = Object.keys((await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths);
    for (const path of ['/api/profile/orders', '/api/profile/orders/{id}', '/api/profile/orders/{id}/receipt']) {
      expect(paths).toContain(path);
    }
  });
});
