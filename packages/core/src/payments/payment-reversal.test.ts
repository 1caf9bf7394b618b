import { randomBytes, randomUUID } from 'node:crypto';
import { ErrorKeys } from '@store/contract';
import { createCodeCipher } from '@store/db';
import { createProductRefs, createTestDatabase, type ProductRefs, type TestDatabase } from '@store/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, createLedgerService, creditCustomer } from '../ledger/ledger-service.ts';
import { orderHistory } from '../orders/order-events.ts';
import { createOrderService } from '../orders/order-service.ts';
import { createPromoService } from '../promo/promo-service.ts';
import type { ValidationError } from '../shared/errors.ts';
import { createPaymentEventIntake } from './payment-event-intake.ts';
import { createPaymentEventProcessor } from './payment-events.ts';
import type { PaymentCallbackEvent } from './provider.ts';

// What the provider gives back on its own (a dashboard refund, a chargeback) reverses what the payment
// produced in the store, once, on PostgreSQL (or PGlite without DATABASE_URL): the order, the
// balance, a debt where the balance was spent, and books that balance after every step.

const cipher = createCodeCipher('7e'.repeat(32));
let database: TestDatabase;
let refs: ProductRefs;
let orders: ReturnType<typeof createOrderService>;
const db = () => database.prisma;

beforeAll(async () => {
  database = await createTestDatabase();
  refs = await createProductRefs(db());
  orders = createOrderService({
    sql: database.sql,
    promo: createPromoService({ db: db(), sql: database.sql }),
    publicUrl: 'https://store.test',
  });
});
afterAll(async () => {
  await database?.cleanup();
});

async function customer() {
  return db().user.create({
    data: { email: `reversal.${randomUUID()}@example.com`, name: 'Payer', passwordHash: 'x', locale: 'en' },
  });
}

/**
 * An order of `quantity` codes of a product with `stock` of them, at 15.00 each: a purchase to pay
 * through the provider, or a spend from the balance.
 */
async function purchase(
  userId: string,
  {
    quantity = 2,
    stock = 5,
    type = 'purchase',
  }: { quantity?: number; stock?: number; type?: 'purchase' | 'spending' } = {},
) {
  const product = await db().product.create({
    data: { ...refs, name: `Reversal Card ${randomBytes(3).toString('hex')}`, nominalMinor: 1_000, priceMinor: 1_500 },
  });
  await db().productCode.createMany({
    data: Array.from({ length: stock }, () => {
      const code = `REV-${randomBytes(6).toString('hex')}`;
      return { productId: product.id, ciphertext: cipher.encrypt(code), codeDigest: cipher.digest(code) };
    }),
  });
  await db().basketLine.create({ data: { userId, productId: product.id, quantity } });
  const created = await orders.createOrder(userId, { type });
  return { orderId: created.order_id, totalMinor: created.total_minor, productId: product.id };
}

async function topUp(userId: string, whole: number) {
  const created = await orders.createOrder(userId, { type: 'balance', replenishmentValue: whole });
  return { orderId: created.order_id, totalMinor: created.total_minor };
}

/**
 * The provider's story of one payment of the order, told through the one completion path: each call
 * is the payment as the provider knows it at the next version, delivered as a callback and applied.
 */
