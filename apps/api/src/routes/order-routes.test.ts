import { randomUUID } from 'node:crypto';
import {
  CreateOrderResponseSchema,
  ErrorKeys,
  OrderDeliverySchema,
  PaymentStatusResponseSchema,
  PurchasedSearchResponseSchema,
  SpendResponseSchema,
  ValidationErrorSchema,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectFieldError, registerUser } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';
import { createCodedProduct, fund, testCipher } from '../../test/orders.ts';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' }, { queue: createRecordingQueue() });
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.prisma;

async function addToBasket(token: string, id: number, count: number) {
  const response = await call(ctx.app, 'PATCH', '/api/basket', {
    token,
    body: { flush_id: randomUUID(), products: [{ id, type: 'increase', count }] },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

const createOrder = (token: string | undefined, body: unknown, query = '') =>
  call(ctx.app, 'POST', `/api/orders/create${query}`, { token, body });
const spend = (token: string | undefined, orderId: string) =>
  call(ctx.app, 'POST', `/api/payment/spending-balance-handle?orderId=${orderId}`, { token });
const status = (token: string | undefined, orderId: string) =>
  call(ctx.app, 'POST', '/api/payment/status', { token, body: { orderId } });
const confirm = (token: string | undefined, orderId: string) =>
  call(ctx.app, 'GET', `/api/payment-confirm/${orderId}`, { token });
const products = (token: string | undefined, orderId: string) =>
  call(ctx.app, 'GET', `/api/payment-products/${orderId}`, { token });
const purchased = (token: string | undefined, query = '') =>
  call(ctx.app, 'GET', `/api/profile/products/purchased/search${query}`, { token });

/** A signed-in customer with `balanceMinor` on the balance and `count` of a fresh product in the basket. */
async function customerWithBasket({ balanceMinor = 0, priceMinor = 2_990, stock = 5, count = 1 } = {}) {
  const customer = await registerUser(ctx.app);
  if (balanceMinor > 0) await fund(ctx.database.sql, customer.user.id, balanceMinor);
  const { product, codes } = await createCodedProduct(db(), { priceMinor, stock });
  await addToBasket(customer.token, product.id, count);
  return { ...customer, product, codes };
}

async function spendingOrder(token: string) {
  const response = await createOrder(token, { type: 'spending' }, '?type=spending');
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return CreateOrderResponseSchema.parse(response.body);
}

describe('OpenAPI', () => {
  it('documents every order, payment and delivery call', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    for (const path of [
      '/api/orders/create',
      '/api/payment/spending-balance-handle',
      '/api/payment/status',
      '/api/payment-confirm/{orderId}',
      '/api/payment-products/{id}',
      '/api/profile/products/purchased/search',
    ]) {
      expect(paths).toContain(path);
    }
  });
});

describe('without a token', () => {
  it('answers 401 to every order, payment and delivery call', async () => {
    const id = randomUUID();
    for (const response of [
      await createOrder(undefined, { type: 'purchase' }),
      await spend(undefined, id),
      await status(undefined, id),
      await confirm(undefined, id),
      await products(undefined, id),
      await purchased(undefined),
    ]) {
      expect(response.status).toBe(401);
    }
  });
});

describe('POST /api/orders/create', () => {
  it('creates a purchase from the server basket at the database price', async () => {
    const { token, product } = await customerWithBasket({ priceMinor: 1_250, count: 2 });
    const response = await createOrder(token, { type: 'purchase', total_price: 1, price: 1 });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const order = CreateOrderResponseSchema.parse(response.body);
    expect(order).toMatchObject({ total_price: 25, total_minor: 2_500, currency: 'BRL', status: 'created' });
    const stored = await db().order.findUniqueOrThrow({ where: { id: order.order_id }, include: { lines: true } });
    expect(stored.lines).toEqual([
      expect.objectContaining({ productId: product.id, quantity: 2, unitPriceMinor: 1_250 }),
    ]);
  });

  it('answers 422 naming the lines the stock cannot cover', async () => {
    const { token, product } = await customerWithBasket({ stock: 3, count: 3 });
    await db().productCode.deleteMany({ where: { productId: product.id, status: 'AVAILABLE' } });
    const response = await createOrder(token, { type: 'purchase' });
    expectFieldError(response, `products.${product.id}`, ErrorKeys.outOfStock);
    expect(response.body.message).toContain(product.name);
  });

  it('answers 422 for an empty basket, a bad type and a bad promo code', async () => {
    const { token } = await registerUser(ctx.app);
    expectFieldError(await createOrder(token, { type: 'purchase' }), 'basket', ErrorKeys.emptyBasket);
    expectFieldError(await createOrder(token, { type: 'gift' }), 'type', ErrorKeys.unknownOption);
    expectFieldError(await createOrder(token, {}), 'type', ErrorKeys.requiredField);
    const withBasket = await customerWithBasket();
    expectFieldError(
      await createOrder(withBasket.token, { type: 'purchase', code: 'NOSUCHCODE' }),
      'code',
      ErrorKeys.invalidPromoCode,
    );
    expect(await db().order.count({ where: { userId: withBasket.user.id } })).toBe(0);
  });

  it('creates a top-up of at least TOPUP_MIN and at most seven digits', async () => {
    const { token } = await registerUser(ctx.app);
    const created = await createOrder(token, { type: 'balance', replenishmentValue: '100' });
    expect(created.status).toBe(201);
    expect(CreateOrderResponseSchema.parse(created.body)).toMatchObject({ total_minor: 10_000, type: 'balance' });
    expectFieldError(
      await createOrder(token, { type: 'balance', replenishmentValue: 99 }),
      'replenishmentValue',
      ErrorKeys.tooSmall,
    );
    expectFieldError(
      await createOrder(token, { type: 'balance', replenishmentValue: '10000000' }),
      'replenishmentValue',
      ErrorKeys.tooLarge,
    );
    expectFieldError(
      await createOrder(token, { type: 'balance', replenishmentValue: '12.5' }),
      'replenishmentValue',
      ErrorKeys.notANumber,
    );
    expectFieldError(await createOrder(token, { type: 'balance' }), 'replenishmentValue', ErrorKeys.requiredField);
  });

  it('refuses ?type=spending the balance cannot cover with the insufficient-funds key', async () => {
    const { token } = await customerWithBasket({ balanceMinor: 1_000, priceMinor: 2_990 });
    const response = await createOrder(token, { type: 'spending' }, '?type=spending');
    expectFieldError(response, 'balance', ErrorKeys.insufficientFunds);
  });
});

describe('paying from the balance and delivery', () => {
  it('spends, fulfils, and shows the codes with their instructions to the owner', async () => {
    const { token, user, product, codes } = await customerWithBasket({ balanceMinor: 10_000, count: 2 });
    const order = await spendingOrder(token);
    expect(PaymentStatusResponseSchema.parse((await status(token, order.order_id)).body)).toMatchObject({
      status: 'init',
      order_status: 'created',
    });

    const spent = await spend(token, order.order_id);
    expect(spent.status, JSON.stringify(spent.body)).toBe(200);
    expect(SpendResponseSchema.parse(spent.body)).toEqual({
      order_id: order.order_id,
      status: 'fulfilled',
      total_minor: 5_980,
      refunded_minor: 0,
      balance: 40.2,
      balance_minor: 4_020,
    });
    expect((await call(ctx.app, 'GET', '/api/basket', { token })).body.products).toEqual([]);
    expect(PaymentStatusResponseSchema.parse((await status(token, order.order_id)).body)).toMatchObject({
      status: 'success',
      order_status: 'fulfilled',
    });

    const confirmed = await confirm(token, order.order_id);
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers['cache-control']).toBe('no-store');
    const delivery = OrderDeliverySchema.parse(confirmed.body);
    expect(delivery.order).toMatchObject({ status: 'fulfilled', total_minor: 5_980, type: 'spending' });
    expect(delivery.products).toHaveLength(1);
    expect(delivery.products[0]).toMatchObject({
      product_id: product.id,
      quantity: 2,
      delivered: 2,
      activation_instructions: 'Open the store, choose Redeem and type the code.',
    });
    const shown = delivery.products[0]?.codes.map((code) => code.code) ?? [];
    expect(shown).toHaveLength(2);
    expect(codes).toEqual(expect.arrayContaining(shown));
    expect(OrderDeliverySchema.parse((await products(token, order.order_id)).body).products[0]?.codes).toHaveLength(2);

    // The instructions come in the customer's saved language when the product has them.
    await db().productTranslation.create({
      data: {
        productId: product.id,
        locale: 'pt-BR',
        description: 'Cartão de teste.',
        activationInstructions: 'Abra a loja, escolha Resgatar e digite o código.',
      },
    });
    await db().user.update({ where: { id: user.id }, data: { locale: 'pt-BR' } });
    expect(OrderDeliverySchema.parse((await products(token, order.order_id)).body).products[0]).toMatchObject({
      activation_instructions: 'Abra a loja, escolha Resgatar e digite o código.',
    });

    const reveals = await db().codeReveal.findMany({ where: { userId: user.id } });
    expect(reveals).toHaveLength(6);
    expect(new Set(reveals.map((reveal) => reveal.route))).toEqual(
      new Set(['/api/payment-confirm/:orderId', '/api/payment-products/:id']),
    );
    expect(reveals.every((reveal) => reveal.ip === '127.0.0.1')).toBe(true);
    expect(await ctx.app.services.ledger.verifyBooks()).toEqual([]);
  });

  it('answers a short balance with 422 on balance, which the web app shows as insufficient funds', async () => {
    const { token, user } = await customerWithBasket({ balanceMinor: 3_000, priceMinor: 2_990 });
    const first = await spendingOrder(token);
    const second = await spendingOrder(token);
    expect((await spend(token, first.order_id)).status).toBe(200);
    const refused = await spend(token, second.order_id);
    expectFieldError(refused, 'balance', ErrorKeys.insufficientFunds);
    expect(ValidationErrorSchema.parse(refused.body).message).toBe('Your balance is too low for this order.');
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).balanceMinor).toBe(10n);
  });

  // A race: run three times, each on a customer of its own.
  it('lets exactly ten of fifty concurrent spends of 10 through a balance of 100', { repeats: 2 }, async () => {
    const { token, user, product } = await customerWithBasket({ balanceMinor: 10_000, priceMinor: 1_000, stock: 50 });
    const orders = [];
    for (let index = 0; index < 50; index += 1) orders.push(await spendingOrder(token));
    const results = await Promise.all(orders.map((order) => spend(token, order.order_id)));
    expect(results.filter((result) => result.status >= 500)).toEqual([]);
    expect(results.filter((result) => result.status === 200)).toHaveLength(10);
    const refused = results.filter((result) => result.status === 422);
    expect(refused).toHaveLength(40);
    for (const response of refused) expectFieldError(response, 'balance', ErrorKeys.insufficientFunds);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).balanceMinor).toBe(0n);
    const ledger = await db().ledgerEntry.aggregate({ where: { userId: user.id }, _sum: { amountMinor: true } });
    expect(ledger._sum.amountMinor).toBe(0n);
    expect(await db().productCode.count({ where: { productId: product.id, status: 'SOLD' } })).toBe(10);
    expect(await ctx.app.services.ledger.verifyBooks()).toEqual([]);
  });

  it('answers 422 for a malformed order id and for an order that is not a spend', async () => {
    const { token } = await customerWithBasket({ balanceMinor: 10_000 });
    expectFieldError(await spend(token, 'not-an-id'), 'orderId', ErrorKeys.invalidValue);
    const purchase = CreateOrderResponseSchema.parse((await createOrder(token, { type: 'purchase' })).body);
    expectFieldError(await spend(token, purchase.order_id), 'orderId', ErrorKeys.orderNotPayable);
  });
});

