/**
 * Test support only: a local stand-in for the parts of Payselection's gateway API the adapter uses
 * (payments/requests/single, payments/refund, transactions/{id}/extended, orders/{id}/extended),
 * checking X-SITE-ID, X-REQUEST-ID and X-REQUEST-SIGNATURE as Payselection does and answering in
 * its shapes, with a back office that acts as the customer (3-D Secure, SBP) and keeps the
 * webhooks Payselection would send, signed as it signs them.
 *
 * The test cards are the fake's own: Payselection's public sources list none that could be read
 * here. Chargebacks are not modelled: Payselection's webhooks have no chargeback event.
 */
import { createHash, randomInt } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { decimalStringToMinor, minorToDecimalString } from '../amounts.ts';
import type { PayselectionWidgetRequest } from '../provider.ts';
import type { CallbackDelivery } from '../provider-contract/harness.ts';
import { payselectionRequestSignature, payselectionWebhookSignature } from './payselection-signature.ts';

/** The fake's cards (Luhn-valid): what each does when paid with. */
export const PAYSELECTION_FAKE_CARDS = {
  success: '4111111111111111',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expired: '4000000000000069',
  threeDs1: '4000000000003063',
  threeDs2: '4000000000003220',
} as const;

const DECLINES: Record<string, { code: string; text: string }> = {
  [PAYSELECTION_FAKE_CARDS.declined]: { code: '05', text: 'Do not honor' },
  [PAYSELECTION_FAKE_CARDS.insufficientFunds]: { code: '51', text: 'Insufficient funds' },
  [PAYSELECTION_FAKE_CARDS.expired]: { code: '54', text: 'Expired card' },
};

type State = 'success' | 'declined' | 'wait_for_3ds' | 'redirect' | 'pending';

interface Transaction {
  id: string;
  orderId: string;
  amountMinor: number;
  remainingMinor: number;
  currency: string;
  method: 'Card' | 'QR';
  state: State;
  webhookUrl: string;
  cardMasked?: string;
  brand?: string;
  error?: { code: string; text: string };
  threeDs?: { kind: 1 | 2; data: Record<string, string> };
  qrCodeString?: string;
  dateTime: string;
}

/** The request fields the fake reads, unchecked until it checks them. */
type WireBody = Record<string, unknown> & {
  ExtraData?: { WebhookUrl?: unknown };
  PaymentDetails?: { CardNumber?: unknown; ExpMonth?: unknown; ExpYear?: unknown; CVC?: unknown };
  CustomerInfo?: { IP?: unknown };
};

export interface PayselectionFakeOptions {
  siteId: string;
  secretKey: string;
}

export interface RecordedRefund {
  requestId: string;
  body: Record<string, unknown>;
}