function providerPayment(orderId: string, amountMinor: number) {
  const providerPaymentId = `pay_${randomBytes(8).toString('hex')}`;
  let version = 1;
  let paymentRow: Promise<unknown> | undefined;
  const intake = createPaymentEventIntake({ sql: database.sql });
  const processor = createPaymentEventProcessor({ sql: database.sql, orders });
  return {
    providerPaymentId,
    async send(
      state: Partial<Pick<PaymentCallbackEvent, 'status' | 'refundedMinor' | 'chargedBackMinor'>>,
      { atVersion }: { atVersion?: number } = {},
    ) {
      // The store's record of the card attempt, as POST /payment writes it once the provider answered.
      paymentRow ??= db()
        .payment.findFirst({ where: { providerPaymentId } })
        .then(
          (found) =>
            found ??
            db().payment.create({
              data: { orderId, provider: 'sandbox', method: 'CARD', amountMinor, currency: 'BRL', providerPaymentId },
            }),
        );
      await paymentRow;
      const at = atVersion ?? ++version;
      const status = state.status ?? 'succeeded';
      const type =
        (state.chargedBackMinor ?? 0) > 0
          ? 'payment.charged_back'
          : (state.refundedMinor ?? 0) > 0 || status === 'refunded'
            ? 'payment.refunded'
            : `payment.${status}`;
      const received = await intake.receiveCallback({
        provider: 'sandbox',
        eventId: `evt_${randomBytes(8).toString('hex')}`,
        type,
        occurredAt: new Date(),
        providerPaymentId,
        orderId,
        method: 'card',
        status,
        amountMinor,
        currency: 'BRL',
        refundedMinor: state.refundedMinor ?? 0,
        chargedBackMinor: state.chargedBackMinor ?? 0,
        failureReason: null,
        card: { brand: 'visa', last4: '4242' },
        version: at,
        payload: null,
      } as PaymentCallbackEvent);
      if (!received.eventId) throw new Error('the event was taken for a duplicate');
      return processor.processEvent(received.eventId);
    },
  };
}

async function orderOf(id: string) {
  const order = await db().order.findUniqueOrThrow({ where: { id } });
  return { status: order.status, refundedMinor: Number(order.refundedMinor) };
}
async function customerOf(id: string) {
  const user = await db().user.findUniqueOrThrow({ where: { id } });
  return { balanceMinor: Number(user.balanceMinor), owedMinor: Number(user.owedMinor) };
}
const soldCodes = (orderId: string) => db().productCode.count({ where: { orderLine: { orderId }, status: 'SOLD' } });

/** The transfers that name the payment, as kind, from, to and amount. */
async function movementsOf(providerPaymentId: string) {
  const payment = await db().payment.findFirstOrThrow({ where: { providerPaymentId } });
  const transfers = await db().ledgerTransfer.findMany({
    where: { paymentId: payment.id },
    include: { entries: true },
    orderBy: { createdAt: 'asc' },
  });
  return transfers
    .map((t) => {
      const from = t.entries.find((entry) => entry.amountMinor < 0n)?.account;
      const to = t.entries.find((entry) => entry.amountMinor > 0n)?.account;
      return `${t.kind} ${from}->${to} ${t.amountMinor}`;
    })
    .sort();
}

/** The order's history as `who what from->to amount`, oldest first. */
async function historyOf(orderId: string) {
  return (await orderHistory(database.sql, orderId)).map((event) =>
    [
      event.actor,
      event.kind,
      event.fromStatus || event.toStatus ? `${event.fromStatus ?? ''}->${event.toStatus ?? ''}` : '',
      event.amountMinor ?? '',
    ]
      .filter((part) => part !== '')
      .join(' '),
  );
}

async function expectBooksBalance() {
  expect(await createLedgerService({ sql: database.sql }).verifyBooks()).toEqual([]);
}

async function fundFromAdjustments(userId: string, amountMinor: number) {
  const { adjustBalance } = await import('../ledger/ledger-service.ts');
  await database.sql.transaction((tx) => adjustBalance(tx, { userId, amountMinor, key: `test:${randomUUID()}` }));
}

