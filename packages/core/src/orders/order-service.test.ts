import { randomBytes, randomUUID } from 'node:crypto';
import { EmailDataSchema, ErrorKeys, type Job, ORDER_TTL_MINUTES, ReceiptDataSchema } from '@store/contract';
import { createCodeCipher, type OrderStatus, qb } from '@store/db';
import { createProductRefs, createTestDatabase, type ProductRefs, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RESERVED_UNITS_MAX } from '../fulfilment/fulfilment-sql.ts';
import { adjustBalance, createLedgerService, InsufficientFundsError } from '../ledger/ledger-service.ts';
import { formatMoney, renderEmail } from '../mail/templates.ts';
import { createPromoService } from '../promo/promo-service.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { createOrderOperations } from './order-operations.ts';
import { createOrderService, ORDER_TTL_MS, PaymentMismatchError } from './order-service.ts';
import { IllegalTransitionError, transitionOrder } from './order-state.ts';

const cipher = createCodeCipher('3c'.repeat(32));
/** Every code this file stocks, to look for in the outbox at the end. */
const issuedCodes: string[] = [];
let database: TestDatabase;
let now = new Date();
let refs: ProductRefs;
const jobs: Job[] = [];

const queue: JobQueue = {
  kind: 'in-process',
  async enqueue(job) {
    jobs.push(job);
    return 'queued';
  },
  async ping() {
    return { nonce: 'test', handledAt: new Date().toISOString(), database: 'ok' };
  },
  async close() {},
};

const db = () => database.prisma;
const clock = () => now;
let orders: ReturnType<typeof createOrderService>;
let promo: ReturnType<typeof createPromoService>;
let ledger: ReturnType<typeof createLedgerService>;
let operations: ReturnType<typeof createOrderOperations>;

beforeAll(async () => {
  database = await createTestDatabase();
  refs = await createProductRefs(db());
  promo = createPromoService({ db: db(), sql: database.sql, clock });
  orders = createOrderService({ sql: database.sql, promo, queue, publicUrl: 'https://store.test', clock });
  ledger = createLedgerService({ sql: database.sql });
  operations = createOrderOperations({ db: db(), sql: database.sql, publicUrl: 'https://store.test', queue });
});
afterAll(async () => {
  await database?.cleanup();
});

async function createCustomer(balanceMinor = 0) {
  const user = await db().user.create({
    data: { email: `orders.${randomUUID()}@example.com`, name: 'Buyer', passwordHash: 'x', locale: 'pt-BR' },
  });
  if (balanceMinor > 0) {
    await database.sql.transaction((tx) =>
      adjustBalance(tx, { userId: user.id, amountMinor: balanceMinor, key: `test:${user.id}` }),
    );
  }
  return user;
}

/** A product with `stock` real encrypted codes; answers the product and its plaintext codes. */
async function createProduct({ priceMinor = 2_990, stock = 5 } = {}) {
  const product = await db().product.create({
    data: { ...refs, name: `Order Test Card ${randomBytes(3).toString('hex')}`, nominalMinor: 1_000, priceMinor },
  });
  const codes = Array.from({ length: stock }, () => `CODE-${randomBytes(6).toString('hex').toUpperCase()}`);
  issuedCodes.push(...codes);
  if (stock > 0) {
    await db().productCode.createMany({
      data: codes.map((code) => ({
        productId: product.id,
        ciphertext: cipher.encrypt(code),
        codeDigest: cipher.digest(code),
      })),
    });
  }
  return { product, codes };
}

async function putInBasket(userId: string, productId: number, quantity: number) {
  await db().basketLine.upsert({
    where: { userId_productId: { userId, productId } },
    create: { userId, productId, quantity },
    update: { quantity },
  });
}

/** A customer (with `balanceMinor`) with `quantity` codes of a fresh product in the basket. */
async function customerWithBasket({
  balanceMinor = 0,
  quantity,
  ...product
}: {
  balanceMinor?: number;
  quantity: number;
  priceMinor?: number;
  stock?: number;
}) {
  const user = await createCustomer(balanceMinor);
  const created = await createProduct(product);
  await putInBasket(user.id, created.product.id, quantity);
  return { user, ...created };
}

async function recordPayment(orderId: string, amountMinor: number) {
  return db().payment.create({
    data: { orderId, provider: 'sandbox', method: 'CARD', status: 'SUCCEEDED', amountMinor, currency: 'BRL' },
  });
}

const statusOf = async (orderId: string) => (await db().order.findUniqueOrThrow({ where: { id: orderId } })).status;
const balanceOf = async (userId: string) =>
  Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).balanceMinor);
const soldCodes = (orderId: string) => db().productCode.findMany({ where: { orderLine: { orderId }, status: 'SOLD' } });

