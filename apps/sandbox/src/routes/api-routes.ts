import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { cardDigits } from '../cards.ts';
import { parseInput, type SandboxContext } from '../context.ts';
import { EXPIRES_AT_MIN_LEAD_MS } from '../options.ts';
import { paymentWire, remainingMinor, type SandboxPayment } from '../payments.ts';
import { pixPayload, qrPngBase64, upiIntent } from '../qr.ts';
import {
  ChaosSchema,
  ChargebackSchema,
  type CreatePaymentBody,
  createPaymentSchema,
  OrderId,
  RefundSchema,
} from '../schemas.ts';

const IDEMPOTENCY_KEYS_MAX = 10_000;
const IdempotencyKey = z.string().min(1).max(255);

interface Answer {
  status: number;
  body: unknown;
}

/**
 * The server API the store calls with the merchant's secret key: create a card, QR or UPI payment,
 * read a payment, list an order's payments, refund. A retried POST with the same Idempotency-Key
 * gets the first answer again; the same key with another request is a 409. The `/admin` calls, with
 * the same key, are the tester's: the callbacks' misbehaviour, their deliveries, a chargeback.
 */
export function apiRoutes(app: FastifyInstance, ctx: SandboxContext) {
  const schema = createPaymentSchema(ctx.storeOrigins);

  const requireMerchant = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!ctx.merchantMayCallFrom(request)) {
      return ctx.sendJson(reply, 403, { message: 'The merchant API answers calls from this machine only.' });
    }
    if (!ctx.isMerchant(request)) return ctx.sendJson(reply, 401, { message: 'The API key is missing or wrong.' });
  };

  /** Runs `create` once per key; a concurrent retry waits for the first run's answer. */
  async function once(scope: string, key: string | undefined, fingerprint: string, create: () => Promise<Answer>) {
    if (key === undefined) return create();
    const cacheKey = `${scope}:${key}`;
    const cached = ctx.idempotency.get(cacheKey);
    if (cached) {
      if (cached.fingerprint !== fingerprint) {
        return { status: 409, body: { message: 'This Idempotency-Key was used with a different request.' } };
      }
      return cached.answer;
    }
    const answer = create();
    ctx.idempotency.set(cacheKey, { fingerprint, answer });
    // A run that threw answered nothing: the key is free for the retry.
    answer.catch(() => ctx.idempotency.delete(cacheKey));
    if (ctx.idempotency.size > IDEMPOTENCY_KEYS_MAX) {
      const oldest = ctx.idempotency.keys().next().value;
      if (oldest !== undefined) ctx.idempotency.delete(oldest);
    }
    return answer;
  }

  function idempotencyKey(request: FastifyRequest): { ok: true; key: string | undefined } | { ok: false } {
    const raw = request.headers['idempotency-key'];
    if (raw === undefined) return { ok: true, key: undefined };
    const parsed = IdempotencyKey.safeParse(raw);
    return parsed.success ? { ok: true, key: parsed.data } : { ok: false };
  }

  async function createPayment(body: CreatePaymentBody): Promise<Answer> {
    const limit = body.method === 'card' ? undefined : body.expires_at;
    if (limit && limit.getTime() - ctx.clock().getTime() < EXPIRES_AT_MIN_LEAD_MS) {
      return {
        status: 422,
        body: { message: 'The payment would expire before it could be paid.', errors: { expires_at: ['too_soon'] } },
      };
    }
    const base = {
      orderId: body.order_id,
      amountMinor: body.amount_minor,
      currency: body.currency,
      description: body.description,
      callbackUrl: body.callback_url,
      // The shopper's language for the pages this payment shows (3-D Secure, the QR and UPI pages).
      language: body.language ?? null,
      expiresAt: limit,
    };
    switch (body.method) {
      case 'card': {
        const payment = ctx.book.create({ ...base, method: 'card', channel: 'api', returnUrl: body.return_url });
        const step = ctx.charge(
          payment,
          { digits: body.card.number, expMonth: body.card.exp_month, expYear: body.card.exp_year },
          'api',
        );
        return { status: 201, body: { payment: paymentWire(payment), next_action: cardAction(payment, step.kind) } };
      }
      case 'qr': {
        const payment = ctx.book.create({ ...base, method: 'qr', channel: 'api', returnUrl: body.return_url ?? null });
        const payLink = ctx.url(`/qr/${payment.id}`);
        // A PIX code for Brazil; for SBP the QR carries the pay link, as the NSPK's QR links do.
        const payload =
          body.scheme === 'pix' ? pixPayload(ctx.merchant, payment.amountMinor, payment.id.slice(4, 29)) : payLink;
        payment.qr = { scheme: body.scheme, payload, payLink, image: await qrPngBase64(payload) };
        return {
          status: 201,
          body: {
            payment: paymentWire(payment),
            next_action: {
              type: 'qr',
              image: { media_type: 'image/png', content: payment.qr.image },
              payload,
              pay_link: payLink,
              expires_at: payment.expiresAt.toISOString(),
            },
          },
        };
      }
      case 'upi': {
        const payment = ctx.book.create({ ...base, method: 'upi', channel: 'api', returnUrl: null });
        const intent = upiIntent(
          { vpa: ctx.merchant.upiVpa, name: ctx.merchant.name },
          {
            amountMinor: payment.amountMinor,
            currency: payment.currency,
            note: payment.description,
            reference: payment.id,
          },
        );
        payment.upi = {
          successUrl: body.success_url,
          declineUrl: body.decline_url,
          cancelUrl: body.cancel_url,
          intent,
          image: await qrPngBase64(intent),
        };
        return {
          status: 201,
          body: {
            payment: paymentWire(payment),
            next_action: { type: 'redirect', url: ctx.url(`/upi/${payment.id}`), intent },
          },
        };
      }
    }
  }

  function cardAction(payment: SandboxPayment, step: 'decided' | 'challenge') {
    if (step !== 'challenge' || !payment.threeDs) return null;
    if (payment.threeDs.flow === 'classic') {
      return {
        type: '3ds',
        acs_url: ctx.url('/3ds/acs'),
        pa_req: ctx.paReq(payment),
        md: payment.id,
        term_url: ctx.url('/3ds/term'),
      };
    }
    return {
      type: '3ds_redirect',
      method: 'GET',
      url: ctx.url('/3ds/challenge'),
      params: { payment_id: payment.id, token: payment.threeDs.token },
    };
  }

  app.post('/api/v1/payments', { onRequest: requireMerchant }, async (request, reply) => {
    const key = idempotencyKey(request);
    if (!key.ok) return ctx.sendInvalid(reply, { 'idempotency-key': ['invalid'] });
    const parsed = parseInput(schema, request.body);
    if (!parsed.ok) return ctx.sendInvalid(reply, parsed.errors);
    const answer = await once('create', key.key, fingerprint(parsed.data), () => createPayment(parsed.data));
    return ctx.sendJson(reply, answer.status, answer.body);
  });

  app.get('/api/v1/payments', { onRequest: requireMerchant }, async (request, reply) => {
    const parsed = parseInput(z.object({ order_id: OrderId }), request.query);
    if (!parsed.ok) return ctx.sendInvalid(reply, parsed.errors);
    return ctx.sendJson(reply, 200, { payments: ctx.book.listByOrder(parsed.data.order_id).map(paymentWire) });
  });

  app.get<{ Params: { id: string } }>(
    '/api/v1/payments/:id',
    { onRequest: requireMerchant },
    async (request, reply) => {
      const payment = ctx.book.get(request.params.id);
      if (!payment) return ctx.sendJson(reply, 404, { message: 'No such payment.' });
      return ctx.sendJson(reply, 200, paymentWire(payment));
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/v1/payments/:id/refunds',
    { onRequest: requireMerchant },
    async (request, reply) => {
      const key = idempotencyKey(request);
      if (!key.ok || key.key === undefined) return ctx.sendInvalid(reply, { 'idempotency-key': ['required'] });
      const parsed = parseInput(RefundSchema, request.body);
      if (!parsed.ok) return ctx.sendInvalid(reply, parsed.errors);
      const payment = ctx.book.get(request.params.id);
      if (!payment) return ctx.sendJson(reply, 404, { message: 'No such payment.' });
      const amount = parsed.data.amount_minor;
      const answer = await once(`refund:${payment.id}`, key.key, String(amount), async () => {
        if (payment.status !== 'succeeded') {
          return { status: 409, body: { message: `A ${payment.status} payment cannot be refunded.` } };
        }
        if (amount > remainingMinor(payment)) {
          return {
            status: 422,
            body: {
              message: 'The refund is more than what is left to refund.',
              errors: { amount_minor: ['exceeds_refundable'] },
            },
          };
        }
        const refund = ctx.book.refund(payment, amount);
        return {
          status: 201,
          body: {
            refund: {
              id: refund.id,
              payment_id: refund.paymentId,
              amount_minor: refund.amountMinor,
              status: refund.status,
              created_at: refund.createdAt.toISOString(),
            },
          },
        };
      });
      return ctx.sendJson(reply, answer.status, answer.body);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/admin/payments/:id/chargebacks',
    { onRequest: requireMerchant },
    async (request, reply) => {
      const key = idempotencyKey(request);
      if (!key.ok) return ctx.sendInvalid(reply, { 'idempotency-key': ['invalid'] });
      const parsed = parseInput(ChargebackSchema, request.body);
      if (!parsed.ok) return ctx.sendInvalid(reply, parsed.errors);
      const payment = ctx.book.get(request.params.id);
      if (!payment) return ctx.sendJson(reply, 404, { message: 'No such payment.' });
      const amount = parsed.data.amount_minor;
      const answer = await once(`chargeback:${payment.id}`, key.key, String(amount), async () => {
        if (payment.status !== 'succeeded') {
          return { status: 409, body: { message: `A ${payment.status} payment cannot be charged back.` } };
        }
        if (amount > remainingMinor(payment)) {
          return {
            status: 422,
            body: {
              message: 'The chargeback is more than what is left of the payment.',
              errors: { amount_minor: ['exceeds_remaining'] },
            },
          };
        }
        const chargeback = ctx.book.chargeBack(payment, amount);
        return {
          status: 201,
          body: {
            chargeback: {
              id: chargeback.id,
              payment_id: chargeback.paymentId,
              amount_minor: chargeback.amountMinor,
              created_at: chargeback.createdAt.toISOString(),
            },
          },
        };
      });
      return ctx.sendJson(reply, answer.status, answer.body);
    },
  );

  app.get('/admin/chaos', { onRequest: requireMerchant }, async (_request, reply) =>
    ctx.sendJson(reply, 200, chaosWire(ctx)),
  );

  app.put('/admin/chaos', { onRequest: requireMerchant }, async (request, reply) => {
    const parsed = parseInput(ChaosSchema, request.body);
    if (!parsed.ok) return ctx.sendInvalid(reply, parsed.errors);
    ctx.dispatcher.setChaos({
      duplicate: parsed.data.duplicate,
      outOfOrder: parsed.data.out_of_order,
      delayMs: parsed.data.delay_ms,
    });
    return ctx.sendJson(reply, 200, chaosWire(ctx));
  });

  app.get('/admin/deliveries', { onRequest: requireMerchant }, async (_request, reply) =>
    ctx.sendJson(reply, 200, {
      deliveries: ctx.dispatcher.deliveries.map((record) => ({
        event_id: record.eventId,
        type: record.type,
        url: record.url,
        copy: record.copy,
        attempts: record.attempts,
        state: record.state,
        last_status: record.lastStatus,
        last_error: record.lastError,
      })),
    }),
  );
}

function chaosWire(ctx: SandboxContext) {
  const chaos = ctx.dispatcher.chaosSettings;
  return { duplicate: chaos.duplicate, out_of_order: chaos.outOfOrder, delay_ms: chaos.delayMs };
}

/**
 * What makes two create requests "the same" for an Idempotency-Key. The card enters only as its last
 * four digits and expiry: a hash of a card number is no place to keep one.
 */
function fingerprint(body: CreatePaymentBody): string {
  const view =
    body.method === 'card'
      ? {
          ...body,
          card: { last4: cardDigits(body.card.number).slice(-4), month: body.card.exp_month, year: body.card.exp_year },
        }
      : body;
  return createHash('sha256').update(JSON.stringify(view)).digest('hex');
}
