import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type CardInput, parseInput, type SandboxContext } from '../context.ts';
import type { Locale } from '../i18n.ts';
import { decimalStringToMinor } from '../money.ts';
import { CardFormSchema, expiryParts, WidgetRequestSchema } from '../schemas.ts';
import { type CardFormOptions, cardForm, refusedCardForm, widgetFrameKeys } from '../views.ts';
import { sendNotFound, sendWidgetResult } from './flows.ts';

const WIDGET_SCRIPT = readFileSync(new URL('../assets/widget.js', import.meta.url), 'utf8');

/**
 * The card widget: the script, the session the script opens with the page's widget request, and the
 * card form in the frame. Only the store's origins may open a session (CORS) or frame the form.
 */
export function widgetRoutes(app: FastifyInstance, ctx: SandboxContext) {
  /** A widget session's card form; after a refused submit, with what was typed and what is wrong. */
  const widgetCardForm = (
    locale: Locale,
    session: { id: string; amountMinor: number; currency: string; description: string },
    refused: Pick<CardFormOptions, 'values' | 'errors'> = {},
  ) =>
    cardForm(locale, {
      action: locale.link(ctx.url(`/widget/frame/${session.id}`)),
      title: locale.t.cardPaymentTitle,
      amountMinor: session.amountMinor,
      currency: session.currency,
      description: session.description,
      ...refused,
    });

  app.get('/widget.js', async (_request, reply) =>
    reply
      .headers({
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=300',
        'cross-origin-resource-policy': 'cross-origin',
        'x-content-type-options': 'nosniff',
      })
      .send(WIDGET_SCRIPT),
  );

  /** The calling page's origin when it is one of the store's; browsers always send Origin on a POST. */
  const storeOrigin = (request: FastifyRequest): string | undefined => {
    const origin = request.headers.origin;
    return origin && ctx.storeOrigins.includes(origin) ? origin : undefined;
  };
  const cors = (reply: FastifyReply, origin: string) =>
    reply.headers({ 'access-control-allow-origin': origin, vary: 'Origin' });

  app.options('/widget/sessions', async (request, reply) => {
    const origin = storeOrigin(request);
    if (!origin) return reply.code(403).send();
    return cors(reply, origin)
      .headers({
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
      })
      .code(204)
      .send();
  });

  app.post('/widget/sessions', async (request, reply) => {
    const origin = storeOrigin(request);
    if (!origin) return ctx.sendJson(reply, 403, { message: 'Only the store may open this widget.' });
    cors(reply, origin);
    const parsed = parseInput(WidgetRequestSchema, request.body);
    if (!parsed.ok) return ctx.sendInvalid(reply, parsed.errors, 'The widget request is invalid.');
    const widgetRequest = parsed.data;
    const session = ctx.newWidgetSession({
      origin,
      orderId: widgetRequest.order_id,
      amountMinor: decimalStringToMinor(widgetRequest.amount) ?? 0,
      currency: widgetRequest.currency,
      description: widgetRequest.description,
      email: widgetRequest.receipt.email,
      language: widgetRequest.language ?? null,
    });
    // The script's own texts (the dialog's name, the close button's) in the frame's language, so the
    // script itself stays one file for every language.
    const locale = ctx.locale(request, session.language);
    return ctx.sendJson(reply, 201, {
      session_id: session.id,
      frame_url: locale.link(ctx.url(`/widget/frame/${session.id}`)),
      language: locale.language,
      texts: { dialog: locale.t.cardPaymentTitle, close: locale.t.widgetClose },
    });
  });

  app.get<{ Params: { id: string } }>('/widget/frame/:id', async (request, reply) => {
    const session = ctx.widgetSession(request.params.id);
    if (!session) return sendNotFound(ctx, reply, ctx.locale(request), 'widget');
    const locale = ctx.locale(request, session.language);
    return ctx.sendPage(reply, locale, 200, locale.t.cardPaymentTitle, widgetCardForm(locale, session), {
      framable: true,
      script: widgetFrameKeys(session.id, session.origin),
    });
  });

  app.post<{ Params: { id: string } }>('/widget/frame/:id', async (request, reply) => {
    const session = ctx.widgetSession(request.params.id);
    if (!session) return sendNotFound(ctx, reply, ctx.locale(request), 'widget');
    const locale = ctx.locale(request, session.language);
    const parsed = parseInput(CardFormSchema, request.body);
    if (!parsed.ok) {
      return ctx.sendPage(
        reply,
        locale,
        422,
        locale.t.cardPaymentTitle,
        widgetCardForm(locale, session, refusedCardForm(request.body, parsed.errors)),
        { framable: true, script: widgetFrameKeys(session.id, session.origin) },
      );
    }
    const payment = ctx.book.create({
      orderId: session.orderId,
      method: 'widget',
      channel: 'widget',
      amountMinor: session.amountMinor,
      currency: session.currency,
      description: session.description,
      callbackUrl: ctx.options.widgetCallbackUrl,
      returnUrl: null,
      widgetSessionId: session.id,
      language: session.language,
    });
    const card: CardInput = { digits: parsed.data.card_number, ...expiryParts(parsed.data.expiry) };
    const step = ctx.charge(payment, card, 'page');
    if (step.kind === 'challenge') return reply.redirect(locale.link(ctx.challengeUrl(payment)), 303);
    return sendWidgetResult(ctx, reply, locale, payment, session);
  });
}
