import {
  type ConfirmOrderResponse,
  type CreateQrBody,
  type CreateUpiBody,
  ErrorKeys,
  type HostedPageResponse,
  type InitializePaymentBody,
  type PaymentBody,
  type PaymentResponse,
  type QrPaymentResponse,
  type SbpPaymentBody,
  type SbpPaymentResponse,
  type UpiPaymentResponse,
} from '@store/contract';
import { type PrismaClient, qb, type SqlClient } from '@store/db';
import { orderNumber } from '../mail/templates.ts';
import type { OrderService } from '../orders/order-service.ts';
import { type LockedOrder, orderColumns } from '../orders/order-sql.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';
import { minorToDisplay } from '../shared/money.ts';
import {
  type ChargeConfig,
  type ChargeRail,
  chargeAnswer,
  chargeCurrencyOf,
  DEFAULT_CHARGE_CONFIG,
  type LockedCharge,
  lockCharge,
} from './charge-currency.ts';
import { attemptTopUpId, createPaymentAttempts, notPayable } from './payment-attempts.ts';
import { chargedLines, customerLanguage, paymentTexts, readReceiptSource, receiptItems } from './payment-receipts.ts';
import type { PaymentReconciler } from './payment-reconcile.ts';
import type { PaymentProvider } from './provider.ts';
import { type ProviderRegistry, type RoutedMethod, singleProviderRegistry } from './provider-registry.ts';

// The attempts and the receipts have modules of their own; what of them the store's callers use is
// reached under this module's name too.
export { attemptPaymentId, attemptTopUpId, PaymentUnderWayError } from './payment-attempts.ts';
export { receiptItems } from './payment-receipts.ts';

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

export interface PaymentServiceDeps {
  db: PrismaClient;
  sql: SqlClient;
  orders: Pick<OrderService, 'createOrder' | 'createTopUpFor' | 'findPayableOrder' | 'paymentStatus'>;
  /** Which provider serves each method (provider-registry.ts). */
  providers?: ProviderRegistry;
  /** One provider for every method (tests). */
  provider?: PaymentProvider;
  reconciler: Pick<PaymentReconciler, 'reconcileOrder'>;
  /** Where the store is opened: the browser comes back here from the provider. */
  publicUrl: string;
  /** What each method is charged in, and how old a rate may be (docs/currency.md). */
  charges?: ChargeConfig;
  logger?: Logger;
  clock?: () => Date;
}

type PayableType = 'purchase' | 'balance';

/**
 * Starting payments (docs/payments.md, "The store's payment calls"): which order a call pays, the store's record of each
 * attempt (payment-attempts.ts), and the provider's answer for the browser, per method. Nothing here marks an order paid: the
 * provider's events do that, through the one completion path (payment-events.ts); `confirmOrder`
 * only asks the provider and hands what it says to that path.
 */
