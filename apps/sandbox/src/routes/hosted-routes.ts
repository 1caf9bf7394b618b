import type { FastifyInstance } from 'fastify';
import { parseInput, type SandboxContext } from '../context.ts';
import { decodeHostedRequest } from '../hosted-request.ts';
import { html } from '../html.ts';
import { fill, type Locale } from '../i18n.ts';
import { decimalStringToMinor } from '../money.ts';
import { CLOCK_SKEW_MS, HOSTED_REQUEST_MAX_AGE_MS } from '../options.ts';
import { isHttpUrl, isOnOrigins } from '../redirects.ts';
import { CardFormSchema, expiryParts } from '../schemas.ts';
import { type CardFormOptions, cardForm, errorPage, refusedCardForm } from '../views.ts';
import { sendDecision, sendNotFound } from './flows.ts';

/** The store's short order number: the first block of its order id, upper-cased. */
const orderNumber = (orderId: string) => orderId.slice(0, 8).toUpperCase();

/**
 * The hosted payment page. The store's page posts a form with the hidden field `Request` (base64
 * JSON, signed with the merchant's key); the sandbox checks it, shows its card form, then sends the
 * browser to the request's return URL and calls its callback URL.
 */
export function hostedRoutes(app: FastifyInstance, ctx: SandboxContext) {
  /** A hosted payment's card form; after a refused submit, with what was typed and what is wrong. */
  const hostedCardForm = (
    locale: Locale,
    payment: { id: string; orderId: string; amountMinor: number; currency: string },
    refused: Pick<CardFormOptions, 'values' | 'errors'> = {},
  ) =>
    cardForm(locale, {
      action: locale.link(ctx.url(`/hosted/${payment.id}`)),
      title: locale.t.hostedTitle,
      amountMinor: payment.amountMinor,
      currency: payment.currency,
      // The request carries no description: the page names the order, in the shopper's language, by
      // the short number the store shows everywhere.
      description: fill(locale.t.orderDescription, { orderId: orderNumber(payment.orderId) }),
      ...refused,
    });

  app.post('/hosted', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    const decoded = decodeHostedRequest(form.Request, ctx.options.apiKey);
    const locale = ctx.locale(request, decoded.ok ? decoded.request.language : decoded.language);
    const { t } = locale;
    if (!decoded.ok && decoded.problem === 'bad_signature') {
      return ctx.sendPage(
        reply,
        locale,
        403,
        t.invalidRequestTitle,
        errorPage(t.invalidPaymentRequest, t.badSignature),
      );
    }
    if (!decoded.ok) {
      return ctx.sendPage(
        reply,
        locale,
        422,
        t.invalidRequestTitle,
        errorPage(t.invalidPaymentRequest, t.requestUnreadable, decoded.fields),
      );
    }
    const hosted = decoded.request;
    const problems: Record<string, string[]> = {};
    if (!isOnOrigins(hosted.return_url, ctx.storeOrigins)) problems.return_url = ['foreign_origin'];
    if (!isHttpUrl(hosted.callback_url)) problems.callback_url = ['invalid'];
    const age = ctx.clock().getTime() - new Date(hosted.request_date).getTime();
    if (age > HOSTED_REQUEST_MAX_AGE_MS || age < -CLOCK_SKEW_MS) problems.request_date = ['expired'];
    const amountMinor = decimalStringToMinor(hosted.amount.value) ?? 0;
    if (amountMinor <= 0) problems['amount.value'] = ['invalid'];
    if (Object.keys(problems).length > 0) {
      return ctx.sendPage(
        reply,
        locale,
        422,
        t.invalidRequestTitle,
        errorPage(t.invalidPaymentRequest, t.requestRefused, problems),
      );
    }

    const existingId = ctx.hostedTokens.get(hosted.token);
    const existing = existingId ? ctx.book.get(existingId) : undefined;
    if (existing) {
      if (existing.orderId !== hosted.order_id || existing.amountMinor !== amountMinor) {
        return ctx.sendPage(
          reply,
          locale,
          409,
          t.invalidRequestTitle,
          errorPage(t.invalidPaymentRequest, t.tokenTaken),
        );
      }
      return reply.redirect(locale.link(ctx.url(`/hosted/${existing.id}`)), 303);
    }
    const payment = ctx.book.create({
      orderId: hosted.order_id,
      method: 'hosted_page',
      channel: 'hosted',
      amountMinor,
      currency: hosted.amount.currency,
      description: `Order ${orderNumber(hosted.order_id)}`,
      callbackUrl: hosted.callback_url,
      returnUrl: hosted.return_url,
      language: hosted.language ?? null,
    });
    ctx.hostedTokens.set(hosted.token, payment.id);
    return reply.redirect(locale.link(ctx.url(`/hosted/${payment.id}`)), 303);
  });

  app.get<{ Params: { id: string } }>('/hosted/:id', async (request, reply) => {
    const payment = ctx.book.get(request.params.id);
    if (payment?.method !== 'hosted_page') return sendNotFound(ctx, reply, ctx.locale(request));
    const locale = ctx.locale(request, payment.language);
    const { t } = locale;
    if (payment.status === 'pending') {
      return ctx.sendPage(
        reply,
        locale,
        200,
        t.paymentTitle,
        html`<h1>${t.waitingThreeDs}</h1><div class="actions"><a class="button" href="${locale.link(ctx.challengeUrl(payment))}">${t.openCheck}</a></div>`,
      );
    }
    if (payment.status !== 'init') return sendDecision(ctx, reply, locale, payment);
    return ctx.sendPage(reply, locale, 200, t.cardPaymentTitle, hostedCardForm(locale, payment));
  });

  app.post<{ Params: { id: string } }>('/hosted/:id', async (request, reply) => {
    const payment = ctx.book.get(request.params.id);
    if (payment?.method !== 'hosted_page') return sendNotFound(ctx, reply, ctx.locale(request));
    const locale = ctx.locale(request, payment.language);
    // A second submit (a double click, the back button) shows where the first one got to.
    if (payment.status !== 'init') return reply.redirect(locale.link(ctx.url(`/hosted/${payment.id}`)), 303);
    const parsed = parseInput(CardFormSchema, request.body);
    if (!parsed.ok) {
      return ctx.sendPage(
        reply,
        locale,
        422,
        locale.t.cardPaymentTitle,
        hostedCardForm(locale, payment, refusedCardForm(request.body, parsed.errors)),
      );
    }
    const step = ctx.charge(payment, { digits: parsed.data.card_number, ...expiryParts(parsed.data.expiry) }, 'page');
    if (step.kind === 'challenge') return reply.redirect(locale.link(ctx.challengeUrl(payment)), 303);
    return sendDecision(ctx, reply, locale, payment);
  });
}