describe('a purchase given back by the provider', () => {
  it('in full ends the order refunded; the codes stay delivered and the balance is not touched', async () => {
    const user = await customer();
    const { orderId, totalMinor } = await purchase(user.id);
    const pay = providerPayment(orderId, totalMinor);
    expect((await pay.send({ status: 'succeeded' })).outcome).toBe('completed');
    expect((await pay.send({ status: 'refunded', refundedMinor: totalMinor })).outcome).toBe('order_refunded');
    expect(await orderOf(orderId)).toEqual({ status: 'REFUNDED', refundedMinor: totalMinor });
    expect(await soldCodes(orderId)).toBe(2);
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 0, owedMinor: 0 });
    expect(await movementsOf(pay.providerPaymentId)).toEqual([
      `PROVIDER_REFUND REFUNDS->PROVIDER_CLEARING ${totalMinor}`,
      `PURCHASE PROVIDER_CLEARING->REVENUE ${totalMinor}`,
    ]);
    await expectBooksBalance();
  });

  it('in parts makes it partially refunded, then refunded, each part once however often it is told', async () => {
    const user = await customer();
    const { orderId, totalMinor } = await purchase(user.id);
    const pay = providerPayment(orderId, totalMinor);
    await pay.send({ status: 'succeeded' });
    expect((await pay.send({ refundedMinor: 1_000 })).outcome).toBe('order_partially_refunded');
    expect(await orderOf(orderId)).toEqual({ status: 'PARTIALLY_REFUNDED', refundedMinor: 1_000 });
    // The same total again, as a poll of the provider would tell it: nothing more moves.
    expect((await pay.send({ refundedMinor: 1_000 })).outcome).toBe('recorded');
    // An older version arriving late changes nothing.
    expect((await pay.send({ refundedMinor: 500 }, { atVersion: 2 })).outcome).toBe('stale');
    expect((await pay.send({ status: 'refunded', refundedMinor: totalMinor })).outcome).toBe('order_refunded');
    expect(await orderOf(orderId)).toEqual({ status: 'REFUNDED', refundedMinor: totalMinor });
    expect(await movementsOf(pay.providerPaymentId)).toEqual([
      'PROVIDER_REFUND REFUNDS->PROVIDER_CLEARING 1000',
      `PROVIDER_REFUND REFUNDS->PROVIDER_CLEARING ${totalMinor - 1_000}`,
      `PURCHASE PROVIDER_CLEARING->REVENUE ${totalMinor}`,
    ]);
    // Its whole life, in the order it happened, and who did each thing: each word of the provider
    // before what it made the store do; an older version, which changed nothing, is not in it.
    expect(await historyOf(orderId)).toEqual([
      `customer created ->CREATED ${totalMinor}`,
      `provider:sandbox payment ${totalMinor}`,
      `provider:sandbox status CREATED->PAID ${totalMinor}`,
      'provider:sandbox codes',
      'provider:sandbox status PAID->FULFILLED',
      `provider:sandbox payment ${totalMinor}`,
      'provider:sandbox reversal 1000',
      'provider:sandbox status FULFILLED->PARTIALLY_REFUNDED 1000',
      `provider:sandbox payment ${totalMinor}`,
      `provider:sandbox payment ${totalMinor}`,
      `provider:sandbox reversal ${totalMinor - 1_000}`,
      `provider:sandbox status PARTIALLY_REFUNDED->REFUNDED ${totalMinor - 1_000}`,
    ]);
    await expectBooksBalance();
  });

  it('after a shortfall credited to the balance, takes that credit back before refunding the goods', async () => {
    const user = await customer();
    // Two codes bought, one in stock: half of it went back to the balance at fulfilment.
    const { orderId, totalMinor, productId } = await purchase(user.id, { quantity: 2, stock: 2 });
    const taken = await db().productCode.findFirstOrThrow({ where: { productId } });
    await db().productCode.delete({ where: { id: taken.id } });
    const pay = providerPayment(orderId, totalMinor);
    await pay.send({ status: 'succeeded' });
    const half = totalMinor / 2;
    expect(await orderOf(orderId)).toEqual({ status: 'PARTIALLY_REFUNDED', refundedMinor: half });
    expect(await customerOf(user.id)).toEqual({ balanceMinor: half, owedMinor: 0 });

    // Support refunds the whole payment to the card: the shortfall is on the card now, not the balance.
    expect((await pay.send({ status: 'refunded', refundedMinor: totalMinor })).outcome).toBe('order_refunded');
    expect(await orderOf(orderId)).toEqual({ status: 'REFUNDED', refundedMinor: totalMinor });
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 0, owedMinor: 0 });
    expect(await movementsOf(pay.providerPaymentId)).toEqual([
      `PROVIDER_REFUND CUSTOMER_BALANCE->PROVIDER_CLEARING ${half}`,
      `PROVIDER_REFUND REFUNDS->PROVIDER_CLEARING ${half}`,
      `PURCHASE PROVIDER_CLEARING->REVENUE ${totalMinor}`,
      `REFUND REFUNDS->CUSTOMER_BALANCE ${half}`,
    ]);
    await expectBooksBalance();
  });

  it('after an operator refunded it to the balance and the customer spent that, leaves a debt', async () => {
    const user = await customer();
    const { orderId, totalMinor } = await purchase(user.id);
    const pay = providerPayment(orderId, totalMinor);
    await pay.send({ status: 'succeeded' });
    const { createOrderOperations } = await import('../orders/order-operations.ts');
    await createOrderOperations({ db: db(), sql: database.sql, publicUrl: 'https://store.test' }).refundOrder(orderId);
    expect(await customerOf(user.id)).toEqual({ balanceMinor: totalMinor, owedMinor: 0 });
    // Spent on something else.
    const spent = await purchase(user.id, { quantity: 1, type: 'spending' });
    await orders.spendBalance(user.id, spent.orderId);
    const left = totalMinor - spent.totalMinor;
    expect(await customerOf(user.id)).toEqual({ balanceMinor: left, owedMinor: 0 });

    // The customer disputes the card charge and the bank takes it back: the credit is gone twice over.
    expect((await pay.send({ chargedBackMinor: totalMinor, status: 'refunded' })).outcome).toBe('reversed');
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 0, owedMinor: spent.totalMinor });
    expect(await orderOf(orderId)).toEqual({ status: 'REFUNDED', refundedMinor: totalMinor });
    expect(await movementsOf(pay.providerPaymentId)).toEqual([
      `CHARGEBACK CUSTOMER_BALANCE->PROVIDER_CLEARING ${left}`,
      `CHARGEBACK CUSTOMER_RECEIVABLE->PROVIDER_CLEARING ${spent.totalMinor}`,
      `PURCHASE PROVIDER_CLEARING->REVENUE ${totalMinor}`,
      `REFUND REFUNDS->CUSTOMER_BALANCE ${totalMinor}`,
    ]);
    await expectBooksBalance();
  });
});