export function createPaymentService({
  db,
  sql,
  orders,
  providers: givenProviders,
  provider: oneProvider,
  reconciler,
  publicUrl,
  charges = DEFAULT_CHARGE_CONFIG,
  logger = silentLogger,
  clock = () => new Date(),
}: PaymentServiceDeps) {
  const registry = givenProviders ?? (oneProvider ? singleProviderRegistry(oneProvider) : undefined);
  if (!registry) throw new Error('the payment service needs a provider registry');
  const providers: ProviderRegistry = registry;
  const storeOrigin = new URL(publicUrl).origin;
  const returnUrl = (orderId: string) => {
    const url = new URL('/', publicUrl);
    url.searchParams.set('paymentConfirmOrder', orderId);
    return url.toString();
  };
  const description = (orderId: string, locale: string | undefined) => paymentTexts(locale).goods(orderNumber(orderId));
  const { assertPayable, isKnownAttempt, openPayment, recordProviderPayment, refusedAttempt } = createPaymentAttempts({
    db,
    sql,
    logger,
    clock,
  });

  /**
   * The charge of the order on `rail`, at the operator's rate now (a 422 when it has none, or an old
   * one); the payment locks it as it opens, and a repeated attempt keeps the one it locked first.
   */
  const chargeOn = (order: LockedOrder, rail: ChargeRail): Promise<LockedCharge> =>
    lockCharge(sql, {
      storeMinor: order.totalMinor,
      currency: chargeCurrencyOf(rail, charges),
      now: clock(),
      rateMaxAgeMs: charges.rateMaxAgeMs,
    });
  const answerOf = (order: LockedOrder, charge: LockedCharge) =>
    chargeAnswer(charge, { amountMinor: order.totalMinor, currency: order.currency });

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

  /** The customer's order by id; someone else's is not found. */
  async function readOrder(orderId: string, userId: string): Promise<LockedOrder | undefined> {
    const [order] = await sql.query(
      qb.selectFrom('orders').select(orderColumns).where('id', '=', orderId).where('user_id', '=', userId),
    );
    return order;
  }

  async function widgetPayment(order: LockedOrder, token?: string): Promise<PaymentResponse> {
    const provider = providers.forMethod('widget');
    const opened = await openPayment(order, 'WIDGET', await chargeOn(order, 'widget'), provider, token);
    const paymentId = opened.id;
    const { charge } = opened;
    const customer = opened.receipt ?? (await readReceiptSource(sql, order));
    if (!customer) throw new NotFoundError('User');
    const lines = chargedLines(customer.lines ?? [], order.totalMinor, charge.chargeMinor);
    const what = description(order.id, customer.locale);
    const widget = await provider.createPayment({
      method: 'widget',
      orderId: order.id,
      amountMinor: charge.chargeMinor,
      currency: charge.currency,
      description: what,
      customerEmail: customer.email,
      items:
        order.type === 'BALANCE'
          ? [{ name: paymentTexts(customer.locale).topUp, unitPriceMinor: charge.chargeMinor, quantity: 1 }]
          : receiptItems(lines, charge.chargeMinor, what),
      idempotencyKey: paymentId,
    });
    // POST /payment's answer (the contract's WidgetRequestSchema) carries the sandbox's widget only:
    // Payselection's Pay Widget and Stripe's Payment Element need their own answer shapes and pages
    // before a store can pay through them.
    if (widget.kind !== 'widget') throw new Error(`POST /payment cannot answer a ${widget.kind} widget yet`);
    return {
      status: 'widget',
      order_id: order.id,
      payment_id: paymentId,
      charge: answerOf(order, charge),
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
    const provider = providers.forMethod('card');
    const opened = await openPayment(order, 'CARD', await chargeOn(order, 'card'), provider, body.token);
    const paymentId = opened.id;
    const { charge } = opened;
    const language = await customerLanguage(sql, opened, order.userId);
    const result = await refusedAttempt(paymentId, () =>
      provider.createPayment({
        method: 'card',
        language,
        orderId: order.id,
        amountMinor: charge.chargeMinor,
        currency: charge.currency,
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
    const base = { order_id: order.id, payment_id: paymentId, charge: answerOf(order, charge), card: result.card };
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
    const provider = providers.forMethod(scheme);
    const until = payableUntil(order);
    const opened = await openPayment(order, 'QR', await chargeOn(order, scheme), provider);
    const paymentId = opened.id;
    const { charge } = opened;
    const language = await customerLanguage(sql, opened, order.userId);
    const qr = await refusedAttempt(paymentId, () =>
      provider.createPayment({
        method: 'qr',
        language,
        scheme,
        orderId: order.id,
        amountMinor: charge.chargeMinor,
        currency: charge.currency,
        description: description(order.id, language),
        returnUrl: returnUrl(order.id),
        idempotencyKey: paymentId,
        ...until,
        ...(payer ? { payer } : {}),
      }),
    );
    await recordProviderPayment(paymentId, qr.providerPaymentId);
    return { paymentId, qr, charge: answerOf(order, charge) };
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
    /** The methods the checkout offers: those routed to a configured provider. */
    offeredMethods: (): readonly RoutedMethod[] => providers.offeredMethods,

    /** POST /payment: the widget's request, or a charge of the card through the provider's card API. */
    async pay(userId: string, body: PaymentBody, browser: BrowserContext): Promise<PaymentResponse> {
      const { card_number, month, year, cvc } = body;
      const widget = card_number === undefined || month === undefined || year === undefined || cvc === undefined;
      // A method not offered is refused before anything is made (a top-up's order included).
      providers.forMethod(widget ? 'widget' : 'card');
      const order = await orderToPay(userId, body);
      if (card_number === undefined || month === undefined || year === undefined || cvc === undefined) {
        return widgetPayment(order, body.token);
      }
      return cardPayment(order, { ...body, card_number, month, year, cvc }, browser);
    },

    /** POST /payment-sbp: a QR code whose payload is the provider's pay link (SBP). */
    async payBySbp(userId: string, body: SbpPaymentBody): Promise<SbpPaymentResponse> {
      providers.forMethod('sbp');
      const order = await orderToPay(userId, body);
      const { paymentId, qr, charge } = await qrPayment(order, 'sbp');
      return {
        order_id: order.id,
        payment_id: paymentId,
        charge,
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
      const { paymentId, qr, charge } = await qrPayment(order, order.currency === 'BRL' ? 'pix' : 'sbp', payer);
      return {
        order_id: order.id,
        payment_id: paymentId,
        charge,
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
      providers.forMethod('upi');
      const order = await orderToPay(userId, body);
      // UPI is charged in INR: the page names that, or the order's own currency it was priced in.
      const upiCurrency = chargeCurrencyOf('upi', charges);
      if (body.currency !== upiCurrency && body.currency !== order.currency) {
        throw new ValidationError(
          { currency: [ErrorKeys.currencyMismatch] },
          `UPI is charged in ${upiCurrency}: send ${upiCurrency} (or the order’s ${order.currency}).`,
        );
      }
      const provider = providers.forMethod('upi');
      const until = payableUntil(order);
      const opened = await openPayment(order, 'UPI', await chargeOn(order, 'upi'), provider);
      const paymentId = opened.id;
      const { charge } = opened;
      const language = await customerLanguage(sql, opened, userId);
      const upi = await refusedAttempt(paymentId, () =>
        provider.createPayment({
          method: 'upi',
          language,
          orderId: order.id,
          amountMinor: charge.chargeMinor,
          currency: charge.currency,
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
      return {
        order_id: order.id,
        payment_id: paymentId,
        charge: answerOf(order, charge),
        redirect_url: upi.redirectUrl,
        intent: upi.intent,
      };
    },

    /** POST /payment/initialize: the signed request the browser posts to the provider's hosted page. */
    async initializeHostedPage(
      userId: string,
      body: InitializePaymentBody,
      browser: BrowserContext,
    ): Promise<HostedPageResponse> {
      const provider = providers.forMethod('hosted_page');
      const order = await orderToPay(userId, { orderId: body.orderId });
      const opened = await openPayment(
        order,
        'HOSTED_PAGE',
        await chargeOn(order, 'hosted_page'),
        provider,
        body.token,
      );
      const paymentId = opened.id;
      const { charge } = opened;
      const language = await customerLanguage(sql, opened, userId);
      const form = await provider.createPayment({
        method: 'hosted_page',
        language,
        orderId: order.id,
        amountMinor: charge.chargeMinor,
        currency: charge.currency,
        description: description(order.id, language),
        customerIp: browser.ip,
        returnUrl: returnUrl(order.id),
        idempotencyKey: paymentId,
      });
      // As for the widget: the answer's schema carries a form to post, not a redirect (Stripe Checkout).
      if (form.kind !== 'form_post') throw new Error(`the hosted page answer cannot carry a ${form.kind} yet`);
      return {
        order_id: order.id,
        payment_id: paymentId,
        charge: answerOf(order, charge),
        method: 'POST',
        action: form.action,
        fields: form.fields,
      };
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
