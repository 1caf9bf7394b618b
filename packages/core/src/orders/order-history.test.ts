import { randomBytes, randomUUID } from 'node:crypto';
import { EmailDataSchema, ORDER_HISTORY_PAGE_SIZE, orderNumber } from '@store/contract';
import { createCodeCipher, qb } from '@store/db';
import { createProductRefs, createTestDatabase, type ProductRefs, type TestDatabase } from '@store/db/testing';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '../ledger/ledger-service.ts';
import { renderEmail } from '../mail/templates.ts';
import { createPromoService } from '../promo/promo-service.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';
import { createOrderHistory } from './order-history.ts';
import { createOrderOperations } from './order-operations.ts';
import { createOrderService } from './order-service.ts';
import { transitionOrder } from './order-state.ts';
import { receiptFileName, renderReceiptPdf } from './receipt-pdf.ts';

const cipher = createCodeCipher('5d'.repeat(32));
const seller = { legalName: 'Receipt Test Comércio Ltda.', taxId: '98.765.432/0001-10' };
const queue: JobQueue = {
  kind: 'in-process',
  async enqueue() {
    return 'queued';
  },
  async ping() {
    return { nonce: 'test', handledAt: new Date().toISOString(), database: 'ok' };
  },
  async close() {},
};

let database: TestDatabase;
let refs: ProductRefs;
let orders: ReturnType<typeof createOrderService>;
let promo: ReturnType<typeof createPromoService>;
let operations: ReturnType<typeof createOrderOperations>;
let history: ReturnType<typeof createOrderHistory>;
const db = () => database.prisma;

beforeAll(async () => {
  database = await createTestDatabase();
  refs = await createProductRefs(db());
  promo = createPromoService({ db: db(), sql: database.sql });
  orders = createOrderService({ sql: database.sql, promo, queue, publicUrl: 'https://store.test' });
  operations = createOrderOperations({ db: db(), sql: database.sql, publicUrl: 'https://store.test', queue });
  history = createOrderHistory({ sql: database.sql });
});
afterAll(async () => {
  await database?.cleanup();
});

async function createCustomer(locale: string, balanceMinor = 0) {
  const user = await db().user.create({
    data: { email: `history.${randomUUID()}@example.com`, name: 'Ana Souza', passwordHash: 'x', locale },
  });
  if (balanceMinor > 0) {
    await database.sql.transaction((tx) =>
      adjustBalance(tx, { userId: user.id, amountMinor: balanceMinor, key: `test:${user.id}` }),
    );
  }
  return user;
}

/** A product with `stock` encrypted codes; answers it and the codes in plain text. */
async function createProduct(name: string, priceMinor: number, stock = 10) {
  const product = await db().product.create({
    data: { ...refs, name: `${name} ${randomBytes(3).toString('hex')}`, nominalMinor: priceMinor, priceMinor },
  });
  const codes = Array.from({ length: stock }, () => `HIST-${randomBytes(6).toString('hex').toUpperCase()}`);
  await db().productCode.createMany({
    data: codes.map((code) => ({
      productId: product.id,
      ciphertext: cipher.encrypt(code),
      codeDigest: cipher.digest(code),
    })),
  });
  return { product, codes };
}

async function putInBasket(userId: string, productId: number, quantity: number) {
  await db().basketLine.upsert({
    where: { userId_productId: { userId, productId } },
    create: { userId, productId, quantity },
    update: { quantity },
  });
}

/** An order of the basket ended unpaid: a card payment refused (FAILED), or left to expire (EXPIRED). */
async function endUnpaid(userId: string, to: 'FAILED' | 'EXPIRED') {
  const { order_id, total_minor } = await orders.createOrder(userId, { type: 'purchase' });
  await database.sql.transaction(async (tx) => {
    if (to === 'FAILED') {
      await tx.execute(
        qb.insertInto('payments').values((eb) => ({
          id: randomUUID(),
          order_id,
          provider: 'sandbox',
          method: 'CARD',
          status: 'FAILED',
          amount_minor: total_minor,
          currency: 'BRL',
          card_brand: 'visa',
          card_last4: '0002',
          failure_reason: 'declined',
          updated_at: eb.fn<Date>('now'),
        })),
      );
    }
    await transitionOrder(tx, order_id, to, { actor: 'system' });
  });
  return order_id;
}