describe('a top-up given back by the provider', () => {
  it('takes its credit back from the balance and ends the top-up refunded', async () => {
    const user = await customer();
    const { orderId, totalMinor } = await topUp(user.id, 200);
    const pay = providerPayment(orderId, totalMinor);
    await pay.send({ status: 'succeeded' });
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 20_000, owedMinor: 0 });
    expect((await pay.send({ status: 'refunded', refundedMinor: totalMinor })).outcome).toBe('order_refunded');
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 0, owedMinor: 0 });
    expect(await orderOf(orderId)).toEqual({ status: 'REFUNDED', refundedMinor: 20_000 });
    expect(await movementsOf(pay.providerPaymentId)).toEqual([
      'PROVIDER_REFUND CUSTOMER_BALANCE->PROVIDER_CLEARING 20000',
      'TOPUP PROVIDER_CLEARING->CUSTOMER_BALANCE 20000',
    ]);
    await expectBooksBalance();
  });

  it('spent already: what the balance no longer covers becomes a debt, which the next money pays first', async () => {
    const user = await customer();
    const { orderId, totalMinor } = await topUp(user.id, 200);
    const pay = providerPayment(orderId, totalMinor);
    await pay.send({ status: 'succeeded' });
    const bought = await purchase(user.id, { quantity: 1, type: 'spending' });
    await orders.spendBalance(user.id, bought.orderId);
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 20_000 - 1_500, owedMinor: 0 });

    // A chargeback of half, then a refund of the rest.
    expect((await pay.send({ chargedBackMinor: 10_000 })).outcome).toBe('order_partially_refunded');
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 8_500, owedMinor: 0 });
    expect(await orderOf(orderId)).toEqual({ status: 'PARTIALLY_REFUNDED', refundedMinor: 10_000 });
    expect((await pay.send({ chargedBackMinor: 10_000, refundedMinor: 10_000, status: 'refunded' })).outcome).toBe(
      'order_refunded',
    );
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 0, owedMinor: 1_500 });
    expect(await orderOf(orderId)).toEqual({ status: 'REFUNDED', refundedMinor: 20_000 });
    expect(await movementsOf(pay.providerPaymentId)).toEqual([
      'CHARGEBACK CUSTOMER_BALANCE->PROVIDER_CLEARING 10000',
      'PROVIDER_REFUND CUSTOMER_BALANCE->PROVIDER_CLEARING 8500',
      'PROVIDER_REFUND CUSTOMER_RECEIVABLE->PROVIDER_CLEARING 1500',
      'TOPUP PROVIDER_CLEARING->CUSTOMER_BALANCE 20000',
    ]);
    await expectBooksBalance();

    // Money onto the balance pays the debt first: an operator's 10.00 pays part of it, a top-up the rest.
    await fundFromAdjustments(user.id, 1_000);
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 0, owedMinor: 500 });
    const again = await topUp(user.id, 100);
    await providerPayment(again.orderId, again.totalMinor).send({ status: 'succeeded' });
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 9_500, owedMinor: 0 });
    await expectBooksBalance();
  });

  it('refuses every spend from the balance while the customer owes, and lets it through once paid', async () => {
    const user = await customer();
    const { orderId, totalMinor } = await topUp(user.id, 100);
    const pay = providerPayment(orderId, totalMinor);
    await pay.send({ status: 'succeeded' });
    const spent = await purchase(user.id, { quantity: 4, type: 'spending' });
    await orders.spendBalance(user.id, spent.orderId);
    const before = await purchase(user.id, { quantity: 1, type: 'spending' });
    await pay.send({ status: 'refunded', refundedMinor: totalMinor });
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 0, owedMinor: 6_000 });

    // Told why: the debt, not a short balance.
    const refusedSpend = (await orders
      .spendBalance(user.id, before.orderId)
      .catch((error) => error)) as ValidationError;
    expect(refusedSpend.errors).toEqual({ balance: [ErrorKeys.balanceOwed] });
    const refusedOrder = (await purchase(user.id, { quantity: 1, type: 'spending' }).catch(
      (error) => error,
    )) as ValidationError;
    expect(refusedOrder.errors).toEqual({ balance: [ErrorKeys.balanceOwed] });
    expect(await orderOf(before.orderId)).toEqual({ status: 'CREATED', refundedMinor: 0 });

    const again = await topUp(user.id, 100);
    await providerPayment(again.orderId, again.totalMinor).send({ status: 'succeeded' });
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 4_000, owedMinor: 0 });
    await orders.spendBalance(user.id, before.orderId);
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 2_500, owedMinor: 0 });
    await expectBooksBalance();
  });
});

