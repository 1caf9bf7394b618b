import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIPv4 } from 'node:net';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { cardBrand, isExpired, scenarioFor } from './cards.ts';
import { JSON_HEADERS, newNonce, page, pageHeaders, type SafeHtml } from './html.ts';
import { type Language, type Locale, localeOf, negotiateLanguage } from './i18n.ts';
import type { Currency } from './money.ts';
import { DEFAULT_MERCHANT, DEFAULT_PAYMENT_TTL_MS, type MerchantProfile, type SandboxOptions } from './options.ts';
import { newId, PaymentBook, type SandboxPayment } from './payments.ts';
import { normaliseOrigins } from './redirects.ts';
import { CallbackDispatcher, DEFAULT_DELIVERY, NO_CHAOS } from './webhooks.ts';

export interface WidgetSession {
  id: string;
  /** The page that opened the widget: the only origin its frame reports to. */
  origin: string;
  orderId: string;
  amountMinor: number;
  currency: Currency;
  description: string;
  email: string;
  /** The widget request's language (or the opening page's): the frame's pages use it. */
  language: Language | null;
  createdAt: Date;
}

export interface CardInput {
  digits: string;
  expMonth: number;
  expYear: number;
}

/** What a browser that just submitted a card must see next. */
export type ChargeStep = { kind: 'decided' } | { kind: 'challenge'; flow: 'classic' | 'redirect' };

/** A 422's body: field paths to codes ("required", "invalid", "luhn", "foreign_origin"...). */
export type FieldErrors = Record<string, string[]>;

/** Headers a proxy adds. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/** 127.0.0.0/8 and ::1, also as an IPv4-mapped IPv6 address (a dual-stack socket's form). */
function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const ipv4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return isIPv4(ipv4) ? ipv4.startsWith('127.') : address === '::1';
}

export class SandboxContext {
  readonly publicUrl: string;
  readonly storeOrigins: string[];
  readonly merchant: MerchantProfile;
  readonly book: PaymentBook;
  readonly dispatcher: CallbackDispatcher;
  readonly widgetSessions = new Map<string, WidgetSession>();
  /** Hosted-page tokens to the payment each opened: the same Request opens the same payment. */
  readonly hostedTokens = new Map<string, string>();
  /** Idempotency-Key answers; a promise, so a concurrent retry waits for the first run. */
  readonly idempotency = new Map<string, { fingerprint: string; answer: Promise<{ status: number; body: unknown }> }>();
  readonly paymentTtlMs: number;
  readonly clock: () => Date;
  /** Signs PaRes, as an issuer's ACS would; new per instance, known to nobody else. */
  private readonly acsKey = randomBytes(32);
  private readonly apiKey: Buffer;

  constructor(
    readonly options: SandboxOptions,
    logger: FastifyBaseLogger,
  ) {
    this.publicUrl = options.publicUrl.replace(/\/+$/, '');
    this.storeOrigins = normaliseOrigins(options.storeOrigins);
    this.merchant = { ...DEFAULT_MERCHANT, ...options.merchant };
    this.clock = options.clock ?? (() => new Date());
    this.paymentTtlMs = options.paymentTtlMs ?? DEFAULT_PAYMENT_TTL_MS;
    this.apiKey = Buffer.from(options.apiKey, 'utf8');
    this.dispatcher = new CallbackDispatcher({
      secrets: options.webhookSecrets,
      delivery: { ...DEFAULT_DELIVERY, ...options.delivery },
      chaos: { ...NO_CHAOS, ...options.chaos },
      fetch: options.fetch ?? fetch,
      logger,
      clock: this.clock,
    });
    this.book = new PaymentBook((event) => this.dispatcher.send(event), {
      clock: this.clock,
      initTtlMs: this.paymentTtlMs,
    });
  }

  url(path: string): string {
    return `${this.publicUrl}${path}`;
  }

  async close(): Promise<void> {
    this.book.close();
    await this.dispatcher.close();
  }

  /**
   * Whether a merchant's call may come from where this one did: the socket's address as the
   * connection came, never a header a client writes. A local proxy would make every client look
   * local, so a request it forwarded is from the network too.
   */
  merchantMayCallFrom(request: FastifyRequest): boolean {
    if (this.options.merchantFromNetwork) return true;
    const forwarded = FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
    return !forwarded && isLoopback(request.socket.remoteAddress);
  }

  /** The merchant's secret key as a bearer token, compared in constant time. */
  isMerchant(request: FastifyRequest): boolean {
    const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
    if (!match?.[1]) return false;
    const given = Buffer.from(match[1], 'utf8');
    return given.length === this.apiKey.length && timingSafeEqual(given, this.apiKey);
  }

