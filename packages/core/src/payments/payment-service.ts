import { createHash, randomUUID } from 'node:crypto';
import {
  type ConfirmOrderResponse,
  type CreateQrBody,
  type CreateUpiBody,
  ErrorKeys,
  type HostedPageResponse,
  type InitializePaymentBody,
  PAYMENT_UNDER_WAY,
  type PaymentBody,
  type PaymentResponse,
  type QrPaymentResponse,
  type SbpPaymentBody,
  type SbpPaymentResponse,
  type UpiPaymentResponse,
} from '@store/contract';
import { type OrderStatus, type PaymentMethod, Prisma, type PrismaClient, type Queryable, sqlOf } from '@store/db';
import { orderNumber } from '../mail/templates.ts';
import { actors } from '../orders/order-events.ts';
import type { OrderService } from '../orders/order-service.ts';
import { type LockedOrder, lockOrder, ORDER_COLUMNS } from '../orders/order-sql.ts';
import { PAID_STATUSES, transitionStatement, UNPAID_STATUSES } from '../orders/order-state.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';
import { minorToDisplay } from '../shared/money.ts';
import { anyPaymentSettling } from './payment-deciding.ts';
import type { PaymentReconciler } from './payment-reconcile.ts';
import type { CardOutcome, PaymentProvider, ReceiptItem } from './provider.ts';

/**
 * A payment of the order has succeeded or is being decided: a new attempt would charge it twice. A
 * 409 with PAYMENT_UNDER_WAY, which the web app answers with "paid, processing" and the order's status.
 */
export class PaymentUnderWayError extends ConflictError {
  constructor() {
    super(
      'A payment of this order has succeeded or is still being decided: wait for it rather than paying again.',
      PAYMENT_UNDER_WAY,
    );
  }
}

/** What the route knows of the browser: its address as Fastify routed it, and what it says of itself. */
export interface BrowserContext {
  ip: string;
  userAgent?: string | undefined;
}

/**
 * A QR or UPI payment is opened only with at least this much of its order's time left: the payer
 * needs a minute to open their bank's app and pay.
 */
export const BANK_PAYMENT_MIN_LEAD_MS = 2 * 60_000;

/** The provider's receipt takes at most this many lines; a longer order is one line of its total. */
const RECEIPT_ITEMS_MAX = 100;
const RECEIPT_NAME_MAX = 128;

/** The provider's field names in a refusal, as the store's calls name them. */
const BODY_FIELD: Record<string, string> = {
  'card.number': 'card_number',
  'card.expMonth': 'month',
  'card.expYear': 'year',
  'card.cvc': 'cvc',
  successUrl: 'success_url',
  declineUrl: 'decline_url',
  cancelUrl: 'cancel_url',
  'payer.personalId': 'personalId',
  'payer.firstName': 'firstName',
  'customer.firstName': 'FirstName',
  'customer.accountNumber': 'AccountNumber',
  'customer.email': 'email',
  'customer.phone': 'phone',
  'customer.zip': 'zip',
  'customer.address': 'address',
};

/** What the provider's receipt is made of: the customer's email and language, and the order's lines. */
interface ReceiptSource {
  email: string;
  locale: string;
  lines: Array<{ productName: string; quantity: number; unitPriceMinor: number; discountMinor: number }> | null;
}

/** Reads a ReceiptSource: a statement, or a subquery of one. */
const RECEIPT_SOURCE = (orderId: string, userId: Prisma.Sql) => Prisma.sql`
  SELECT u.email, u.locale,
         (SELECT json_agg(json_build_object('productName', ol.product_name, 'quantity', ol.quantity,
                                            'unitPriceMinor', ol.unit_price_minor, 'discountMinor', ol.discount_minor)
                          ORDER BY ol.product_id, ol.id)
          FROM order_lines ol WHERE ol.order_id = ${orderId}::uuid) AS lines
  FROM users u WHERE u.id = ${userId}`;

/**
 * What the provider's pages, the receipt and the bank statement say the payment is for, in the
 * customer's language (English for any other).
 */