describe('a payment that did not pay the order, given back', () => {
  it('a second payment is held in suspense until it is back on its card; the balance is never touched', async () => {
    const user = await customer();
    const { orderId, totalMinor } = await purchase(user.id);
    await providerPayment(orderId, totalMinor).send({ status: 'succeeded' });
    const second = providerPayment(orderId, totalMinor);
    expect((await second.send({ status: 'succeeded' })).outcome).toBe('duplicate_refunded');
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 0, owedMinor: 0 });
    expect((await second.send({ status: 'refunded', refundedMinor: totalMinor })).outcome).toBe('reversed');
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 0, owedMinor: 0 });
    expect(await movementsOf(second.providerPaymentId)).toEqual([
      `PROVIDER_REFUND SUSPENSE->PROVIDER_CLEARING ${totalMinor}`,
      `UNAPPLIED PROVIDER_CLEARING->SUSPENSE ${totalMinor}`,
    ]);
    expect(await orderOf(orderId)).toEqual({ status: 'FULFILLED', refundedMinor: 0 });
    await expectBooksBalance();
  });

  it('a second payment a store before this one credited to the balance has that credit taken back', async () => {
    const user = await customer();
    const { orderId, totalMinor } = await purchase(user.id);
    await providerPayment(orderId, totalMinor).send({ status: 'succeeded' });
    const second = providerPayment(orderId, totalMinor);
    // As the books were kept when a second payment went to the balance: that credit, naming the payment.
    const row = await db().payment.create({
      data: {
        orderId,
        provider: 'sandbox',
        method: 'CARD',
        status: 'SUCCEEDED',
        amountMinor: totalMinor,
        currency: 'BRL',
        providerPaymentId: second.providerPaymentId,
        providerVersion: 2,
      },
    });
    await database.sql.transaction((tx) =>
      creditCustomer(tx, {
        userId: user.id,
        key: `refund:${orderId}:payment:${row.id}`,
        kind: 'REFUND',
        from: accounts.clearing('sandbox'),
        amountMinor: totalMinor,
        orderId,
        paymentId: row.id,
      }),
    );
    expect(await customerOf(user.id)).toEqual({ balanceMinor: totalMinor, owedMinor: 0 });
    expect((await second.send({ status: 'refunded', refundedMinor: totalMinor }, { atVersion: 3 })).outcome).toBe(
      'reversed',
    );
    expect(await customerOf(user.id)).toEqual({ balanceMinor: 0, owedMinor: 0 });
    // The order was paid by the first payment and keeps its codes and its status.
    expect(await orderOf(orderId)).toEqual({ status: 'FULFILLED', refundedMinor: 0 });
    await expectBooksBalance();
  });

  it('given back before the store applied it, it never completes the order', async () => {
    const user = await customer();
    const { orderId, totalMinor } = await purchase(user.id);
    const pay = providerPayment(orderId, totalMinor);
    // The refund overtakes the success: version 3 arrives first, then version 2.
    expect((await pay.send({ status: 'refunded', refundedMinor: totalMinor }, { atVersion: 3 })).outcome).toBe(
      'returned_unapplied',
    );
    expect((await pay.send({ status: 'succeeded' }, { atVersion: 2 })).outcome).toBe('stale');
    expect(await orderOf(orderId)).toEqual({ status: 'CREATED', refundedMinor: 0 });
    expect(await soldCodes(orderId)).toBe(0);
    expect(await movementsOf(pay.providerPaymentId)).toEqual([
      `PROVIDER_REFUND SUSPENSE->PROVIDER_CLEARING ${totalMinor}`,
      `UNAPPLIED PROVIDER_CLEARING->SUSPENSE ${totalMinor}`,
    ]);
    await expectBooksBalance();
  });
});

