import type { FastifyReply } from 'fastify';
import type { SandboxContext, WidgetSession } from '../context.ts';
import { html } from '../html.ts';
import type { SandboxPayment } from '../payments.ts';
import { errorPage, postToOpener, statusLine, widgetFrameKeys, widgetResult } from '../views.ts';

/** The widget frame's answer: the result, and a message to the page that opened it. */
export function sendWidgetResult(
  ctx: SandboxContext,
  reply: FastifyReply,
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
    200,
    succeeded ? 'Payment successful' : 'Payment failed',
    widgetResult(payment, ctx.url(`/widget/frame/${session.id}`)),
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
export function sendDecision(ctx: SandboxContext, reply: FastifyReply, payment: SandboxPayment) {
  if (payment.channel === 'widget') {
    const session = payment.widgetSessionId ? ctx.widgetSession(payment.widgetSessionId) : undefined;
    if (session) return sendWidgetResult(ctx, reply, payment, session);
  }
  if (payment.returnUrl) return reply.redirect(payment.returnUrl, 303);
  return ctx.sendPage(reply, 200, 'Payment', html`<h1>Payment</h1>${statusLine(payment)}`, { framable: true });
}

export function sendNotFound(ctx: SandboxContext, reply: FastifyReply, what = 'payment') {
  return ctx.sendPage(reply, 404, 'Not found', errorPage('Not found', `This ${what} does not exist or has expired.`));
}