async function errorOf(promise: Promise<unknown>) {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** The customer's emails of a template, oldest first, with their stored data parsed. */
async function emailsOf(email: string, template: string) {
  const rows = await db().outboundEmail.findMany({
    where: { toAddress: email, template },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map((row) => ({ ...row, data: EmailDataSchema.parse(row.data) }));
}

async function expectBalancesMatchLedger() {
  expect(await ledger.verifyBooks()).toEqual([]);
}

describe('createOrder: a purchase from the server basket', () => {
  it('takes prices and names from the database, and the order waits ORDER_TTL_MINUTES for its payment', async () => {
    const { user, product } = await customerWithBasket({ priceMinor: 1_990, quantity: 2 });
    const created = await orders.createOrder(user.id, { type: 'purchase' });
    expect(created).toMatchObject({
      total_price: 39.8,
      total_minor: 3_980,
      currency: 'BRL',
      type: 'purchase',
      status: 'created',
      expires_at: new Date(now.getTime() + ORDER_TTL_MINUTES * 60_000).toISOString(),
    });
    const order = await db().order.findUniqueOrThrow({ where: { id: created.order_id }, include: { lines: true } });
    expect(order.lines).toEqual([
      expect.objectContaining({ productId: product.id, productName: product.name, quantity: 2, unitPriceMinor: 1_990 }),
    ]);
    // Its codes are reserved, out of stock until the order is paid or ends; nothing is sold, and the
    // basket stays until the order is paid.
    expect(await db().product.findUniqueOrThrow({ where: { id: product.id } })).toMatchObject({ stockCount: 3 });
    const held = await db().productCode.findMany({ where: { orderLine: { orderId: created.order_id } } });
    expect(held.map((code) => code.status)).toEqual(['RESERVED', 'RESERVED']);
    expect(await db().basketLine.count({ where: { userId: user.id } })).toBe(1);
  });

  it('refuses lines the stock cannot cover now, naming each, and an empty basket', async () => {
    const user = await createCustomer();
    const { product: scarce } = await createProduct({ stock: 1 });
    const { product: gone } = await createProduct({ stock: 0 });
    const { product: plenty } = await createProduct({ stock: 5 });
    await putInBasket(user.id, scarce.id, 2);
    await putInBasket(user.id, gone.id, 1);
    await putInBasket(user.id, plenty.id, 1);
    const error = (await errorOf(orders.createOrder(user.id, { type: 'purchase' }))) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.errors).toEqual({
      [`products.${scarce.id}`]: [ErrorKeys.outOfStock],
      [`products.${gone.id}`]: [ErrorKeys.outOfStock],
    });
    expect(await db().order.count({ where: { userId: user.id } })).toBe(0);

    const empty = await createCustomer();
    const emptyError = (await errorOf(orders.createOrder(empty.id, { type: 'purchase' }))) as ValidationError;
    expect(emptyError.errors).toEqual({ basket: [ErrorKeys.emptyBasket] });
  });

  it('redeems a promo code in the same transaction and spreads the discount over the lines', async () => {
    const user = await createCustomer();
    const { product: first } = await createProduct({ priceMinor: 1_000, stock: 10 });
    const { product: second } = await createProduct({ priceMinor: 3_333, stock: 10 });
    await putInBasket(user.id, first.id, 3);
    await putInBasket(user.id, second.id, 1);
    const code = `ORD${randomBytes(3).toString('hex').toUpperCase()}`;
    await promo.createPromoCode({ code, percent: 15, productIds: [second.id] });
    const created = await orders.createOrder(user.id, { type: 'purchase', code });
    const discount = Math.floor((3_333 * 15 + 50) / 100);
    expect(created.total_minor).toBe(3_000 + 3_333 - discount);
    const order = await db().order.findUniqueOrThrow({ where: { id: created.order_id }, include: { lines: true } });
    expect(order).toMatchObject({ subtotalMinor: 6_333n, discountMinor: BigInt(discount) });
    expect(order.lines.find((line) => line.productId === second.id)?.discountMinor).toBe(discount);
    expect(order.lines.find((line) => line.productId === first.id)?.discountMinor).toBe(0);
    expect(await db().promoRedemption.count({ where: { orderId: order.id } })).toBe(1);

    // Applied again while that order waits with no payment deciding on it (its widget was closed):
    // the new order takes the code over, and the first is cancelled.
    const again = await orders.createOrder(user.id, { type: 'purchase', code });
    expect(again.total_minor).toBe(created.total_minor);
    expect(await db().order.findUniqueOrThrow({ where: { id: created.order_id } })).toMatchObject({
      status: 'CANCELLED',
    });
    expect(await db().promoRedemption.findMany({ where: { userId: user.id } })).toEqual([
      expect.objectContaining({ orderId: again.order_id }),
    ]);
    expect((await db().promoCode.findUniqueOrThrow({ where: { code } })).usedCount).toBe(1);

    // Once an order with it is paid, the one use per customer is taken: another order with the code
    // is refused and rolled back.
    await db().order.update({
      where: { id: again.order_id },
      data: { status: 'FULFILLED', paidAt: new Date(), fulfilledAt: new Date() },
    });
    const refused = (await errorOf(orders.createOrder(user.id, { type: 'purchase', code }))) as ValidationError;
    expect(refused.errors).toEqual({ code: [ErrorKeys.invalidPromoCode] });
    expect(await db().order.count({ where: { userId: user.id } })).toBe(2);
  });

  it('completes at once when a promo code takes the whole price', async () => {
    const { user } = await customerWithBasket({ priceMinor: 500, quantity: 1 });
    const code = `FREE${randomBytes(3).toString('hex').toUpperCase()}`;
    await promo.createPromoCode({ code, percent: 100 });
    const created = await orders.createOrder(user.id, { type: 'purchase', code });
    expect(created).toMatchObject({ total_minor: 0, status: 'fulfilled' });
    expect(await soldCodes(created.order_id)).toHaveLength(1);
    expect(await db().basketLine.count({ where: { userId: user.id } })).toBe(0);
  });

  it('completes at once a basket whose products cost nothing, without a promo code', async () => {
    const { user } = await customerWithBasket({ priceMinor: 0, quantity: 2 });
    const created = await orders.createOrder(user.id, { type: 'purchase' });
    expect(created).toMatchObject({ total_minor: 0, status: 'fulfilled' });
    expect(await soldCodes(created.order_id)).toHaveLength(2);
    expect(await db().order.count({ where: { userId: user.id } })).toBe(1);
    expect(await db().basketLine.count({ where: { userId: user.id } })).toBe(0);
  });

  it('makes the order of one whole basket while a flush of the basket holds its lock', async () => {
    const { user, product } = await customerWithBasket({ quantity: 1 });
    const other = await createProduct();
    // A flush of the basket in progress: it holds the customer's row, as the basket's writes do.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const flush = database.sql.transaction(async (tx) => {
      await tx.query(qb.selectFrom('users').select('id').where('id', '=', user.id).forNoKeyUpdate());
      await tx.execute(
        qb
          .updateTable('basket_lines')
          .set({ quantity: 3 })
          .where('user_id', '=', user.id)
          .where('product_id', '=', product.id),
      );
      await tx.execute(
        qb.insertInto('basket_lines').values((eb) => ({
          user_id: user.id,
          product_id: other.product.id,
          quantity: 1,
          position: 2,
          updated_at: eb.fn<Date>('now'),
        })),
      );
      locked();
      await held;
    });
    await lockTaken;
    const creating = orders.createOrder(user.id, { type: 'purchase' });
    // The order waits for the lock, then is made of one whole basket: the one before the flush
    // (PostgreSQL: the statement's snapshot) or the one after it (PGlite runs one transaction at a
    // time), never a mix of the two.
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await flush;
    const created = await creating;
    const lines = await db().orderLine.findMany({
      where: { orderId: created.order_id },
      orderBy: { productId: 'asc' },
    });
    const bought = lines.map((line) => [line.productId, line.quantity]);
    const before = [[product.id, 1]];
    const after = [
      [product.id, 3],
      [other.product.id, 1],
    ];
    expect([before, after]).toContainEqual(bought);
    expect(created.total_minor).toBe(lines.reduce((sum, line) => sum + line.unitPriceMinor * line.quantity, 0));
  });

  it('reads the type from the body and ?type=spending, and refuses what does not fit', async () => {
    const { user } = await customerWithBasket({ balanceMinor: 10_000, quantity: 1 });
    expect((await orders.createOrder(user.id, { type: 'purchase', queryType: 'spending' })).type).toBe('spending');
    expect((await orders.createOrder(user.id, { queryType: 'spending' })).type).toBe('spending');
    const fields = async (input: Parameters<typeof orders.createOrder>[1]) =>
      ((await errorOf(orders.createOrder(user.id, input))) as ValidationError).errors;
    expect(await fields({ type: 'balance', queryType: 'spending', replenishmentValue: 100 })).toEqual({
      type: [ErrorKeys.invalidValue],
    });
    expect(await fields({})).toEqual({ type: [ErrorKeys.requiredField] });
    expect(await fields({ type: 'purchase', queryType: 'balance' })).toEqual({ type: [ErrorKeys.invalidValue] });
  });

  it('refuses a spending order the balance cannot cover', async () => {
    const { user } = await customerWithBasket({ balanceMinor: 2_000, priceMinor: 2_990, quantity: 1 });
    expect(await errorOf(orders.createOrder(user.id, { type: 'spending' }))).toBeInstanceOf(InsufficientFundsError);
    expect(await db().order.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe('createOrder: a top-up', () => {
  it('is replenishmentValue whole units, with no lines', async () => {
    const user = await createCustomer();
    const created = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 150 });
    expect(created).toMatchObject({ total_minor: 15_000, total_price: 150, type: 'balance', status: 'created' });
    expect(await db().orderLine.count({ where: { orderId: created.order_id } })).toBe(0);
    const missing = (await errorOf(orders.createOrder(user.id, { type: 'balance' }))) as ValidationError;
    expect(missing.errors).toEqual({ replenishmentValue: [ErrorKeys.requiredField] });
  });

  it('credits one that carries the balance past 2^31 minor units', async () => {
    const user = await createCustomer(2_000_000_000);
    const { order_id } = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 9_999_999 });
    const payment = await recordPayment(order_id, 999_999_900);
    await orders.completePaidOrder({
      orderId: order_id,
      paymentId: payment.id,
      provider: 'sandbox',
      amountMinor: 999_999_900,
      currency: 'BRL',
    });
    expect(await balanceOf(user.id)).toBe(2_999_999_900);
    await expectBalancesMatchLedger();
  });
});

describe('spendBalance', () => {
  it('debits the balance, claims the codes, empties the basket and writes the receipt, in one go', async () => {
    const { user, product, codes } = await customerWithBasket({ balanceMinor: 10_000, priceMinor: 2_990, quantity: 2 });
    const { order_id } = await orders.createOrder(user.id, { type: 'spending' });
    jobs.length = 0;
    const spent = await orders.spendBalance(user.id, order_id);
    expect(spent).toEqual({
      order_id,
      status: 'fulfilled',
      total_minor: 5_980,
      refunded_minor: 0,
      balance: 40.2,
      balance_minor: 4_020,
    });
    const sold = await soldCodes(order_id);
    expect(sold).toHaveLength(2);
    expect(codes).toEqual(expect.arrayContaining(sold.map((code) => cipher.decrypt(code.ciphertext))));
    expect(await db().basketLine.count({ where: { userId: user.id } })).toBe(0);
    const order = await db().order.findUniqueOrThrow({ where: { id: order_id }, include: { payments: true } });
    expect(order.payments).toEqual([
      expect.objectContaining({ method: 'BALANCE', status: 'SUCCEEDED', amountMinor: 5_980n }),
    ]);
    expect(order.paymentId).toBe(order.payments[0]?.id);
    expect(await db().product.findUniqueOrThrow({ where: { id: product.id } })).toMatchObject({
      stockCount: 3,
      purchasedCount: 2,
    });

    const email = await db().outboundEmail.findFirstOrThrow({ where: { toAddress: user.email } });
    expect(email).toMatchObject({ template: 'order-receipt', locale: 'pt-BR' });
    expect(ReceiptDataSchema.parse((email.data as { receipt: unknown }).receipt)).toMatchObject({
      orderId: order_id,
      totalMinor: 5_980,
      refundedMinor: 0,
      lines: [{ name: product.name, quantity: 2, delivered: 2 }],
    });
    expect(JSON.stringify(email.data)).not.toContain(codes[0]?.slice(5));
    expect(jobs).toEqual([{ kind: 'email.send', emailId: email.id }]);

    // A retried spend answers the order as it is and spends nothing more.
    expect(await orders.spendBalance(user.id, order_id)).toEqual(spent);
    expect(await balanceOf(user.id)).toBe(4_020);
    await expectBalancesMatchLedger();
  });

  it('refuses a short balance with the insufficient-funds key and changes nothing', async () => {
    const { user } = await customerWithBasket({ balanceMinor: 3_000, priceMinor: 2_990, quantity: 1 });
    const { order_id } = await orders.createOrder(user.id, { type: 'spending' });
    // Spent elsewhere in between: another order of the same customer takes the balance first.
    const other = await orders.createOrder(user.id, { type: 'spending' });
    await orders.spendBalance(user.id, other.order_id);
    const error = (await errorOf(orders.spendBalance(user.id, order_id))) as ValidationError;
    expect(error).toBeInstanceOf(InsufficientFundsError);
    expect(error.errors).toEqual({ balance: [ErrorKeys.insufficientFunds] });
    expect(await statusOf(order_id)).toBe('CREATED');
    expect(await db().payment.count({ where: { orderId: order_id } })).toBe(0);
    expect(await balanceOf(user.id)).toBe(10);
    await expectBalancesMatchLedger();
  });

  it('is the owner’s alone, and only for spending orders that can still be paid', async () => {
    const user = await createCustomer(10_000);
    const stranger = await createCustomer(10_000);
    const { product } = await createProduct();
    await putInBasket(user.id, product.id, 1);
    const { order_id } = await orders.createOrder(user.id, { type: 'spending' });
    expect(await errorOf(orders.spendBalance(stranger.id, order_id))).toBeInstanceOf(NotFoundError);
    expect(await errorOf(orders.spendBalance(user.id, randomUUID()))).toBeInstanceOf(NotFoundError);

    const purchase = await orders.createOrder(user.id, { type: 'purchase' });
    expect(((await errorOf(orders.spendBalance(user.id, purchase.order_id))) as ValidationError).errors).toEqual({
      orderId: [ErrorKeys.orderNotPayable],
    });

    now = new Date(now.getTime() + ORDER_TTL_MS + 1_000);
    try {
      expect(((await errorOf(orders.spendBalance(user.id, order_id))) as ValidationError).errors).toEqual({
        orderId: [ErrorKeys.orderNotPayable],
      });
    } finally {
      now = new Date();
    }
    expect(await balanceOf(user.id)).toBe(10_000);
  });
});

describe('completePaidOrder', () => {
  it('credits a top-up once, even when called ten times at once', async () => {
    const user = await createCustomer();
    const { order_id } = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 250 });
    const payment = await recordPayment(order_id, 25_000);
    const input = {
      orderId: order_id,
      paymentId: payment.id,
      provider: 'sandbox',
      amountMinor: 25_000,
      currency: 'BRL',
    };
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => orders.completePaidOrder(input)));
    expect(outcomes.filter((outcome) => outcome.outcome === 'completed')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.outcome === 'already_completed')).toHaveLength(9);
    expect(await balanceOf(user.id)).toBe(25_000);
    expect(await db().ledgerTransfer.findMany({ where: { orderId: order_id } })).toEqual([
      expect.objectContaining({ kind: 'TOPUP', amountMinor: 25_000n, idempotencyKey: `topup:${order_id}` }),
    ]);
    expect(await statusOf(order_id)).toBe('FULFILLED');
    await expectBalancesMatchLedger();
    // One email says so, in the customer's language, however often the payment completed the order.
    const [notice, ...more] = await emailsOf(user.email, 'balance-topup');
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ locale: 'pt-BR', status: 'PENDING' });
    expect(notice?.data).toMatchObject({
      link: 'https://store.test/profile',
      balance: { orderId: order_id, currency: 'BRL', amountMinor: 25_000, balanceMinor: 25_000, cause: 'topup' },
    });
    if (!notice) throw new Error('the top-up was credited without its email');
    expect(jobs).toContainEqual({ kind: 'email.send', emailId: notice.id });
    const message = renderEmail('balance-topup', notice.locale, notice.data);
    expect(message.subject).toContain('recarregado');
    expect(message.text).toContain(formatMoney(25_000, 'BRL', 'pt-BR'));
  });

  it('delivers a purchase once, however often the same payment completes it', async () => {
    const { user } = await customerWithBasket({ quantity: 2 });
    const { order_id, total_minor } = await orders.createOrder(user.id, { type: 'purchase' });
    const payment = await recordPayment(order_id, total_minor);
    const input = {
      orderId: order_id,
      paymentId: payment.id,
      provider: 'sandbox',
      amountMinor: total_minor,
      currency: 'BRL',
    };
    expect(await orders.completePaidOrder(input)).toMatchObject({ outcome: 'completed', status: 'FULFILLED' });
    expect(await orders.completePaidOrder(input)).toMatchObject({ outcome: 'already_completed', status: 'FULFILLED' });
    expect(await soldCodes(order_id)).toHaveLength(2);
    expect(await db().outboundEmail.count({ where: { toAddress: user.email } })).toBe(1);
  });

  it('refuses a payment of another amount, currency or order, and changes nothing', async () => {
    const user = await createCustomer();
    const { order_id } = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    const other = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    const payment = await recordPayment(order_id, 10_000);
    const otherPayment = await recordPayment(other.order_id, 10_000);
    const base = {
      orderId: order_id,
      paymentId: payment.id,
      provider: 'sandbox',
      amountMinor: 10_000,
      currency: 'BRL',
    };
    expect(await errorOf(orders.completePaidOrder({ ...base, amountMinor: 9_999 }))).toBeInstanceOf(
      PaymentMismatchError,
    );
    expect(await errorOf(orders.completePaidOrder({ ...base, currency: 'RUB' }))).toBeInstanceOf(PaymentMismatchError);
    expect(await errorOf(orders.completePaidOrder({ ...base, paymentId: otherPayment.id }))).toBeInstanceOf(
      NotFoundError,
    );
    expect(await statusOf(order_id)).toBe('CREATED');
    expect(await balanceOf(user.id)).toBe(0);
  });

  it('sends a second payment of an order already paid back to its card, once', async () => {
    const { user } = await customerWithBasket({ quantity: 1 });
    const { order_id, total_minor } = await orders.createOrder(user.id, { type: 'purchase' });
    const first = await recordPayment(order_id, total_minor);
    const second = await recordPayment(order_id, total_minor);
    const paid = (paymentId: string) =>
      orders.completePaidOrder({
        orderId: order_id,
        paymentId,
        provider: 'sandbox',
        amountMinor: total_minor,
        currency: 'BRL',
      });
    await paid(first.id);
    expect(await paid(second.id)).toMatchObject({ outcome: 'duplicate_refunded', refundedMinor: total_minor });
    expect(await paid(second.id)).toMatchObject({ outcome: 'duplicate_refunded' });
    // Nothing onto the balance: the money is held in suspense and its refund asked of the provider.
    expect(await balanceOf(user.id)).toBe(0);
    expect(await db().providerRefund.findMany({ where: { orderId: order_id } })).toEqual([
      expect.objectContaining({
        paymentId: second.id,
        amountMinor: BigInt(total_minor),
        reason: 'second_charge',
        requestedBy: 'system',
        status: 'PENDING',
      }),
    ]);
    const held = await db().ledgerTransfer.findUniqueOrThrow({ where: { idempotencyKey: `unapplied:${second.id}` } });
    expect(held).toMatchObject({ kind: 'UNAPPLIED', amountMinor: BigInt(total_minor), paymentId: second.id });
    expect(await soldCodes(order_id)).toHaveLength(1);
    await expectBalancesMatchLedger();
    // The order stays what the first payment made it; the customer is told where the second went, once.
    expect(await statusOf(order_id)).toBe('FULFILLED');
    const notices = await emailsOf(user.email, 'balance-refund');
    expect(notices.map((notice) => notice.data.balance)).toEqual([
      { orderId: order_id, currency: 'BRL', amountMinor: total_minor, balanceMinor: 0, cause: 'paid_twice' },
    ]);
    expect(jobs).toContainEqual({ kind: 'email.send', emailId: notices[0]?.id });
  });

  it('refunds the shortfall to the balance and says so in the receipt', async () => {
    const user = await createCustomer();
    const { product: scarce } = await createProduct({ priceMinor: 1_000, stock: 3 });
    const { product: plenty } = await createProduct({ priceMinor: 500, stock: 5 });
    await putInBasket(user.id, scarce.id, 3);
    await putInBasket(user.id, plenty.id, 1);
    const { order_id, total_minor } = await orders.createOrder(user.id, { type: 'purchase' });
    // The order expired and gave its codes back, and they were sold to someone else before its
    // payment came after all.
    await expireNow(order_id);
    await db().productCode.deleteMany({ where: { productId: scarce.id, status: 'AVAILABLE' } });
    await db().productCode.createMany({
      data: [{ productId: scarce.id, ciphertext: cipher.encrypt('LAST-ONE'), codeDigest: cipher.digest('LAST-ONE') }],
    });
    const payment = await recordPayment(order_id, total_minor);
    const outcome = await orders.completePaidOrder({
      orderId: order_id,
      paymentId: payment.id,
      provider: 'sandbox',
      amountMinor: total_minor,
      currency: 'BRL',
    });
    expect(outcome).toMatchObject({ outcome: 'completed', status: 'PARTIALLY_REFUNDED', refundedMinor: 2_000 });
    expect(await balanceOf(user.id)).toBe(2_000);
    expect(await db().order.findUniqueOrThrow({ where: { id: order_id } })).toMatchObject({
      status: 'PARTIALLY_REFUNDED',
      refundedMinor: 2_000n,
    });
    const transfers = await db().ledgerTransfer.findMany({ where: { orderId: order_id }, orderBy: { kind: 'asc' } });
    expect(transfers.map((t) => [t.kind, Number(t.amountMinor), t.idempotencyKey, t.paymentId])).toEqual([
      ['PURCHASE', total_minor, `purchase:${payment.id}`, payment.id],
      ['REFUND', 2_000, `refund:${order_id}:shortfall`, payment.id],
    ]);
    const email = await db().outboundEmail.findFirstOrThrow({ where: { toAddress: user.email } });
    expect((email.data as { receipt: unknown }).receipt).toMatchObject({
      refundedMinor: 2_000,
      lines: expect.arrayContaining([{ name: scarce.name, quantity: 3, delivered: 1 }]),
    });
    await expectBalancesMatchLedger();
  });

  it('refunds a discounted line at what was paid for it', async () => {
    const { user, product } = await customerWithBasket({ priceMinor: 1_000, stock: 3, quantity: 3 });
    const code = `HALF${randomBytes(3).toString('hex').toUpperCase()}`;
    await promo.createPromoCode({ code, percent: 50 });
    const { order_id, total_minor } = await orders.createOrder(user.id, { type: 'purchase', code });
    expect(total_minor).toBe(1_500);
    await expireNow(order_id);
    await db().productCode.deleteMany({ where: { productId: product.id, status: 'AVAILABLE' } });
    const payment = await recordPayment(order_id, total_minor);
    const outcome = await orders.completePaidOrder({
      orderId: order_id,
      paymentId: payment.id,
      provider: 'sandbox',
      amountMinor: total_minor,
      currency: 'BRL',
    });
    expect(outcome).toMatchObject({ status: 'REFUNDED', refundedMinor: 1_500 });
    expect(await balanceOf(user.id)).toBe(1_500);
    await expectBalancesMatchLedger();
  });
});