  /**
   * Charges a card against a payment, by the test card's scenario. A challenge leaves the payment
   * pending; everything else decides it. Only brand and last four digits are kept.
   */
  charge(payment: SandboxPayment, card: CardInput, flow: 'api' | 'page'): ChargeStep {
    payment.card = { brand: cardBrand(card.digits), last4: card.digits.slice(-4) };
    if (isExpired(card.expMonth, card.expYear, this.clock())) {
      this.book.transition(payment, 'failed', 'expired_card');
      return { kind: 'decided' };
    }
    const scenario = scenarioFor(card.digits);
    switch (scenario) {
      case 'succeed':
        this.book.transition(payment, 'succeeded');
        return { kind: 'decided' };
      case 'decline':
        this.book.transition(payment, 'failed', 'card_declined');
        return { kind: 'decided' };
      case 'insufficient_funds':
        this.book.transition(payment, 'failed', 'insufficient_funds');
        return { kind: 'decided' };
      case '3ds_challenge':
      case '3ds_then_decline':
      case '3ds_redirect': {
        // The sandbox's own pages always use the GET challenge; the card API answers 3DS or 3DS_REDIRECT.
        const challengeFlow = flow === 'page' || scenario === '3ds_redirect' ? 'redirect' : 'classic';
        payment.threeDs = {
          flow: challengeFlow,
          afterPass: scenario === '3ds_then_decline' ? 'decline' : 'succeed',
          token: randomBytes(16).toString('hex'),
        };
        this.book.transition(payment, 'pending');
        return { kind: 'challenge', flow: challengeFlow };
      }
    }
  }

  /** The challenge's answer decides a pending payment; a second answer changes nothing. */
  completeChallenge(payment: SandboxPayment, passed: boolean): void {
    if (payment.status !== 'pending' || !payment.threeDs) return;
    if (!passed) this.book.transition(payment, 'failed', '3ds_failed');
    else if (payment.threeDs.afterPass === 'decline') this.book.transition(payment, 'failed', 'card_declined');
    else this.book.transition(payment, 'succeeded');
  }

  challengeUrl(payment: SandboxPayment): string {
    const params = new URLSearchParams({ payment_id: payment.id, token: payment.threeDs?.token ?? '' });
    return this.url(`/3ds/challenge?${params}`);
  }

  /** PaReq: what the ACS needs to show the challenge, as base64url JSON. */
  paReq(payment: SandboxPayment): string {
    const body = {
      payment_id: payment.id,
      token: payment.threeDs?.token,
      amount_minor: payment.amountMinor,
      currency: payment.currency,
      merchant: this.merchant.name,
    };
    return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
  }

  /** PaRes: the ACS's signed answer for the TermUrl. */
  paRes(paymentId: string, outcome: 'pass' | 'fail'): string {
    const body = Buffer.from(JSON.stringify({ payment_id: paymentId, outcome }), 'utf8').toString('base64url');
    return `${body}.${createHmac('sha256', this.acsKey).update(body).digest('base64url')}`;
  }

  readPaRes(paRes: string): { paymentId: string; outcome: 'pass' | 'fail' } | null {
    const [body, signature] = paRes.split('.');
    if (!body || !signature) return null;
    const expected = createHmac('sha256', this.acsKey).update(body).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
        payment_id?: unknown;
        outcome?: unknown;
      };
      if (typeof parsed.payment_id !== 'string' || (parsed.outcome !== 'pass' && parsed.outcome !== 'fail'))
        return null;
      return { paymentId: parsed.payment_id, outcome: parsed.outcome };
    } catch {
      return null;
    }
  }

  newWidgetSession(session: Omit<WidgetSession, 'id' | 'createdAt'>): WidgetSession {
    const created = { ...session, id: newId('ws'), createdAt: this.clock() };
    this.widgetSessions.set(created.id, created);
    return created;
  }

  widgetSession(id: string): WidgetSession | undefined {
    const session = this.widgetSessions.get(id);
    if (!session) return undefined;
    if (this.clock().getTime() - session.createdAt.getTime() > this.paymentTtlMs) {
      this.widgetSessions.delete(id);
      return undefined;
    }
    return session;
  }

  /**
   * The language of a page for this request: the payment's own when it has one, else the page's
   * `lang` parameter, else the browser's Accept-Language, else English.
   */
  locale(request: FastifyRequest, paymentLanguage?: Language | null): Locale {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const { language, source } = negotiateLanguage({
      payment: paymentLanguage,
      query: query.lang,
      acceptLanguage: request.headers['accept-language'],
    });
    return localeOf(language, source);
  }

  sendPage(
    reply: FastifyReply,
    locale: Locale,
    status: number,
    title: string,
    body: SafeHtml,
    options: PageSendOptions = {},
  ) {
    const nonce = newNonce();
    return reply
      .code(status)
      .headers(pageHeaders(nonce, this.storeOrigins, options.framable ?? false))
      .header('content-language', locale.language)
      .send(page({ title, nonce, body, script: options.script, locale }));
  }

  sendJson(reply: FastifyReply, status: number, body: unknown) {
    return reply.code(status).headers(JSON_HEADERS).send(body);
  }

  sendInvalid(reply: FastifyReply, errors: FieldErrors, message = 'The request is invalid.') {
    return this.sendJson(reply, 422, { message, errors });
  }
}

export interface PageSendOptions {
  framable?: boolean;
  script?: SafeHtml;
}

/**
 * Parses with zod; the issues become field paths and codes: "required" for a missing value, the
 * refinement's own code where it has one, otherwise "invalid".
 */
export function parseInput<T>(
  schema: z.ZodType<T>,
  input: unknown,
): { ok: true; data: T } | { ok: false; errors: FieldErrors } {
  const parsed = schema.safeParse(input, {
    error: (issue) => (issue.input === undefined ? 'required' : 'invalid'),
  });
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.join('.') || 'body';
    const list = errors[field] ?? [];
    if (!list.includes(issue.message)) errors[field] = [...list, issue.message];
  }
  return { ok: false, errors };
}
