import type { FastifyInstance } from 'fastify';
import { parseInput, type SandboxContext } from '../context.ts';
import { decodeHostedRequest } from '../hosted-request.ts';
import { html } from '../html.ts';
import { decimalStringToMinor } from '../money.ts';
import { CLOCK_SKEW_MS, HOSTED_REQUEST_MAX_AGE_MS } from '../options.ts';
import { isHttpUrl, isOnOrigins } from '../redirects.ts';
import { CardFormSchema, expiryParts } from '../schemas.ts';
import { type CardFormOptions, cardForm, errorPage, refusedCardForm } from '../views.ts';
import { sendDecision, sendNotFound } from './flows.ts';

/**
 * The hosted payment page. The store's page posts a form with the hidden field `Request` (base64
 * JSON, signed with the merchant's key); the sandbox checks it, shows its card form, then sends the
 * browser to the request's return URL and calls its callback URL.
 */
export function hostedRoutes(app: FastifyInstance, ctx: SandboxContext) {
  /** A hosted payment's card form; after a refused submit, with what was typed and what is wrong. */
  const hostedCardForm = (
    payment: { id: string; amountMinor: number; currency: string; description: string },
    refused: Pick<CardFormOptions, 'values' | 'errors'> = {},
  ) =>
    cardForm({
      action: ctx.url(`/hosted/${payment.id}`),
      title: 'Pay by card',
      amountMinor: payment.amountMinor,
      currency: payment.currency,
      description: payment.description,
      ...refused,
    });

  app.post('/hosted', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    const decoded = decodeHostedRequest(form.Request, ctx.options.apiKey);
    if (!decoded.ok && decoded.problem === 'bad_signature') {
      return ctx.sendPage(
        reply,
        403,
        'Invalid request',
        errorPage('Invalid payment request', 'The request’s signature is not valid.'),
      );
    }
    if (!decoded.ok) {
      return ctx.sendPage(
        reply,
        422,
        'Invalid request',
        errorPage('Invalid payment request', 'The payment request could not be read.', decoded.fields),
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
        422,
        'Invalid request',
        errorPage('Invalid payment request', 'The payment request was refused.', problems),
      );
    }

    const existingId = ctx.hostedTokens.get(hosted.token);
    const existing = existingId ? ctx.book.get(existingId) : undefined;
    if (existing) {
      if (existing.orderId !== hosted.order_id || existing.amountMinor !== amountMinor) {
        return ctx.sendPage(
          reply,
          409,
          'Invalid request',
          errorPage('Invalid payment request', 'This token already belongs to another payment.'),
        );
      }
      return reply.redirect(ctx.url(`/hosted/${existing.id}`), 303);
    }
    const payment = ctx.book.create({
      orderId: hosted.order_id,
      method: 'hosted_page',
      channel: 'hosted',
      amountMinor,
      currency: hosted.amount.currency,
      description: `Order ${hosted.order_id}`,
      callbackUrl: hosted.callback_url,
      returnUrl: hosted.return_url,
    });
    ctx.hostedTokens.set(hosted.token, payment.id);
    return reply.redirect(ctx.url(`/hosted/${payment.id}`), 303);
  });

  app.get<{ Params: { id: string } }>('/hosted/:id', async (request, reply) => {
    const payment = ctx.book.get(request.params.id);
    if (payment?.method !== 'hosted_page') return sendNotFound(ctx, reply);
    if (payment.status === 'pending') {
      return ctx.sendPage(
        reply,
        200,
        'Payment',
        html`<h1>Waiting for 3-D Secure</h1><div class="actions"><a class="button" href="${ctx.challengeUrl(payment)}">Open the check</a></div>`,
      );
    }
    if (payment.status !== 'init') return sendDecision(ctx, reply, payment);
    return ctx.sendPage(reply, 200, 'Card payment', hostedCardForm(payment));
  });

  app.post<{ Params: { id: string } }>('/hosted/:id', async (request, reply) => {
    const payment = ctx.book.get(request.params.id);
    if (payment?.method !== 'hosted_page') return sendNotFound(ctx, reply);
    // A second submit (a double click, the back button) shows where the first one got to.
    if (payment.status !== 'init') return reply.redirect(ctx.url(`/hosted/${payment.id}`), 303);
    const parsed = parseInput(CardFormSchema, request.body);
    if (!parsed.ok) {
      return ctx.sendPage(
        reply,
        422,
        'Card payment',
        hostedCardForm(payment, refusedCardForm(request.body, parsed.errors)),
      );
    }
    const step = ctx.charge(payment, { digits: parsed.data.card_number, ...expiryParts(parsed.data.expiry) }, 'page');
    if (step.kind === 'challenge') return reply.redirect(ctx.challengeUrl(payment), 303);
    return sendDecision(ctx, reply, payment);
  });
}