describe('codes reserved for an order', () => {
  const stockOf = async (productId: number) =>
    (await db().product.findUniqueOrThrow({ where: { id: productId } })).stockCount;
  const reservedFor = (orderId: string) =>
    db().productCode.count({ where: { orderLine: { orderId }, status: 'RESERVED' } });
  /** A QR shown to the payer: a payment open at the provider, which keeps its order's codes. */
  const openPayment = (orderId: string, amountMinor: number) =>
    db().payment.create({
      data: {
        orderId,
        provider: 'sandbox',
        method: 'QR',
        amountMinor,
        currency: 'BRL',
        providerPaymentId: `pay_${randomBytes(8).toString('hex')}`,
      },
    });

  it('are out of stock for everyone else until the order is paid or ends, and come back when it ends unpaid', async () => {
    const { user, product } = await customerWithBasket({ quantity: 2, stock: 2 });
    const first = await orders.createOrder(user.id, { type: 'purchase' });
    await openPayment(first.order_id, first.total_minor);
    expect(await reservedFor(first.order_id)).toBe(2);
    expect(await stockOf(product.id)).toBe(0);

    const other = await createCustomer();
    await putInBasket(other.id, product.id, 1);
    const refused = (await errorOf(orders.createOrder(other.id, { type: 'purchase' }))) as ValidationError;
    expect(refused.errors).toEqual({ [`products.${product.id}`]: [ErrorKeys.outOfStock] });
    expect(await db().order.count({ where: { userId: other.id } })).toBe(0);

    await expireNow(first.order_id);
    expect(await reservedFor(first.order_id)).toBe(0);
    expect(await stockOf(product.id)).toBe(2);
    const second = await orders.createOrder(other.id, { type: 'purchase' });
    expect(await reservedFor(second.order_id)).toBe(1);
  });

  it('of an order the customer gave up go to their next order; one a payment is open on keeps them', async () => {
    const { user, product } = await customerWithBasket({ quantity: 1, stock: 1 });
    // Pay pressed, the widget closed: the order holds the last code, with no payment open on it.
    const given = await orders.createOrder(user.id, { type: 'purchase' });
    const next = await orders.createOrder(user.id, { type: 'purchase' });
    expect(await reservedFor(given.order_id)).toBe(0);
    expect(await reservedFor(next.order_id)).toBe(1);
    // The order given up is still there, and still payable: paid after all, it takes what is in
    // stock, and what is not goes back to the balance.
    expect(await statusOf(given.order_id)).toBe('CREATED');

    await openPayment(next.order_id, next.total_minor);
    const third = (await errorOf(orders.createOrder(user.id, { type: 'purchase' }))) as ValidationError;
    expect(third.errors).toEqual({ [`products.${product.id}`]: [ErrorKeys.outOfStock] });
    expect(await reservedFor(next.order_id)).toBe(1);
  });

  it('are at most RESERVED_UNITS_MAX for one customer at once', async () => {
    const { user, product } = await customerWithBasket({ quantity: 10, stock: RESERVED_UNITS_MAX + 1 });
    for (let made = 0; made < RESERVED_UNITS_MAX / 10; made++) {
      const order = await orders.createOrder(user.id, { type: 'purchase' });
      await openPayment(order.order_id, order.total_minor);
    }
    await putInBasket(user.id, product.id, 1);
    const refused = (await errorOf(orders.createOrder(user.id, { type: 'purchase' }))) as ValidationError;
    expect(refused.errors).toEqual({ basket: [ErrorKeys.tooManyHeld] });
    expect(await stockOf(product.id)).toBe(1);
  });

  it('never miss a code that is there: a reservation waits for one another transaction holds, then takes it', async () => {
    const { user, product } = await customerWithBasket({ quantity: 1, stock: 1 });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // Another transaction locks the last code, as a claim would, then rolls back.
    const other = database.sql
      .transaction(async (tx) => {
        await tx.query(qb.selectFrom('product_codes').select('id').where('product_id', '=', product.id).forUpdate());
        locked();
        await held;
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await isLocked;
    const creating = orders.createOrder(user.id, { type: 'purchase' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await other;
    const created = await creating;
    expect(await reservedFor(created.order_id)).toBe(1);
  });
});

describe('expiry', () => {
  it('expires unpaid orders after their time, gives their promo use back, and leaves others alone', async () => {
    const { user } = await customerWithBasket({ quantity: 1 });
    const code = `EXP${randomBytes(3).toString('hex').toUpperCase()}`;
    await promo.createPromoCode({ code, percent: 10, maxUses: 1 });
    const due = await orders.createOrder(user.id, { type: 'purchase', code });
    now = new Date(now.getTime() + ORDER_TTL_MS / 2);
    const fresh = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    try {
      now = new Date(now.getTime() + ORDER_TTL_MS / 2 + 1);
      let expired = 0;
      for (let sweep = await orders.expireOrders(); sweep > 0; sweep = await orders.expireOrders()) expired += sweep;
      expect(expired).toBeGreaterThanOrEqual(1);
      expect(await statusOf(due.order_id)).toBe('EXPIRED');
      expect(await statusOf(fresh.order_id)).toBe('CREATED');
      expect(await db().promoCode.findUniqueOrThrow({ where: { code } })).toMatchObject({ usedCount: 0 });
      expect(await db().promoRedemption.count({ where: { orderId: due.order_id } })).toBe(0);
      expect((await orders.paymentStatus(user.id, due.order_id)).status).toBe('error');
    } finally {
      now = new Date();
    }
  });

  it('still delivers an expired order that is paid late, while codes last', async () => {
    const { user } = await customerWithBasket({ stock: 1, quantity: 1 });
    const { order_id, total_minor } = await orders.createOrder(user.id, { type: 'purchase' });
    await expireNow(order_id);
    const payment = await recordPayment(order_id, total_minor);
    const outcome = await orders.completePaidOrder({
      orderId: order_id,
      paymentId: payment.id,
      provider: 'sandbox',
      amountMinor: total_minor,
      currency: 'BRL',
    });
    expect(outcome).toMatchObject({ outcome: 'completed', status: 'FULFILLED' });
    expect(await soldCodes(order_id)).toHaveLength(1);
  });

  it('refunds an expired order paid late whose codes are gone', async () => {
    const { user, product } = await customerWithBasket({ stock: 1, quantity: 1 });
    const { order_id, total_minor } = await orders.createOrder(user.id, { type: 'purchase' });
    await expireNow(order_id);
    await db().productCode.deleteMany({ where: { productId: product.id } });
    const payment = await recordPayment(order_id, total_minor);
    const outcome = await orders.completePaidOrder({
      orderId: order_id,
      paymentId: payment.id,
      provider: 'sandbox',
      amountMinor: total_minor,
      currency: 'BRL',
    });
    expect(outcome).toMatchObject({ outcome: 'completed', status: 'REFUNDED', refundedMinor: total_minor });
    expect(await balanceOf(user.id)).toBe(total_minor);
    await expectBalancesMatchLedger();
    // The order says so to the browser's poll and in its receipt.
    expect(await orders.paymentStatus(user.id, order_id)).toMatchObject({
      status: 'refunded',
      order_status: 'refunded',
      refunded_minor: total_minor,
    });
    const [receipt] = await emailsOf(user.email, 'order-receipt');
    expect(receipt?.data.receipt).toMatchObject({ refundedMinor: total_minor, lines: [{ delivered: 0 }] });
  });
});

/** Moves time past the order's expiry, sweeps, and brings time back. */
async function expireNow(orderId: string) {
  const real = now;
  now = new Date(now.getTime() + ORDER_TTL_MS + 1_000);
  try {
    while ((await statusOf(orderId)) !== 'EXPIRED') {
      if ((await orders.expireOrders()) === 0) throw new Error('the order did not expire');
    }
  } finally {
    now = real;
  }
}

describe('refundOrder (operator)', () => {
  it('gives what is left of a paid order back to the balance once', async () => {
    const { user } = await customerWithBasket({ balanceMinor: 10_000, priceMinor: 1_000, quantity: 1 });
    const { order_id } = await orders.createOrder(user.id, { type: 'spending' });
    await orders.spendBalance(user.id, order_id);
    const refunded = await operations.refundOrder(order_id);
    expect(refunded).toEqual({
      to: 'balance',
      refundedMinor: 1_000,
      userId: user.id,
      emailId: expect.any(String),
      status: 'REFUNDED',
    });
    if (refunded.to !== 'balance') throw new Error('refunded to the balance');
    expect(await statusOf(order_id)).toBe('REFUNDED');
    expect(await orders.paymentStatus(user.id, order_id)).toMatchObject({ status: 'refunded', refunded_minor: 1_000 });
    expect(await balanceOf(user.id)).toBe(10_000);
    expect(await errorOf(operations.refundOrder(order_id))).toBeInstanceOf(ConflictError);
    expect(await balanceOf(user.id)).toBe(10_000);
    await expectBalancesMatchLedger();
    // Told once, by email through the outbox, in the customer's language.
    const notices = await emailsOf(user.email, 'balance-refund');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ id: refunded.emailId, locale: 'pt-BR' });
    expect(notices[0]?.data.balance).toEqual({
      orderId: order_id,
      currency: 'BRL',
      amountMinor: 1_000,
      balanceMinor: 10_000,
      cause: 'order_refunded',
    });
    await vi.waitFor(() => expect(jobs).toContainEqual({ kind: 'email.send', emailId: refunded.emailId }));
  });

  it("gives parts back, each named once, never more than is left, and the store's own names are not taken", async () => {
    const { user } = await customerWithBasket({ balanceMinor: 10_000, priceMinor: 1_000, quantity: 3 });
    const { order_id } = await orders.createOrder(user.id, { type: 'spending' });
    await orders.spendBalance(user.id, order_id);
    expect(await balanceOf(user.id)).toBe(7_000);
    expect(await operations.refundOrder(order_id, { amountMinor: 1_000, reason: 'one-code-bad' })).toMatchObject({
      refundedMinor: 1_000,
      status: 'PARTIALLY_REFUNDED',
    });
    // The same name again is refused and changes nothing: not the status, not the balance, no email.
    expect(
      await errorOf(operations.refundOrder(order_id, { amountMinor: 500, reason: 'one-code-bad' })),
    ).toBeInstanceOf(ConflictError);
    expect(await errorOf(operations.refundOrder(order_id, { reason: 'shortfall' }))).toBeInstanceOf(ValidationError);
    expect(await errorOf(operations.refundOrder(order_id, { amountMinor: 2_001, reason: 'too-much' }))).toBeInstanceOf(
      ConflictError,
    );
    expect(await statusOf(order_id)).toBe('PARTIALLY_REFUNDED');
    expect(await balanceOf(user.id)).toBe(8_000);
    expect(await emailsOf(user.email, 'balance-refund')).toHaveLength(1);
    // What is left, by default.
    expect(await operations.refundOrder(order_id, { reason: 'the-rest' })).toMatchObject({
      refundedMinor: 2_000,
      status: 'REFUNDED',
    });
    expect(await balanceOf(user.id)).toBe(10_000);
    await expectBalancesMatchLedger();
  });

  it('refuses to send an order paid from the balance, or a top-up, anywhere it cannot go', async () => {
    const { user } = await customerWithBasket({ balanceMinor: 5_000, priceMinor: 1_000, quantity: 1 });
    const { order_id } = await orders.createOrder(user.id, { type: 'spending' });
    await orders.spendBalance(user.id, order_id);
    expect(await errorOf(operations.refundOrder(order_id, { to: 'card' }))).toBeInstanceOf(ConflictError);
    const topUp = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    const payment = await recordPayment(topUp.order_id, topUp.total_minor);
    await orders.completePaidOrder({
      orderId: topUp.order_id,
      paymentId: payment.id,
      provider: 'sandbox',
      amountMinor: topUp.total_minor,
      currency: 'BRL',
    });
    expect(await errorOf(operations.refundOrder(topUp.order_id))).toBeInstanceOf(ConflictError);
    expect(await db().providerRefund.count({ where: { orderId: { in: [order_id, topUp.order_id] } } })).toBe(0);
  });

  it('refuses unpaid orders and top-ups', async () => {
    const user = await createCustomer();
    const topUp = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    expect(await errorOf(operations.refundOrder(topUp.order_id))).toBeInstanceOf(ConflictError);
    const { product } = await createProduct();
    await putInBasket(user.id, product.id, 1);
    const unpaid = await orders.createOrder(user.id, { type: 'purchase' });
    expect(await errorOf(operations.refundOrder(unpaid.order_id))).toBeInstanceOf(ConflictError);
    expect(await errorOf(operations.refundOrder(randomUUID()))).toBeInstanceOf(NotFoundError);
  });
});

describe('paymentStatus', () => {
  it('reads init, error or success and changes nothing; someone else’s order is not found', async () => {
    const user = await createCustomer();
    const { order_id } = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    const before = await db().order.findUniqueOrThrow({ where: { id: order_id } });
    expect(await orders.paymentStatus(user.id, order_id)).toEqual({
      status: 'init',
      order_id,
      order_status: 'created',
      type: 'balance',
      refunded_minor: 0,
    });
    expect(await db().order.findUniqueOrThrow({ where: { id: order_id } })).toEqual(before);
    const stranger = await createCustomer();
    expect(await errorOf(orders.paymentStatus(stranger.id, order_id))).toBeInstanceOf(NotFoundError);
  });

  it.each<[OrderStatus, string]>([
    ['PENDING', 'init'],
    ['FAILED', 'error'],
    ['CANCELLED', 'error'],
  ])('answers %s as %s', async (status, expected) => {
    const user = await createCustomer();
    const { order_id } = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    await database.sql.transaction((tx) => transitionOrder(tx, order_id, status, { actor: 'system' }));
    expect((await orders.paymentStatus(user.id, order_id)).status).toBe(expected);
  });

  it('says why a failed order failed: its newest failed payment’s reason', async () => {
    const user = await createCustomer();
    const { order_id } = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    const failed = (failureReason: string, createdAt: Date) =>
      db().payment.create({
        data: {
          orderId: order_id,
          provider: 'sandbox',
          method: 'CARD',
          status: 'FAILED',
          amountMinor: 10_000,
          currency: 'BRL',
          failureReason,
          createdAt,
        },
      });
    await failed('card_declined', new Date(Date.now() - 60_000));
    await failed('3ds_failed', new Date());
    // While the order is still payable, a declined attempt says nothing: the order is not an error.
    expect(await orders.paymentStatus(user.id, order_id)).not.toHaveProperty('reason');
    await database.sql.transaction((tx) => transitionOrder(tx, order_id, 'FAILED', { actor: 'system' }));
    expect(await orders.paymentStatus(user.id, order_id)).toMatchObject({ status: 'error', reason: '3ds_failed' });
  });

  it('names no reason for a failed order without a failed payment, and `expired` for an expired one', async () => {
    const user = await createCustomer();
    const cancelled = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    await database.sql.transaction((tx) => transitionOrder(tx, cancelled.order_id, 'CANCELLED', { actor: 'system' }));
    expect(await orders.paymentStatus(user.id, cancelled.order_id)).not.toHaveProperty('reason');
    const late = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    await database.sql.transaction((tx) => transitionOrder(tx, late.order_id, 'EXPIRED', { actor: 'system' }));
    expect(await orders.paymentStatus(user.id, late.order_id)).toMatchObject({ status: 'error', reason: 'expired' });
  });
});

describe('findPayableOrder', () => {
  it('finds the newest order of the type still waiting for its payment, not an expired or paid one', async () => {
    const user = await createCustomer();
    const older = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    now = new Date(now.getTime() + 1_000);
    const newer = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 200 });
    try {
      expect((await orders.findPayableOrder(user.id, 'balance'))?.id).toBe(newer.order_id);
      expect(await orders.findPayableOrder(user.id, 'purchase')).toBeNull();
      const payment = await recordPayment(newer.order_id, 20_000);
      await orders.completePaidOrder({
        orderId: newer.order_id,
        paymentId: payment.id,
        provider: 'sandbox',
        amountMinor: 20_000,
        currency: 'BRL',
      });
      expect((await orders.findPayableOrder(user.id, 'balance'))?.id).toBe(older.order_id);
      now = new Date(now.getTime() + ORDER_TTL_MS);
      expect(await orders.findPayableOrder(user.id, 'balance')).toBeNull();
    } finally {
      now = new Date();
    }
  });
});

