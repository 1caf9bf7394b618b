import type { FastifyReply } from 'fastify';
import type { SandboxContext, WidgetSession } from '../context.ts';
import { html } from '../html.ts';
import type { Locale } from '../i18n.ts';
import type { SandboxPayment } from '../payments.ts';
import { errorPage, postToOpener, statusLine, widgetFrameKeys, widgetResult } from '../views.ts';

/** The widget frame's answer: the result, and a message to the page that opened it. */
export function sendWidgetResult(
  ctx: SandboxContext,
  reply: FastifyReply,
  locale: Locale,
  payment: SandboxPayment,
  session: WidgetSession,
) {
  const succeeded = payment.status === 'succeeded';
  const message = {
    source: 'sandbox-widget' as const,
    session: session.id,
    type: succeeded ? ('success' as const) : ('fail' as const),
    paymentId: payment.id,
    orderId: payment.orderId,
    ...(succeeded ? {} : { reason: payment.failureReason ?? 'card_declined' }),
  };
  return ctx.sendPage(
    reply,
    locale,
    200,
    succeeded ? locale.t.paymentSuccessful : locale.t.paymentFailed,
    widgetResult(locale, payment, locale.link(ctx.url(`/widget/frame/${session.id}`))),
    {
      framable: true,
      script: html`${postToOpener(message, session.origin)}
${widgetFrameKeys(session.id, session.origin)}`,
    },
  );
}

/**
 * Where a browser goes once its payment is decided: back to the store's return URL (checked when
 * the payment was created), or the widget's result inside its frame.
 */
export function sendDecision(ctx: SandboxContext, reply: FastifyReply, locale: Locale, payment: SandboxPayment) {
  if (payment.channel === 'widget') {
    const session = payment.widgetSessionId ? ctx.widgetSession(payment.widgetSessionId) : undefined;
    if (session) return sendWidgetResult(ctx, reply, locale, payment, session);
  }
  if (payment.returnUrl) return reply.redirect(payment.returnUrl, 303);
  const { t } = locale;
  return ctx.sendPage(
    reply,
    locale,
    200,
    t.paymentTitle,
    html`<h1>${t.paymentTitle}</h1>${statusLine(locale, payment)}`,
    {
      framable: true,
    },
  );
}

export function sendNotFound(
  ctx: SandboxContext,
  reply: FastifyReply,
  locale: Locale,
  what: 'payment' | 'widget' = 'payment',
) {
  const { t } = locale;
  return ctx.sendPage(
    reply,
    locale,
    404,
    t.notFoundTitle,
    errorPage(t.notFoundTitle, what === 'widget' ? t.notFoundWidget : t.notFoundPayment),
  );
}