interface PaymentTexts {
  goods: (order: string) => string;
  topUp: string;
}
const ENGLISH_PAYMENT_TEXTS: PaymentTexts = {
  goods: (order) => `Digital goods, order ${order}`,
  topUp: 'Balance top-up',
};
const PAYMENT_TEXTS: Record<string, PaymentTexts> = {
  en: ENGLISH_PAYMENT_TEXTS,
  'pt-BR': { goods: (order) => `Produtos digitais, pedido ${order}`, topUp: 'Recarga de saldo' },
  ru: { goods: (order) => `Цифровые товары, заказ ${order}`, topUp: 'Пополнение баланса' },
  hi: { goods: (order) => `डिजिटल सामान, ऑर्डर ${order}`, topUp: 'बैलेंस टॉप-अप' },
};
const paymentTexts = (locale: string | undefined): PaymentTexts =>
  (locale ? PAYMENT_TEXTS[locale] : undefined) ?? ENGLISH_PAYMENT_TEXTS;

/** The methods an attempt's token can name. */
const ATTEMPT_METHODS: PaymentMethod[] = ['CARD', 'WIDGET', 'HOSTED_PAGE', 'QR', 'UPI'];

/**
 * The store's payment id of an attempt the browser named with its token: the same order, method and
 * token always give the same id, which is the provider's idempotency key, so a repeated request
 * reaches the same provider payment. Shaped as a UUID (version 8, "custom").
 */
export function attemptPaymentId(orderId: string, method: PaymentMethod, token: string): string {
  return uuidOf(`${orderId}:${method}:${token}`);
}

/**
 * The id of the top-up a payment attempt makes when it names a value and no order: the same customer
 * and token always give the same order, so a repeated request tops up once.
 */
export function attemptTopUpId(userId: string, token: string): string {
  return uuidOf(`top-up:${userId}:${token}`);
}