describe('the state machine on the database', () => {
  it('throws on an illegal transition and writes nothing', async () => {
    const user = await createCustomer();
    const { order_id } = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    const before = await db().order.findUniqueOrThrow({ where: { id: order_id } });
    for (const to of ['FULFILLED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'CREATED'] as const) {
      const error = await errorOf(
        database.sql.transaction((tx) => transitionOrder(tx, order_id, to, { actor: 'system' })),
      );
      expect(error, to).toBeInstanceOf(IllegalTransitionError);
      expect(error).toMatchObject({ from: 'CREATED', to });
    }
    expect(await db().order.findUniqueOrThrow({ where: { id: order_id } })).toEqual(before);
    expect(
      await errorOf(
        database.sql.transaction((tx) => transitionOrder(tx, randomUUID(), 'PENDING', { actor: 'system' })),
      ),
    ).toBeInstanceOf(NotFoundError);
  });

  it('applies a transition once when two race for it', async () => {
    const user = await createCustomer();
    const { order_id } = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        database.sql.transaction((tx) => transitionOrder(tx, order_id, 'PENDING', { actor: 'system' })),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(refused.every((result) => result.reason instanceof IllegalTransitionError)).toBe(true);
    expect(await statusOf(order_id)).toBe('PENDING');
  });

  it('keeps a paid status and its paid_at together in the database', async () => {
    const user = await createCustomer();
    const { order_id } = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    await expect(db().order.update({ where: { id: order_id }, data: { status: 'FULFILLED' } })).rejects.toThrow();
    await expect(db().order.update({ where: { id: order_id }, data: { refundedMinor: 20_000 } })).rejects.toThrow();
  });

  it('keeps discounts within what they are taken off, and promo codes off top-ups', async () => {
    const user = await createCustomer();
    const { order_id } = await orders.createOrder(user.id, { type: 'balance', replenishmentValue: 100 });
    await expect(
      db().order.update({ where: { id: order_id }, data: { discountMinor: 10_001, totalMinor: -1 } }),
    ).rejects.toThrow();
    await expect(
      db().order.update({ where: { id: order_id }, data: { discountMinor: 100, totalMinor: 9_900 } }),
    ).rejects.toThrow();
    const { product } = await createProduct({ priceMinor: 1_000 });
    await putInBasket(user.id, product.id, 1);
    const purchase = await orders.createOrder(user.id, { type: 'purchase' });
    await expect(
      db().orderLine.updateMany({ where: { orderId: purchase.order_id }, data: { discountMinor: 1_001 } }),
    ).rejects.toThrow();
  });
});

describe('the outbox', () => {
  it('holds no code in any email this file wrote: stored data or rendered message', async () => {
    const rows = await db().outboundEmail.findMany();
    const templates = new Set(rows.map((row) => row.template));
    expect([...templates]).toEqual(expect.arrayContaining(['order-receipt', 'balance-topup', 'balance-refund']));
    expect(issuedCodes.length).toBeGreaterThan(20);
    const codeText = new RegExp(issuedCodes.join('|'), 'i');
    for (const row of rows) {
      const message = renderEmail(
        row.template as Parameters<typeof renderEmail>[0],
        row.locale,
        EmailDataSchema.parse(row.data),
      );
      expect(JSON.stringify(row.data)).not.toMatch(codeText);
      expect(`${message.subject}\n${message.text}\n${message.html}`).not.toMatch(codeText);
    }
  });
});
