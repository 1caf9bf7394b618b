/**
 * Test support, never on the runtime path: a local stand-in for the part of Stripe's HTTP API the
 * adapter uses (PaymentIntents, their search, Checkout Sessions, Refunds, Disputes), with Stripe's
 * form-encoded bodies, bearer key check, Idempotency-Key replay and error bodies, and a back office
 * that acts as the customer (test cards, 3-D Secure, Pix) and signs the webhook events Stripe would
 * send as Stripe signs them (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "${t}.${body}")`).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Obj = Record<string, unknown>;

export const TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  threeDs: '4000002760003184',
} as const;

interface Intent extends Obj {
  id: string;
  amount: number;
  currency: string;
  status: string;
  metadata: Record<string, string>;
  latest_charge: string | null;
  last_payment_error: Obj | null;
  created: number;
}

export interface StripeFakeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Stripe's clock, in seconds. */
  now?: () => number;
}

/** Bracket-notation form fields (`metadata[order_id]`, `expand[0]`) as nested objects and arrays. */
export function parseForm(body: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Obj = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        if (part === '') (node as unknown as unknown[]).push(value);
        else node[part] = value;
        return;
      }
      const next = path[index + 1];
      node[part] ??= next === '' || /^\d+$/.test(next ?? '') ? [] : {};
      node = node[part] as Obj;
    });
  }
  return root;
}