/** The text of every page of a PDF, read back by a PDF parser (pdf.js), its spaces made plain. */
async function pdfText(pdf: Buffer): Promise<string> {
  const { text } = await extractText(new Uint8Array(pdf), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

describe('order history', () => {
  let customer: Awaited<ReturnType<typeof createCustomer>>;
  let stranger: Awaited<ReturnType<typeof createCustomer>>;
  let card: Awaited<ReturnType<typeof createProduct>>;
  let promoCode: string;
  const ids = {} as Record<'fulfilled' | 'failed' | 'expired' | 'refunded' | 'pending', string>;

  beforeAll(async () => {
    customer = await createCustomer('pt-BR', 100_000);
    stranger = await createCustomer('en');
    card = await createProduct('Cartão Steam', 2_500);
    promoCode = `HIST${randomBytes(3).toString('hex').toUpperCase()}`;
    await promo.createPromoCode({ code: promoCode, percent: 10, productIds: [card.product.id] });

    // Oldest first: paid with a promo code, a card refused, one left to expire, one refunded by an
    // operator, and one still waiting for its payment.
    await putInBasket(customer.id, card.product.id, 2);
    ids.fulfilled = (await orders.createOrder(customer.id, { type: 'spending', code: promoCode })).order_id;
    await orders.spendBalance(customer.id, ids.fulfilled);
    await putInBasket(customer.id, card.product.id, 1);
    ids.failed = await endUnpaid(customer.id, 'FAILED');
    ids.expired = await endUnpaid(customer.id, 'EXPIRED');
    ids.refunded = (await orders.createOrder(customer.id, { type: 'spending' })).order_id;
    await orders.spendBalance(customer.id, ids.refunded);
    await operations.refundOrder(ids.refunded);
    await putInBasket(customer.id, card.product.id, 1);
    ids.pending = (await orders.createOrder(customer.id, { type: 'purchase' })).order_id;
  });

  it('lists every order of the customer, newest first, whatever became of it', async () => {
    const page = await history.listOrders(customer.id);
    expect(page).toMatchObject({ page: 1, pages: 1, total: 5 });
    expect(page.orders.map((order) => [order.id, order.status])).toEqual([
      [ids.pending, 'created'],
      [ids.refunded, 'refunded'],
      [ids.expired, 'expired'],
      [ids.failed, 'failed'],
      [ids.fulfilled, 'fulfilled'],
    ]);
    const byId = new Map(page.orders.map((order) => [order.id, order]));
    const discount = Math.floor((5_000 * 10 + 50) / 100);
    expect(byId.get(ids.fulfilled)).toMatchObject({
      number: orderNumber(ids.fulfilled),
      type: 'spending',
      method: 'balance',
      subtotal_minor: 5_000,
      discount_minor: discount,
      total_minor: 5_000 - discount,
      paid_minor: 5_000 - discount,
      paid_currency: 'BRL',
      refunded_minor: 0,
      promo_code: promoCode,
      receipt: true,
      lines: [
        {
          product_id: card.product.id,
          name: card.product.name,
          quantity: 2,
          unit_price_minor: 2_500,
          discount_minor: discount,
          delivered: 2,
        },
      ],
    });
    expect(byId.get(ids.fulfilled)?.paid_at).toEqual(expect.any(String));
    // The card that was refused is what the failed order shows as its method; nothing was paid.
    expect(byId.get(ids.failed)).toMatchObject({
      method: 'card',
      paid_minor: null,
      paid_at: null,
      receipt: false,
      lines: [expect.objectContaining({ quantity: 1, delivered: 0 })],
    });
    expect(byId.get(ids.expired)).toMatchObject({ method: null, paid_minor: null, receipt: false });
    expect(byId.get(ids.refunded)).toMatchObject({
      status: 'refunded',
      paid_minor: 2_500,
      refunded_minor: 2_500,
      receipt: true,
      promo_code: null,
    });
    expect(byId.get(ids.pending)).toMatchObject({ status: 'created', receipt: false, method: null });
    // Nothing of a code is in the history.
    const listed = JSON.stringify(page);
    for (const code of card.codes) expect(listed).not.toContain(code);
  });

  it('shows one order to its customer only', async () => {
    expect(await history.getOrder(customer.id, ids.failed)).toMatchObject({ id: ids.failed, status: 'failed' });
    await expect(history.getOrder(stranger.id, ids.failed)).rejects.toBeInstanceOf(NotFoundError);
    await expect(history.getOrder(customer.id, randomUUID())).rejects.toBeInstanceOf(NotFoundError);
    expect(await history.listOrders(stranger.id)).toEqual({ orders: [], page: 1, pages: 0, total: 0 });
  });

  it('pages ORDER_HISTORY_PAGE_SIZE orders at a time', async () => {
    const many = await createCustomer('en');
    const start = Date.UTC(2026, 0, 1);
    const made = Array.from({ length: ORDER_HISTORY_PAGE_SIZE + 3 }, (_, index) => ({
      id: randomUUID(),
      userId: many.id,
      type: 'BALANCE' as const,
      status: 'EXPIRED' as const,
      subtotalMinor: 10_000 + index,
      totalMinor: 10_000 + index,
      createdAt: new Date(start + index * 60_000),
    }));
    await db().order.createMany({ data: made });
    const newestFirst = [...made].reverse().map((order) => order.id);
    const first = await history.listOrders(many.id, 1);
    const second = await history.listOrders(many.id, 2);
    expect(first).toMatchObject({ page: 1, pages: 2, total: ORDER_HISTORY_PAGE_SIZE + 3 });
    expect(first.orders.map((order) => order.id)).toEqual(newestFirst.slice(0, ORDER_HISTORY_PAGE_SIZE));
    expect(second.orders.map((order) => order.id)).toEqual(newestFirst.slice(ORDER_HISTORY_PAGE_SIZE));
    expect(second.orders.every((order) => order.type === 'balance' && order.lines.length === 0)).toBe(true);
    expect((await history.listOrders(many.id, 3)).orders).toEqual([]);
  });

  it('links the receipt email to the order’s page, which has the PDF receipt, with no token and no code', async () => {
    const receipts = await db().outboundEmail.findMany({
      where: { toAddress: customer.email, template: 'order-receipt' },
    });
    const links = receipts.map((row) => (row.data as { link: string }).link);
    expect(links).toContain(`https://store.test/profile?order=${ids.fulfilled}`);
    const [receipt] = receipts.filter((row) => JSON.stringify(row.data).includes(ids.fulfilled));
    if (!receipt) throw new Error('the paid order has no receipt email');
    const message = renderEmail('order-receipt', 'pt-BR', EmailDataSchema.parse(receipt.data));
    expect(message.text).toContain(`https://store.test/profile?order=${ids.fulfilled}\n`);
    expect(message.text).toContain('O recibo deste pedido, em PDF, está na página do pedido.');
    for (const code of card.codes) expect(message.html + message.text).not.toContain(code);
  });

  it('makes a receipt of a paid order only, for its customer only', async () => {
    await expect(history.receiptSource(customer.id, ids.failed)).rejects.toBeInstanceOf(ConflictError);
    await expect(history.receiptSource(customer.id, ids.pending)).rejects.toBeInstanceOf(ConflictError);
    await expect(history.receiptSource(stranger.id, ids.fulfilled)).rejects.toBeInstanceOf(NotFoundError);
    const source = await history.receiptSource(customer.id, ids.fulfilled);
    expect(source).toMatchObject({ locale: 'pt-BR', customer: { name: 'Ana Souza', email: customer.email } });
  });

  it('writes the receipt as a PDF in the customer’s language, with the seller, the lines and the total, never a code', async () => {
    const source = await history.receiptSource(customer.id, ids.fulfilled);
    const pdf = await renderReceiptPdf(source, seller);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    for (const expected of [
      'Recibo',
      orderNumber(ids.fulfilled),
      seller.legalName,
      seller.taxId,
      card.product.name,
      'Preço unitário',
      'BRL 25,00',
      'BRL 50,00',
      `Desconto (cupom ${promoCode})`,
      '−BRL 5,00',
      'Total pago',
      'BRL 45,00',
      'Saldo da conta',
      'Ana Souza',
    ]) {
      expect(text).toContain(expected);
    }
    for (const code of card.codes) expect(text).not.toContain(code);
    expect(receiptFileName(ids.fulfilled)).toBe(`receipt-${orderNumber(ids.fulfilled)}.pdf`);
  });

  it('writes Russian and Hindi receipts in their own scripts, the refund too', async () => {
    const source = await history.receiptSource(customer.id, ids.refunded);
    const russian = await pdfText(await renderReceiptPdf({ ...source, locale: 'ru' }, seller));
    for (const expected of ['Чек', 'Итого оплачено', 'Возвращено', orderNumber(ids.refunded)]) {
      expect(russian).toContain(expected);
    }
    expect(russian).toContain('25,00 BRL');
    const hindi = await pdfText(await renderReceiptPdf({ ...source, locale: 'hi' }, seller));
    // Devanagari comes back from the PDF in its glyphs' visual order: words without reordered signs.
    for (const expected of ['रसीद', 'उत्पाद', 'मात्रा', orderNumber(ids.refunded), 'BRL 25.00']) {
      expect(hindi).toContain(expected);
    }
  });
});