describe('another customer', () => {
  it('gets 404 for the order, its status, its spend, its products and its codes', async () => {
    const owner = await customerWithBasket({ balanceMinor: 10_000 });
    const order = await spendingOrder(owner.token);
    const stranger = await registerUser(ctx.app);
    await fund(ctx.database.sql, stranger.user.id, 10_000);

    expect((await spend(stranger.token, order.order_id)).status).toBe(404);
    expect((await status(stranger.token, order.order_id)).status).toBe(404);
    expect((await spend(owner.token, order.order_id)).status).toBe(200);
    for (const response of [
      await status(stranger.token, order.order_id),
      await confirm(stranger.token, order.order_id),
      await products(stranger.token, order.order_id),
      await spend(stranger.token, order.order_id),
    ]) {
      expect(response.status).toBe(404);
      expect(JSON.stringify(response.body)).not.toContain(owner.codes[0]);
    }
    const theirs = PurchasedSearchResponseSchema.parse((await purchased(stranger.token)).body);
    expect(theirs).toEqual({ products: [], page: 1, pages: 0, total: 0 });
    expect(await db().codeReveal.count({ where: { userId: stranger.user.id } })).toBe(0);
    expect((await db().user.findUniqueOrThrow({ where: { id: stranger.user.id } })).balanceMinor).toBe(10_000n);
  });

  it('gets 404 for an order that does not exist', async () => {
    const { token } = await registerUser(ctx.app);
    expect((await confirm(token, randomUUID())).status).toBe(404);
    expect((await status(token, randomUUID())).status).toBe(404);
  });
});