export function signStripePayload(body: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export async function startStripeFake(options: StripeFakeOptions) {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const intents = new Map<string, Intent>();
  const charges = new Map<string, Obj>();
  const refunds: Obj[] = [];
  const disputes: Obj[] = [];
  const sessions = new Map<string, Obj>();
  const idempotent = new Map<string, { body: string; status: number; answer: string }>();
  const events: Array<{ paymentIntent: string; id: string; body: string; created: number }> = [];
  const faults: Array<{ status?: number; hangMs?: number }> = [];
  let requests = 0;
  const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

  function emit(type: string, object: Obj, paymentIntent: string) {
    const event = {
      id: id('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: now(),
      livemode: false,
      type,
      data: { object: structuredClone(object) },
    };
    events.push({ paymentIntent, id: event.id, body: JSON.stringify(event), created: event.created });
  }

  function chargeOf(intent: Intent, card: string | null): Obj {
    const charge: Obj = {
      id: id('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_refunded: 0,
      currency: intent.currency,
      created: now(),
      disputed: false,
      metadata: { ...intent.metadata },
      payment_intent: intent.id,
      refunded: false,
      status: 'succeeded',
      payment_method_details: card ? { type: 'card', card: { brand: 'visa', last4: card.slice(-4) } } : { type: 'pix' },
    };
    charges.set(charge.id as string, charge);
    intent.latest_charge = charge.id as string;
    return charge;
  }

  function view(intent: Intent, expand: string[]): Obj {
    const out: Obj = { ...intent };
    if (expand.some((e) => e.endsWith('latest_charge')) && intent.latest_charge) {
      out.latest_charge = charges.get(intent.latest_charge);
    }
    return out;
  }

  function succeed(intent: Intent, card: string | null) {
    intent.status = 'succeeded';
    intent.next_action = null;
    intent.last_payment_error = null;
    chargeOf(intent, card);
    emit('payment_intent.succeeded', intent, intent.id);
  }

  function fail(intent: Intent, code: string, declineCode?: string) {
    intent.status = 'requires_payment_method';
    intent.next_action = null;
    intent.last_payment_error = {
      type: 'card_error',
      code,
      ...(declineCode ? { decline_code: declineCode } : {}),
      message: 'Your card was declined.',
    };
    emit('payment_intent.payment_failed', intent, intent.id);
  }

  const error = (status: number, type: string, message: string, extra: Obj = {}) => ({
    status,
    body: { error: { type, message, ...extra } },
  });

  function route(method: string, path: string, form: Obj, query: URLSearchParams): { status: number; body: unknown } {
    const expand = [...query.getAll('expand[]'), ...query.getAll('expand[0]'), ...((form.expand as string[]) ?? [])];
    if (method === 'POST' && path === '/v1/payment_intents') {
      const amount = Number(form.amount);
      if (!Number.isInteger(amount) || amount < 1) {
        return error(400, 'invalid_request_error', 'Invalid integer', {
          code: 'parameter_invalid_integer',
          param: 'amount',
        });
      }
      const types = (form.allowed_payment_method_types as string[] | undefined) ?? ['card'];
      const intent: Intent = {
        id: id('pi'),
        object: 'payment_intent',
        amount,
        currency: String(form.currency),
        description: form.description ?? null,
        status: 'requires_payment_method',
        metadata: (form.metadata as Record<string, string>) ?? {},
        payment_method_types: types,
        latest_charge: null,
        last_payment_error: null,
        canceled_at: null,
        cancellation_reason: null,
        next_action: null,
        created: now(),
      };
      intent.client_secret = `${intent.id}_secret_${randomBytes(8).toString('hex')}`;
      intents.set(intent.id, intent);
      if (form.confirm === 'true' && (form.payment_method_data as Obj | undefined)?.type === 'pix') {
        const seconds = Number((form.payment_method_options as Obj | undefined)?.pix ?? 0) || 86_400;
        intent.status = 'requires_action';
        intent.next_action = {
          type: 'pix_display_qr_code',
          pix_display_qr_code: {
            data: `00020101021226850014br.gov.bcb.pix2563pix.example/qr/v2/${intent.id}5204000053039865802BR6304ABCD`,
            expires_at: now() + seconds,
            hosted_instructions_url: `https://payments.example/pix/${intent.id}`,
            image_url_png: `https://payments.example/pix/${intent.id}.png`,
          },
        };
        emit('payment_intent.requires_action', intent, intent.id);
      }
      return { status: 200, body: view(intent, expand) };
    }
    if (method === 'GET' && path === '/v1/payment_intents/search') {
      const match = /^metadata\['order_id'\]:'(.*)'$/.exec(query.get('query') ?? '');
      if (!match)
        return error(400, 'invalid_request_error', 'Bad query', { code: 'parameter_invalid', param: 'query' });
      // Newest first, as Stripe lists: the last made first among those of the same second.
      const found = [...intents.values()]
        .reverse()
        .filter((intent) => intent.metadata.order_id === match[1])
        .sort((a, b) => b.created - a.created)
        .map((intent) => view(intent, expand));
      return {
        status: 200,
        body: { object: 'search_result', data: found, has_more: false, next_page: null, url: path },
      };
    }
    const intentPath = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && intentPath) {
      const intent = intents.get(intentPath[1] ?? '');
      if (!intent) {
        return error(404, 'invalid_request_error', 'No such payment_intent', { code: 'resource_missing', param: 'id' });
      }
      return { status: 200, body: view(intent, expand) };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const session: Obj = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode: form.mode,
        line_items: form.line_items,
        success_url: form.success_url,
        cancel_url: form.cancel_url,
        metadata: form.metadata ?? {},
        payment_intent_data: form.payment_intent_data ?? {},
        payment_intent: null,
        status: 'open',
      };
      session.url = `https://checkout.stripe.com/c/pay/${session.id}`;
      sessions.set(session.id as string, session);
      return { status: 200, body: session };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = intents.get(String(form.payment_intent));
      if (!intent) {
        return error(404, 'invalid_request_error', 'No such payment_intent', {
          code: 'resource_missing',
          param: 'payment_intent',
        });
      }
      const charge = intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
      if (!charge || intent.status !== 'succeeded') {
        return error(400, 'invalid_request_error', 'This PaymentIntent has no successful charge', {
          code: 'charge_not_refundable',
        });
      }
      const left = (charge.amount as number) - (charge.amount_refunded as number);
      const amount = form.amount === undefined ? left : Number(form.amount);
      if (amount > left || amount < 1) {
        return error(400, 'invalid_request_error', 'Refund amount is greater than unrefunded amount', {
          code: 'amount_too_large',
          param: 'amount',
        });
      }
      const refund = {
        id: id('re'),
        object: 'refund',
        amount,
        currency: intent.currency,
        charge: charge.id,
        payment_intent: intent.id,
        status: 'succeeded',
        created: now(),
      };
      refunds.push(refund);
      charge.amount_refunded = (charge.amount_refunded as number) + amount;
      charge.refunded = charge.amount_refunded === charge.amount;
      emit('charge.refunded', charge, intent.id);
      emit('refund.updated', refund, intent.id);
      return { status: 200, body: refund };
    }
    if (method === 'GET' && path === '/v1/refunds') {
      const data = refunds.filter((refund) => refund.payment_intent === query.get('payment_intent'));
      return { status: 200, body: { object: 'list', data, has_more: false, url: path } };
    }
    if (method === 'GET' && path === '/v1/disputes') {
      const data = disputes.filter((dispute) => dispute.payment_intent === query.get('payment_intent'));
      return { status: 200, body: { object: 'list', data, has_more: false, url: path } };
    }
    return error(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`);
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    requests += 1;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const send = (status: number, answer: string) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
      response.end(answer);
    };
    const fault = faults.shift();
    if (fault?.hangMs) await new Promise((resolve) => setTimeout(resolve, fault.hangMs));
    if (fault?.status) {
      return send(fault.status, JSON.stringify({ error: { type: 'api_error', message: 'An error occurred.' } }));
    }
    if (request.headers.authorization !== `Bearer ${options.secretKey}`) {
      return send(
        401,
        JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }),
      );
    }
    const url = new URL(request.url ?? '/', 'http://fake');
    const key = request.headers['idempotency-key'];
    const replayKey = typeof key === 'string' && request.method === 'POST' ? `${url.pathname} ${key}` : null;
    if (replayKey) {
      const seen = idempotent.get(replayKey);
      if (seen && seen.body !== body) {
        return send(
          400,
          JSON.stringify({
            error: {
              type: 'idempotency_error',
              message:
                'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            },
          }),
        );
      }
      if (seen) return send(seen.status, seen.answer);
    }
    const result = route(request.method ?? 'GET', url.pathname, parseForm(body), url.searchParams);
    const answer = JSON.stringify(result.body);
    if (replayKey && result.status < 500) idempotent.set(replayKey, { body, status: result.status, answer });
    send(result.status, answer);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((cause) => {
      response.writeHead(500);
      response.end(JSON.stringify({ error: { type: 'api_error', message: String(cause) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function intentOf(paymentIntent: string): Intent {
    const intent = intents.get(paymentIntent);
    if (!intent) throw new Error(`the fake has no ${paymentIntent}`);
    return intent;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    /** How many API requests reached the fake. */
    requestCount: () => requests,
    intents,
    /** The next requests answer these, in order: a status (500, 429) or an answer held back. */
    inject(...next: Array<{ status?: number; hangMs?: number }>) {
      faults.push(...next);
    },
    /** The customer confirms a card PaymentIntent with a test card (Payment Element or Checkout). */
    confirmCard(paymentIntent: string, card: string) {
      const intent = intentOf(paymentIntent);
      intent.status = 'processing';
      emit('payment_intent.processing', intent, intent.id);
      if (card === TEST_CARDS.succeeds) return succeed(intent, card);
      if (card === TEST_CARDS.declined) return fail(intent, 'card_declined', 'generic_decline');
      if (card === TEST_CARDS.insufficientFunds) return fail(intent, 'card_declined', 'insufficient_funds');
      if (card === TEST_CARDS.threeDs) {
        intent.status = 'requires_action';
        intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
        intent.pending_card = card;
        emit('payment_intent.requires_action', intent, intent.id);
        return;
      }
      return fail(intent, 'card_declined', 'generic_decline');
    },
    /** The customer answers the 3-D Secure challenge. */
    answerThreeDs(paymentIntent: string, pass: boolean) {
      const intent = intentOf(paymentIntent);
      if (pass) return succeed(intent, String(intent.pending_card));
      return fail(intent, 'payment_intent_authentication_failure');
    },
    /** The customer pays through a Checkout Session: Checkout makes its PaymentIntent then. */
    completeCheckout(sessionId: string, card: string): string {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`the fake has no ${sessionId}`);
      const line = (session.line_items as Obj[])[0] as Obj;
      const price = line.price_data as Obj;
      const intent: Intent = {
        id: id('pi'),
        object: 'payment_intent',
        amount: Number(price.unit_amount) * Number(line.quantity),
        currency: String(price.currency),
        status: 'requires_payment_method',
        metadata: ((session.payment_intent_data as Obj).metadata as Record<string, string>) ?? {},
        payment_method_types: ['card'],
        latest_charge: null,
        last_payment_error: null,
        canceled_at: null,
        cancellation_reason: null,
        next_action: null,
        created: now(),
      };
      intents.set(intent.id, intent);
      session.payment_intent = intent.id;
      this.confirmCard(intent.id, card);
      if (intent.status === 'succeeded') {
        session.status = 'complete';
        emit('checkout.session.completed', session, intent.id);
      }
      return intent.id;
    },
    /** The payer's bank pays the Pix QR code, or it expires unpaid. */
    settlePix(paymentIntent: string, paid: boolean) {
      const intent = intentOf(paymentIntent);
      if (paid) return succeed(intent, null);
      intent.status = 'canceled';
      intent.cancellation_reason = 'automatic';
      intent.canceled_at = now();
      intent.next_action = null;
      emit('payment_intent.canceled', intent, intent.id);
    },
    /** The cardholder disputes the charge; the dispute closes as given. */
    dispute(paymentIntent: string, amount: number, status: 'lost' | 'won') {
      const intent = intentOf(paymentIntent);
      const charge = charges.get(intent.latest_charge ?? '');
      if (!charge) throw new Error('no charge to dispute');
      charge.disputed = true;
      const dispute = {
        id: id('dp'),
        object: 'dispute',
        amount,
        currency: intent.currency,
        charge: charge.id,
        payment_intent: intent.id,
        status,
        created: now(),
        metadata: {},
      };
      disputes.push(dispute);
      // Opened (the funds withdrawn), then closed as given.
      emit('charge.dispute.created', { ...dispute, status: 'needs_response' }, intent.id);
      emit('charge.dispute.closed', dispute, intent.id);
    },
    /**
     * A refund that succeeded fails afterwards (the card's bank returned it): Stripe puts the money
     * back on the charge and sends `refund.updated` (and `refund.failed`) with the refund's status.
     */
    failRefund(refundId: string) {
      const refund = refunds.find((candidate) => candidate.id === refundId);
      if (!refund) throw new Error(`the fake has no ${refundId}`);
      const charge = charges.get(String(refund.charge));
      if (!charge) throw new Error('no charge of the refund');
      refund.status = 'failed';
      refund.failure_reason = 'expired_or_canceled_card';
      charge.amount_refunded = (charge.amount_refunded as number) - (refund.amount as number);
      charge.refunded = false;
      emit('refund.updated', refund, String(refund.payment_intent));
      emit('refund.failed', refund, String(refund.payment_intent));
    },
    /** The webhook events sent about a payment, oldest first, signed with the webhook secret now. */
    callbacks(paymentIntent: string, signedAt = now()) {
      return events
        .filter((event) => event.paymentIntent === paymentIntent)
        .map((event) => ({
          rawBody: event.body,
          headers: { 'stripe-signature': signStripePayload(event.body, options.webhookSecret, signedAt) },
        }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type StripeFake = Awaited<ReturnType<typeof startStripeFake>>;