/** A UUID (version 8, "custom") made from `text`'s SHA-256. */
function uuidOf(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The order's lines as receipt items whose sums add up to its total: a line's discount is spread
 * over its units, and where it does not divide evenly the line is split in two prices a cent apart.
 */
export function receiptItems(
  lines: Array<{ productName: string; quantity: number; unitPriceMinor: number; discountMinor: number }>,
  totalMinor: number,
  fallbackName: string,
): ReceiptItem[] {
  const items: ReceiptItem[] = [];
  for (const line of lines) {
    const name = line.productName.slice(0, RECEIPT_NAME_MAX);
    const paid = line.unitPriceMinor * line.quantity - line.discountMinor;
    const base = Math.floor(paid / line.quantity);
    const dearer = paid - base * line.quantity;
    if (line.quantity - dearer > 0) items.push({ name, unitPriceMinor: base, quantity: line.quantity - dearer });
    if (dearer > 0) items.push({ name, unitPriceMinor: base + 1, quantity: dearer });
  }
  const sum = items.reduce((total, item) => total + item.unitPriceMinor * item.quantity, 0);
  if (items.length === 0 || items.length > RECEIPT_ITEMS_MAX || sum !== totalMinor) {
    return [{ name: fallbackName, unitPriceMinor: totalMinor, quantity: 1 }];
  }
  return items;
}

export interface PaymentServiceDeps {
  db: PrismaClient;
  orders: Pick<OrderService, 'createOrder' | 'createTopUpFor' | 'findPayableOrder' | 'paymentStatus'>;
  provider: PaymentProvider;
  reconciler: Pick<PaymentReconciler, 'reconcileOrder'>;
  /** Where the store is opened: the browser comes back here from the provider. */
  publicUrl: string;
  logger?: Logger;
  clock?: () => Date;
}

type PayableType = 'purchase' | 'balance';

/**
 * Starting payments (SPEC.md sections 4 and 7): which order a call pays, the store's record of each
 * attempt, and the provider's answer for the browser. Nothing here marks an order paid: the
 * provider's events do that, through the one completion path (payment-events.ts); `confirmOrder`
 * only asks the provider and hands what it says to that path.
 */
export function createPaymentService({
  db,
  orders,
  provider,
  reconciler,
  publicUrl,
  logger = silentLogger,
  clock = () => new Date(),
}: PaymentServiceDeps) {
  const sql = sqlOf(db);
  const storeOrigin = new URL(publicUrl).origin;
  const returnUrl = (orderId: string) => {
    const url = new URL('/', publicUrl);
    url.searchParams.set('paymentConfirmOrder', orderId);
    return url.toString();
  };
  const description = (orderId: string, locale: string | undefined) => paymentTexts(locale).goods(orderNumber(orderId));

  function notPayable(message = 'This order can no longer be paid.'): ValidationError {
    return new ValidationError({ orderId: [ErrorKeys.orderNotPayable] }, message);
  }

  /** An order paid already is a 409 (paid, processing: the client follows its status); one that ended unpaid a 422. */
  function assertPayable(order: LockedOrder) {
    if (PAID_STATUSES.includes(order.status)) throw new PaymentUnderWayError();
    const expired = order.expiresAt !== null && order.expiresAt <= clock();
    if (!UNPAID_STATUSES.includes(order.status) || expired || order.totalMinor <= 0) throw notPayable();
  }

  /**
   * The order a call pays: the one it names (the caller's own, else a 404), else a new top-up of
   * `value`, else the customer's newest unpaid order of the type.
   */
  async function orderToPay(
    userId: string,
    input: {
      type?: PayableType | undefined;
      orderId?: string | undefined;
      value?: number | undefined;
      token?: string | undefined;
    },
  ): Promise<LockedOrder> {
    if (input.orderId) {
      const order = await readOrder(input.orderId, userId);
      if (!order) throw new NotFoundError('Order');
      const kind = order.type === 'BALANCE' ? 'balance' : order.type === 'PURCHASE' ? 'purchase' : 'spending';
      if (kind === 'spending' || (input.type && input.type !== kind)) {
        throw notPayable(`This order is a ${kind} order, not a ${input.type ?? 'provider'} payment.`);
      }
      // A repeated attempt (its token) reaches the payment it made, even once that payment paid the
      // order: a retry whose first answer was lost must get that answer, not "not payable".
      if (!(input.token && (await isKnownAttempt(order.id, input.token)))) assertPayable(order);
      return order;
    }
    const type = input.type ?? 'purchase';
    if (type === 'balance' && input.value !== undefined) {
      // With a token, the attempt's own top-up: a repeated request reaches the order (and then the
      // payment) the first one made, and charges once.
      const created = input.token
        ? await orders.createTopUpFor(userId, input.value, attemptTopUpId(userId, input.token))
        : await orders.createOrder(userId, { type: 'balance', replenishmentValue: input.value });
      const order = await readOrder(created.order_id, userId);
      if (!order) throw new NotFoundError('Order');
      if (!(input.token && (await isKnownAttempt(order.id, input.token)))) assertPayable(order);
      return order;
    }
    const order = await orders.findPayableOrder(userId, type);
    if (!order) {
      throw notPayable(
        type === 'purchase'
          ? 'There is no order waiting for payment: create one with POST /orders/create first.'
          : 'There is no top-up waiting for payment: give its value.',
      );
    }
    assertPayable(order);
    return order;
  }

  /**
   * The customer's language (kept in step with the interface's by the language switcher), for the
   * provider's own pages: read with the receipt's source as the payment opened, else (a repeated
   * attempt, which opened nothing) on its own.
   */
  async function customerLanguage(opened: { receipt?: ReceiptSource }, userId: string): Promise<string | undefined> {
    if (opened.receipt) return opened.receipt.locale;
    const [user] = await sql.query<{ locale: string }>(Prisma.sql`SELECT locale FROM users WHERE id = ${userId}::uuid`);
    return user?.locale;
  }

  /** The customer's order by id; someone else's is not found. */
  async function readOrder(orderId: string, userId: string): Promise<LockedOrder | undefined> {
    const [order] = await sql.query<LockedOrder>(
      Prisma.sql`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ${orderId}::uuid AND user_id = ${userId}::uuid`,
    );
    return order;
  }

  async function isKnownAttempt(orderId: string, token: string): Promise<boolean> {
    const ids = ATTEMPT_METHODS.map((method) => attemptPaymentId(orderId, method, token));
    return (await db.payment.count({ where: { id: { in: ids }, orderId } })) > 0;
  }

  /**
   * The store's record of an attempt, made under the order's lock (the order is then PENDING). With
   * a token, the same attempt again finds its record. While another payment of the order has
   * succeeded or is being decided (payment-deciding.ts), a new attempt is refused with
   * PaymentUnderWayError: one order is charged once. A new record comes with what a receipt needs:
   * the customer's email and the order's lines.
   */
  async function openPayment(
    order: LockedOrder,
    method: PaymentMethod,
    token?: string,
  ): Promise<{ id: string; receipt?: ReceiptSource }> {
    const id = token ? attemptPaymentId(order.id, method, token) : randomUUID();
    // Under the order's lock, while it waits for its payment: the record, the order's move to
    // PENDING (its state machine's statement) and the receipt's source, in one statement.
    const settling = anyPaymentSettling(Prisma.sql`${order.id}::uuid`, Prisma.sql`${clock()}::timestamptz`);
    const open = async (on: Queryable) => {
      const [opened] = await on.query<ReceiptSource & { opened: boolean; settling: boolean; status: OrderStatus }>(
        Prisma.sql`
        WITH target AS (
          SELECT id, user_id, status, total_minor, currency FROM orders WHERE id = ${order.id}::uuid
          FOR NO KEY UPDATE
        ), under_way AS (
          SELECT ${settling} AS settling
        ), opened AS (
          INSERT INTO payments (id, order_id, provider, method, amount_minor, currency, updated_at)
          SELECT ${id}::uuid, t.id, ${provider.name}, ${method}::payment_method, t.total_minor, t.currency, now()
          FROM target t, under_way u
          WHERE t.status = ANY(${[...UNPAID_STATUSES]}::text[]::order_status[]) AND NOT u.settling
          RETURNING id
        ), moved AS (${transitionStatement([order.id], 'PENDING', { actor: actors.customer })})
        SELECT EXISTS (SELECT 1 FROM opened) AS opened, (SELECT settling FROM under_way) AS settling,
               (SELECT status FROM target) AS status, receipt.*
        FROM (${RECEIPT_SOURCE(order.id, Prisma.sql`(SELECT user_id FROM target)`)}) AS receipt`,
      );
      if (opened?.settling || (opened && PAID_STATUSES.includes(opened.status))) throw new PaymentUnderWayError();
      if (!opened?.opened) throw notPayable();
      return { id, receipt: { email: opened.email, locale: opened.locale, lines: opened.lines } };
    };
    // A widget, hosted page or QR attempt is one statement: it charges nothing by itself (the
    // customer pays in the provider's page), so its look at the order's payments as the statement
    // began is enough, and should a payment slip through anyway, its second charge goes back to its
    // card. A card attempt is the charge itself: it takes the order's lock first, so that its look
    // sees every attempt made before it (a double click's second request waits here, then is
    // refused). A repeated attempt (its token) finds its own record under the lock too.
    if (!token && method !== 'CARD') return open(sql);
    return sql.transaction(async (tx) => {
      const locked = await lockOrder(tx, order.id);
      if (token) {
        const [existing] = await tx.query<{ id: string }>(Prisma.sql`SELECT id FROM payments WHERE id = ${id}::uuid`);
        if (existing) return { id: existing.id };
      }
      if (locked && PAID_STATUSES.includes(locked.status)) throw new PaymentUnderWayError();
      if (!locked || !UNPAID_STATUSES.includes(locked.status)) throw notPayable();
      return open(tx);
    });
  }

  /** The customer's email and the order's lines, for the provider's receipt. */
  async function readReceiptSource(order: LockedOrder): Promise<ReceiptSource | undefined> {
    const [receipt] = await sql.query<ReceiptSource>(RECEIPT_SOURCE(order.id, Prisma.sql`${order.userId}::uuid`));
    return receipt;
  }

  /**
   * The provider's id of an attempt, once it answered, and what its answer says: a card charged or
   * waiting for 3-D Secure is being decided (PENDING: no new attempt starts; its callback, not this
   * answer, pays the order), a card declined has failed. A callback that came first may have written
   * the id, and moved the payment on: its status is left as the callback made it.
   */
  async function recordProviderPayment(
    paymentId: string,
    providerPaymentId: string,
    card?: { brand: string; last4: string },
    answer?: CardOutcome,
  ) {
    // One statement: the id and the status change together, so that no other attempt ever sees the
    // payment known to the provider yet still waiting for its answer (which would let it through).
    const answered = answer ? (answer.status === 'failure' ? 'FAILED' : 'PENDING') : null;
    const reason = answer?.status === 'failure' ? answer.reason : null;
    const count = await sql.execute(Prisma.sql`
      UPDATE payments SET provider_payment_id = ${providerPaymentId},
        card_brand = COALESCE(${card ? card.brand.slice(0, 32) : null}, card_brand),
        card_last4 = COALESCE(${card?.last4 ?? null}, card_last4),
        status = CASE WHEN ${answered}::payment_status IS NOT NULL AND status = 'INIT' AND provider_version = 0
                      THEN ${answered}::payment_status ELSE status END,
        failure_reason = CASE WHEN ${answered}::payment_status = 'FAILED' AND status = 'INIT' AND provider_version = 0
                              THEN ${reason} ELSE failure_reason END,
        updated_at = now()
      WHERE id = ${paymentId}::uuid AND (provider_payment_id IS NULL OR provider_payment_id = ${providerPaymentId})`);
    if (count === 0) {
      logger.warn({ paymentId, providerPaymentId }, 'payment already belongs to another provider payment');
    }
  }

  /** A refusal by the provider names the fields of the store's own call. */
  async function refusedAttempt<T>(paymentId: string, start: () => Promise<T>): Promise<T> {
    try {
      return await start();
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      // The provider made no payment: the attempt is over before it began.
      await db.payment.updateMany({
        where: { id: paymentId, providerPaymentId: null, status: 'INIT' },
        data: { status: 'FAILED', failureReason: 'refused_by_provider' },
      });
      const errors = Object.fromEntries(
        Object.entries(error.errors).map(([field, keys]) => [BODY_FIELD[field] ?? field, keys]),
      );
      throw new ValidationError(errors, error.message);
    }
  }

  async function widgetPayment(order: LockedOrder, token?: string): Promise<PaymentResponse> {
    const opened = await openPayment(order, 'WIDGET', token);
    const paymentId = opened.id;
    const customer = opened.receipt ?? (await readReceiptSource(order));
    if (!customer) throw new NotFoundError('User');
    const lines = customer.lines ?? [];
    const what = description(order.id, customer.locale);
    const widget = await provider.createPayment({
      method: 'widget',
      orderId: order.id,
      amountMinor: order.totalMinor,
      currency: order.currency,
      description: what,
      customerEmail: customer.email,
      items:
        order.type === 'BALANCE'
          ? [{ name: paymentTexts(customer.locale).topUp, unitPriceMinor: order.totalMinor, quantity: 1 }]
          : receiptItems(lines, order.totalMinor, what),
    });
    return {
      status: 'widget',
      order_id: order.id,
      payment_id: paymentId,
      total_price: minorToDisplay(order.totalMinor),
      total_minor: order.totalMinor,
      currency: order.currency,
      widget: { script_url: widget.scriptUrl, request: widget.request },
    };
  }

  async function cardPayment(
    order: LockedOrder,
    body: PaymentBody & { card_number: string; month: number; year: number; cvc: string },
    browser: BrowserContext,
  ): Promise<PaymentResponse> {
    const opened = await openPayment(order, 'CARD', body.token);
    const paymentId = opened.id;
    const language = await customerLanguage(opened, order.userId);
    const result = await refusedAttempt(paymentId, () =>
      provider.createPayment({
        method: 'card',
        language,
        orderId: order.id,
        amountMinor: order.totalMinor,
        currency: order.currency,
        description: description(order.id, language),
        card: { number: body.card_number, expMonth: body.month, expYear: body.year, cvc: body.cvc },
        browser: {
          ip: browser.ip,
          userAgent: browser.userAgent?.slice(0, 512),
          screenHeight: body.screenHeight,
          screenWidth: body.screenWidth,
          timeZoneOffset: body.timeZoneOffset,
        },
        returnUrl: returnUrl(order.id),
        idempotencyKey: paymentId,
      }),
    );
    await recordProviderPayment(paymentId, result.providerPaymentId, result.card, result.outcome);
    const base = { order_id: order.id, payment_id: paymentId, card: result.card };
    const { outcome } = result;
    switch (outcome.status) {
      case 'success':
        return { status: 'success', ...base };
      case 'failure':
        return { status: 'failed', ...base, reason: outcome.reason };
      case '3DS':
        return {
          status: '3DS',
          ...base,
          redirectUrl: outcome.redirectUrl,
          PaReq: outcome.PaReq,
          MD: outcome.MD,
          TermUrl: outcome.TermUrl,
        };
      case '3DS_REDIRECT':
        return {
          status: '3DS_REDIRECT',
          ...base,
          redirectMethod: outcome.redirectMethod,
          redirectUrl: outcome.redirectUrl,
          redirectParams: outcome.redirectParams,
        };
    }
  }

  /**
   * Until when a payment the payer makes at their bank (a QR, UPI) may be paid: the order's own
   * expiry, so that the bank never takes money for an order the store has closed. One with too little
   * of its time left to be paid that way is refused before anything is opened.
   */
  function payableUntil(order: LockedOrder): { expiresAt?: Date } {
    if (!order.expiresAt) return {};
    if (order.expiresAt.getTime() - clock().getTime() < BANK_PAYMENT_MIN_LEAD_MS) {
      throw notPayable('Too little of this order’s time is left to pay at the bank: make the order again.');
    }
    return { expiresAt: order.expiresAt };
  }

  async function qrPayment(
    order: LockedOrder,
    scheme: 'pix' | 'sbp',
    payer?: { personalId?: string; firstName?: string },
  ) {
    const until = payableUntil(order);
    const opened = await openPayment(order, 'QR');
    const paymentId = opened.id;
    const language = await customerLanguage(opened, order.userId);
    const qr = await refusedAttempt(paymentId, () =>
      provider.createPayment({
        method: 'qr',
        language,
        scheme,
        orderId: order.id,
        amountMinor: order.totalMinor,
        currency: order.currency,
        description: description(order.id, language),
        returnUrl: returnUrl(order.id),
        idempotencyKey: paymentId,
        ...until,
        ...(payer ? { payer } : {}),
      }),
    );
    await recordProviderPayment(paymentId, qr.providerPaymentId);
    return { paymentId, qr };
  }

  /** A URL the provider may send the browser to: on the store's own origin, by the WHATWG parser. */
  function onStoreOrigin(value: string): boolean {
    try {
      return new URL(value).origin === storeOrigin;
    } catch {
      return false;
    }
  }

  return {
    /** POST /payment: the widget's request, or a charge of the card through the provider's card API. */
    async pay(userId: string, body: PaymentBody, browser: BrowserContext): Promise<PaymentResponse> {
      const order = await orderToPay(userId, body);
      const { card_number, month, year, cvc } = body;
      if (card_number === undefined || month === undefined || year === undefined || cvc === undefined) {
        return widgetPayment(order, body.token);
      }
      return cardPayment(order, { ...body, card_number, month, year, cvc }, browser);
    },

    /** POST /payment-sbp: a QR code whose payload is the provider's pay link (SBP). */
    async payBySbp(userId: string, body: SbpPaymentBody): Promise<SbpPaymentResponse> {
      const order = await orderToPay(userId, body);
      const { paymentId, qr } = await qrPayment(order, 'sbp');
      return {
        order_id: order.id,
        payment_id: paymentId,
        sbp: { image: qr.image, payload: qr.payload, pay_link: qr.payLink, expires_at: qr.expiresAt.toISOString() },
      };
    },

    /**
     * POST /orders/create-qr: a PIX BR Code for an order in BRL, the pay link otherwise; the amount
     * and currency the page shows must be the order's.
     */
    async payByQr(userId: string, body: CreateQrBody): Promise<QrPaymentResponse> {
      const order = await orderToPay(userId, body);
      const errors: Record<string, string[]> = {};
      if (body.currency !== order.currency) errors.currency = [ErrorKeys.currencyMismatch];
      if (body.amount !== order.totalMinor) errors.amount = [ErrorKeys.amountMismatch];
      if (Object.keys(errors).length > 0) {
        throw new ValidationError(errors, 'The amount or currency is not the order’s: reload the order.');
      }
      const payer = {
        ...(body.personalId ? { personalId: body.personalId } : {}),
        ...(body.firstName ? { firstName: body.firstName } : {}),
      };
      const { paymentId, qr } = await qrPayment(order, order.currency === 'BRL' ? 'pix' : 'sbp', payer);
      return {
        order_id: order.id,
        payment_id: paymentId,
        QrImage: `data:${qr.image.media_type};base64,${qr.image.content}`,
        PayLink: qr.payLink,
        payload: qr.payload,
        expires_at: qr.expiresAt.toISOString(),
      };
    },

    /** POST /orders/create-upi: the provider's UPI page, returning to one of three URLs of the store. */
    async payByUpi(userId: string, body: CreateUpiBody): Promise<UpiPaymentResponse> {
      const errors: Record<string, string[]> = {};
      for (const field of ['success_url', 'decline_url', 'cancel_url'] as const) {
        if (!onStoreOrigin(body[field])) errors[field] = [ErrorKeys.foreignOrigin];
      }
      if (Object.keys(errors).length > 0) {
        throw new ValidationError(errors, 'Every return address must be on the store’s own site.');
      }
      const order = await orderToPay(userId, body);
      if (body.currency !== order.currency) {
        throw new ValidationError({ currency: [ErrorKeys.currencyMismatch] }, 'The currency is not the order’s.');
      }
      const until = payableUntil(order);
      const opened = await openPayment(order, 'UPI');
      const paymentId = opened.id;
      const language = await customerLanguage(opened, userId);
      const upi = await refusedAttempt(paymentId, () =>
        provider.createPayment({
          method: 'upi',
          language,
          orderId: order.id,
          amountMinor: order.totalMinor,
          currency: order.currency,
          description: body.description,
          customer: {
            firstName: body.FirstName,
            accountNumber: body.AccountNumber,
            email: body.email,
            phone: body.phone,
            zip: body.zip,
            address: body.address,
          },
          successUrl: body.success_url,
          declineUrl: body.decline_url,
          cancelUrl: body.cancel_url,
          idempotencyKey: paymentId,
          ...until,
        }),
      );
      await recordProviderPayment(paymentId, upi.providerPaymentId);
      return { order_id: order.id, payment_id: paymentId, redirect_url: upi.redirectUrl, intent: upi.intent };
    },

    /** POST /payment/initialize: the signed request the browser posts to the provider's hosted page. */
    async initializeHostedPage(
      userId: string,
      body: InitializePaymentBody,
      browser: BrowserContext,
    ): Promise<HostedPageResponse> {
      const order = await orderToPay(userId, { orderId: body.orderId });
      const opened = await openPayment(order, 'HOSTED_PAGE', body.token);
      const paymentId = opened.id;
      const language = await customerLanguage(opened, userId);
      const form = await provider.createPayment({
        method: 'hosted_page',
        language,
        orderId: order.id,
        amountMinor: order.totalMinor,
        currency: order.currency,
        description: description(order.id, language),
        customerIp: browser.ip,
        returnUrl: returnUrl(order.id),
        idempotencyKey: paymentId,
      });
      return { order_id: order.id, payment_id: paymentId, method: 'POST', action: form.action, fields: form.fields };
    },

    /**
     * POST /orders/confirm/{id}: asks the provider about each of the order's payments and hands what
     * is new to the one completion path; answers the order's status as it is now.
     */
    async confirmOrder(userId: string, orderId: string): Promise<ConfirmOrderResponse> {
      const order = await db.order.findFirst({ where: { id: orderId, userId }, select: { id: true } });
      if (!order) throw new NotFoundError('Order');
      const updates = await reconciler.reconcileOrder(orderId);
      return { ...(await orders.paymentStatus(userId, orderId)), updates };
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