export interface PayselectionFake {
  /** The gateway's base URL on loopback. */
  readonly url: string;
  readonly app: FastifyInstance;
  /** Requests refused for a bad or missing signature so far. */
  readonly refusedSignatures: number;
  /** The refund requests accepted, with their receipts, oldest first. */
  readonly refunds: RecordedRefund[];
  /** The next API request is answered with this status and a Payselection error body. */
  failNext(status: number): void;
  /** The next API request is answered after this long (for timeouts). */
  delayNext(ms: number): void;
  /** The customer submits the Pay Widget with a card: the widget's request as the page passed it. */
  submitWidget(request: PayselectionWidgetRequest, cardNumber: string): string;
  /** The customer answers the 3-D Secure check of a transaction waiting for it. */
  answer3ds(transactionId: string, pass: boolean): void;
  /** The customer pays (or refuses to pay) the SBP QR. */
  paySbp(transactionId: string, pay: boolean): void;
  /** The webhooks sent about a transaction (its refunds included), oldest first. */
  webhooks(transactionId: string): CallbackDelivery[];
  close(): Promise<void>;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

/** Payselection's DateTime: "16.09.2019 16.52.41". */
function dateTime(date: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(date.getUTCDate())}.${two(date.getUTCMonth() + 1)}.${date.getUTCFullYear()} ${two(date.getUTCHours())}.${two(date.getUTCMinutes())}.${two(date.getUTCSeconds())}`;
}

export async function startPayselectionFake(options: PayselectionFakeOptions): Promise<PayselectionFake> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const transactions = new Map<string, Transaction>();
  const sent = new Map<string, CallbackDelivery[]>();
  const answered = new Map<string, { bodyHash: string; status: number; answer: unknown }>();
  const refunds: RecordedRefund[] = [];
  let refusedSignatures = 0;
  let failStatus: number | null = null;
  let delayMs = 0;
  let sequence = 0;
  let publicUrl = '';

  const nextId = () => `PS${String(++sequence).padStart(14, '0')}`;

  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  function send(transaction: Transaction, event: string, extra: Record<string, unknown> = {}) {
    const body = JSON.stringify({
      Event: event,
      TransactionId: transaction.id,
      OrderId: transaction.orderId,
      Amount: minorToDecimalString(transaction.amountMinor),
      Currency: transaction.currency,
      DateTime: dateTime(new Date()),
      IsTest: 1,
      Service_Id: options.siteId,
      PaymentMethod: transaction.method,
      ...(transaction.cardMasked ? { CardMasked: transaction.cardMasked, Brand: transaction.brand } : {}),
      ...(transaction.qrCodeString ? { QrCodeString: encodeURIComponent(transaction.qrCodeString) } : {}),
      ...extra,
    });
    const signature = payselectionWebhookSignature(
      { notificationUrl: transaction.webhookUrl, siteId: options.siteId, body },
      options.secretKey,
    );
    const list = sent.get(transaction.id) ?? [];
    list.push({
      rawBody: body,
      headers: { 'content-type': 'application/json', 'x-site-id': options.siteId, 'x-webhook-signature': signature },
    });
    sent.set(transaction.id, list);
  }

  function settle(transaction: Transaction, decline?: { code: string; text: string }) {
    if (decline) {
      transaction.state = 'declined';
      transaction.error = decline;
      send(transaction, 'Fail', { ErrorCode: decline.code, ErrorMessage: decline.text });
    } else {
      transaction.state = 'success';
      send(transaction, 'Payment');
    }
  }

  function startCard(transaction: Transaction, cardNumber: string) {
    transaction.cardMasked = `${cardNumber.slice(0, 6)}******${cardNumber.slice(-4)}`;
    transaction.brand = cardNumber.startsWith('4') ? 'Visa' : 'MasterCard';
    if (cardNumber === PAYSELECTION_FAKE_CARDS.threeDs1) {
      transaction.state = 'wait_for_3ds';
      transaction.threeDs = {
        kind: 1,
        data: { AcsUrl: `${publicUrl}/acs`, PaReq: `pareq-${transaction.id}`, MD: `md-${transaction.id}` },
      };
      send(transaction, '3DS', transaction.threeDs.data);
    } else if (cardNumber === PAYSELECTION_FAKE_CARDS.threeDs2) {
      transaction.state = 'redirect';
      transaction.threeDs = {
        kind: 2,
        data: {
          RedirectUrl: `${publicUrl}/3ds2?TransactionId=${transaction.id}&creq=creq-${transaction.id}`,
          RedirectMethod: 'POST',
        },
      };
      send(transaction, 'Redirect3DS', transaction.threeDs.data);
    } else {
      settle(transaction, DECLINES[cardNumber]);
    }
  }

  function transactionWire(transaction: Transaction) {
    return {
      TransactionState: transaction.state,
      TransactionId: transaction.id,
      OrderId: transaction.orderId,
      StateDetails: {
        Amount: minorToDecimalString(transaction.amountMinor),
        Currency: transaction.currency,
        RemainingAmount: minorToDecimalString(transaction.remainingMinor),
        DateTime: transaction.dateTime,
        PaymentMethod: transaction.method,
        ...(transaction.cardMasked ? { CardMasked: transaction.cardMasked, Brand: transaction.brand } : {}),
        ...(transaction.error ? { ErrorCode: transaction.error.code, Description: transaction.error.text } : {}),
        ...(transaction.threeDs && (transaction.state === 'wait_for_3ds' || transaction.state === 'redirect')
          ? transaction.threeDs.data
          : {}),
        ...(transaction.qrCodeString ? { QrCodeString: transaction.qrCodeString } : {}),
      },
    };
  }

  const refuse = (reply: FastifyReply, status: number, code: string, description: string, details?: object) =>
    reply.code(status).send({ Code: code, Description: description, ...(details ? { AddDetails: details } : {}) });

  /** Payselection's own checks on every request: the site, the request id, the signature. */
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (delayMs > 0) {
      const wait = delayMs;
      delayMs = 0;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    if (failStatus !== null) {
      const status = failStatus;
      failStatus = null;
      return refuse(reply, status, status >= 500 ? 'InternalError' : 'Error', 'failing as asked');
    }
    const siteId = request.headers['x-site-id'];
    const requestId = request.headers['x-request-id'];
    const signature = request.headers['x-request-signature'];
    const body = typeof request.body === 'string' ? request.body : '';
    const path = request.url.split('?')[0] ?? '';
    const expected =
      typeof requestId === 'string'
        ? payselectionRequestSignature(
            { method: request.method, path, siteId: options.siteId, requestId, body },
            options.secretKey,
          )
        : '';
    if (siteId !== options.siteId || typeof requestId !== 'string' || signature !== expected) {
      refusedSignatures++;
      return refuse(reply, 401, 'InvalidSignature', 'the request signature is not valid');
    }
  });

  /** X-REQUEST-ID makes a POST idempotent: the same id and body answer the same again. */
  function idempotent(request: FastifyRequest, reply: FastifyReply, handle: () => { status: number; answer: unknown }) {
    const requestId = String(request.headers['x-request-id']);
    const bodyHash = createHash('sha256').update(String(request.body)).digest('hex');
    const seen = answered.get(requestId);
    if (seen) {
      if (seen.bodyHash !== bodyHash)
        return refuse(reply, 409, 'DuplicateRequest', 'X-REQUEST-ID was used for another request');
      return reply.code(seen.status).send(seen.answer);
    }
    const result = handle();
    if (result.status < 500) answered.set(requestId, { bodyHash, ...result });
    return reply.code(result.status).send(result.answer);
  }

  const parse = (request: FastifyRequest): WireBody | null => {
    try {
      const value = JSON.parse(String(request.body));
      return value && typeof value === 'object' ? value : null;
    } catch {
      return null;
    }
  };

  app.post('/payments/requests/single', async (request, reply) =>
    idempotent(request, reply, () => {
      const body = parse(request);
      const invalid = (field: string) => ({
        status: 400,
        answer: { Code: 'ValidationError', Description: `${field} is not valid`, AddDetails: { [field]: 'invalid' } },
      });
      if (!body) return invalid('Body');
      const amountMinor = typeof body.Amount === 'string' ? decimalStringToMinor(body.Amount) : null;
      if (typeof body.OrderId !== 'string' || body.OrderId.length === 0) return invalid('OrderId');
      if (amountMinor === null || amountMinor === 0) return invalid('Amount');
      if (typeof body.Currency !== 'string' || !/^[A-Z]{3}$/.test(body.Currency)) return invalid('Currency');
      if (typeof body.Description !== 'string' || body.Description.length === 0) return invalid('Description');
      const transaction: Transaction = {
        id: nextId(),
        orderId: body.OrderId,
        amountMinor,
        remainingMinor: amountMinor,
        currency: body.Currency,
        method: 'Card',
        state: 'pending',
        webhookUrl: String(body.ExtraData?.WebhookUrl ?? ''),
        dateTime: dateTime(new Date()),
      };
      if (body.PaymentMethod === 'Card') {
        const details = body.PaymentDetails ?? {};
        const number = String(details.CardNumber ?? '');
        if (!/^\d{12,19}$/.test(number) || !luhn(number)) return invalid('PaymentDetails.CardNumber');
        if (!/^(0[1-9]|1[0-2])$/.test(String(details.ExpMonth))) return invalid('PaymentDetails.ExpMonth');
        if (!/^\d{2}$/.test(String(details.ExpYear))) return invalid('PaymentDetails.ExpYear');
        if (!/^\d{3,4}$/.test(String(details.CVC))) return invalid('PaymentDetails.CVC');
        if (typeof body.CustomerInfo?.IP !== 'string') return invalid('CustomerInfo.IP');
        transactions.set(transaction.id, transaction);
        startCard(transaction, number);
      } else if (body.PaymentMethod === 'QR') {
        transaction.method = 'QR';
        const amount = String(amountMinor);
        transaction.qrCodeString = `https://qr.nspk.ru/AD10${transaction.id}?type=02&bank=100000000017&sum=${amount}&cur=${transaction.currency}&crc=${randomInt(0x10000).toString(16).toUpperCase()}`;
        transactions.set(transaction.id, transaction);
      } else {
        return invalid('PaymentMethod');
      }
      return {
        status: 201,
        answer: {
          TransactionId: transaction.id,
          OrderId: transaction.orderId,
          Amount: minorToDecimalString(transaction.amountMinor),
          Currency: transaction.currency,
          ...(transaction.qrCodeString ? { QrCodeString: transaction.qrCodeString } : {}),
        },
      };
    }),
  );

  app.post('/payments/refund', async (request, reply) =>
    idempotent(request, reply, () => {
      const body = parse(request);
      const transaction = body ? transactions.get(String(body.TransactionId)) : undefined;
      if (!body || !transaction)
        return { status: 404, answer: { Code: 'NotFound', Description: 'no such transaction' } };
      const amountMinor = typeof body.Amount === 'string' ? decimalStringToMinor(body.Amount) : null;
      const invalid = (field: string, text: string) => ({
        status: 400,
        answer: { Code: 'ValidationError', Description: text, AddDetails: { [field]: 'invalid' } },
      });
      if (transaction.state !== 'success')
        return invalid('TransactionId', 'only a successful transaction can be refunded');
      if (amountMinor === null || amountMinor === 0 || amountMinor > transaction.remainingMinor) {
        return invalid('Amount', 'the amount is more than is left to refund');
      }
      if (body.Currency !== transaction.currency) return invalid('Currency', 'not the transaction currency');
      transaction.remainingMinor -= amountMinor;
      refunds.push({ requestId: String(request.headers['x-request-id']), body });
      const refundId = nextId();
      send(transaction, 'Refund', { NewAmount: minorToDecimalString(transaction.remainingMinor) });
      return {
        status: 201,
        answer: {
          TransactionId: refundId,
          Amount: minorToDecimalString(amountMinor),
          Currency: transaction.currency,
          NewAmount: minorToDecimalString(transaction.remainingMinor),
        },
      };
    }),
  );

  app.get<{ Params: { id: string } }>('/transactions/:id/extended', async (request, reply) => {
    const transaction = transactions.get(request.params.id);
    if (!transaction) return refuse(reply, 404, 'NotFound', 'no such transaction');
    return transactionWire(transaction);
  });

  app.get<{ Params: { id: string } }>('/orders/:id/extended', async (request, reply) => {
    const found = [...transactions.values()].filter((transaction) => transaction.orderId === request.params.id);
    if (found.length === 0) return refuse(reply, 404, 'NotFound', 'no such order');
    return found.map(transactionWire);
  });

  publicUrl = await app.listen({ host: '127.0.0.1', port: 0 });

  function waiting(transactionId: string, states: State[]): Transaction {
    const transaction = transactions.get(transactionId);
    if (!transaction || !states.includes(transaction.state)) {
      throw new Error(`transaction ${transactionId} is not waiting for the customer`);
    }
    return transaction;
  }

  return {
    url: publicUrl,
    app,
    get refusedSignatures() {
      return refusedSignatures;
    },
    refunds,
    failNext(status) {
      failStatus = status;
    },
    delayNext(ms) {
      delayMs = ms;
    },
    submitWidget(request, cardNumber) {
      const amountMinor = decimalStringToMinor(request.PaymentRequest.Amount);
      const receiptTotal = Math.round(request.ReceiptData.receipt.total * 100);
      const itemsTotal = request.ReceiptData.receipt.items.reduce((sum, item) => sum + Math.round(item.sum * 100), 0);
      // The widget checks the receipt before it shows its form.
      if (amountMinor === null || receiptTotal !== amountMinor || itemsTotal !== amountMinor) {
        throw new Error('the widget refuses a receipt that does not add up to the amount');
      }
      const transaction: Transaction = {
        id: nextId(),
        orderId: request.PaymentRequest.OrderId,
        amountMinor,
        remainingMinor: amountMinor,
        currency: request.PaymentRequest.Currency,
        method: 'Card',
        state: 'pending',
        webhookUrl: request.PaymentRequest.ExtraData.WebhookUrl,
        dateTime: dateTime(new Date()),
      };
      transactions.set(transaction.id, transaction);
      startCard(transaction, cardNumber);
      return transaction.id;
    },
    answer3ds(transactionId, pass) {
      const transaction = waiting(transactionId, ['wait_for_3ds', 'redirect']);
      settle(transaction, pass ? undefined : { code: '3DS', text: '3-D Secure authentication failed' });
    },
    paySbp(transactionId, pay) {
      const transaction = waiting(transactionId, ['pending']);
      settle(transaction, pay ? undefined : { code: 'PayerRejected', text: 'Rejected by the payer' });
    },
    webhooks(transactionId) {
      return [...(sent.get(transactionId) ?? [])];
    },
    close: () => app.close(),
  };
}