describe('the same refund told at once by several deliveries', () => {
  // A race: run three times, each on an order of its own.
  for (const round of [1, 2, 3]) {
    it(`reverses it once (round ${round})`, async () => {
      const user = await customer();
      const { orderId, totalMinor } = await topUp(user.id, 150);
      const pay = providerPayment(orderId, totalMinor);
      await pay.send({ status: 'succeeded' });
      const intake = createPaymentEventIntake({ sql: database.sql });
      const processor = createPaymentEventProcessor({ sql: database.sql, orders });
      const stored = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          intake.receiveCallback({
            provider: 'sandbox',
            eventId: `evt_${randomBytes(8).toString('hex')}`,
            type: 'payment.refunded',
            occurredAt: new Date(),
            providerPaymentId: pay.providerPaymentId,
            orderId,
            method: 'card',
            status: index % 2 === 0 ? 'refunded' : 'succeeded',
            amountMinor: totalMinor,
            currency: 'BRL',
            refundedMinor: index % 2 === 0 ? totalMinor : 5_000,
            chargedBackMinor: 0,
            failureReason: null,
            card: null,
            version: index % 2 === 0 ? 4 : 3,
            payload: null,
          }),
        ),
      );
      await Promise.all(stored.map((received) => processor.processEvent(received.eventId as string)));
      expect(await customerOf(user.id)).toEqual({ balanceMinor: 0, owedMinor: 0 });
      expect(await orderOf(orderId)).toEqual({ status: 'REFUNDED', refundedMinor: totalMinor });
      const reversed = await db().ledgerTransfer.aggregate({
        where: { orderId, kind: 'PROVIDER_REFUND' },
        _sum: { amountMinor: true },
      });
      expect(reversed._sum.amountMinor).toBe(BigInt(totalMinor));
      await expectBooksBalance();
    });
  }
});