describe('GET /api/profile/products/purchased/search', () => {
  it('pages the purchased products newest first and finds them by name', async () => {
    const customer = await registerUser(ctx.app);
    await fund(ctx.database.sql, customer.user.id, 1_000_000);
    const names: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      const name = `${index % 3 === 0 ? 'Nebula' : 'Plain'} Card ${randomUUID().slice(0, 6)}`;
      const { product } = await createCodedProduct(db(), { priceMinor: 100, stock: 1, name });
      await addToBasket(customer.token, product.id, 1);
      const order = await spendingOrder(customer.token);
      expect((await spend(customer.token, order.order_id)).status).toBe(200);
      names.push(name);
    }
    const first = PurchasedSearchResponseSchema.parse((await purchased(customer.token)).body);
    expect(first).toMatchObject({ page: 1, pages: 2, total: 12 });
    expect(first.products).toHaveLength(10);
    expect(first.products[0]?.name).toBe(names[11]);
    const second = PurchasedSearchResponseSchema.parse((await purchased(customer.token, '?page=2')).body);
    expect(second.products.map((line) => line.name)).toEqual([names[1], names[0]]);
    for (const line of [...first.products, ...second.products]) {
      expect(line.codes).toHaveLength(1);
      const stored = await db().productCode.findUniqueOrThrow({ where: { id: line.codes[0]?.id } });
      expect(testCipher.decrypt(stored.ciphertext)).toBe(line.codes[0]?.code);
    }

    const found = PurchasedSearchResponseSchema.parse((await purchased(customer.token, '?search_string=nebula')).body);
    expect(found.total).toBe(4);
    expect(found.products.every((line) => line.name.startsWith('Nebula'))).toBe(true);
    // A word spelt nearly right finds them too, and nothing else.
    const misspelt = PurchasedSearchResponseSchema.parse(
      (await purchased(customer.token, '?search_string=nebulla')).body,
    );
    expect(misspelt.total).toBe(4);
    expect(misspelt.products.every((line) => line.name.startsWith('Nebula'))).toBe(true);
    // LIKE's wildcards are searched for as themselves.
    for (const wildcard of ['%25', '_']) {
      expect(
        PurchasedSearchResponseSchema.parse((await purchased(customer.token, `?search_string=${wildcard}`)).body).total,
      ).toBe(0);
    }
    expectFieldError(await purchased(customer.token, '?page=0'), 'page', ErrorKeys.tooSmall);
  });
});
