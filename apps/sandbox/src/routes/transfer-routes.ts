import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { parseInput, type SandboxContext } from '../context.ts';
import type { Locale } from '../i18n.ts';
import type { SandboxPayment } from '../payments.ts';
import { errorPage, qrDone, qrPage, upiPage } from '../views.ts';
import { sendNotFound } from './flows.ts';

const QrDecision = z.object({ decision: z.enum(['confirm', 'refuse']) });
const UpiDecision = z.object({ decision: z.enum(['pay', 'decline', 'cancel']) });

/**
 * The pages behind a QR's pay link and a UPI order, standing in for the customer's bank or UPI app:
 * confirm or refuse a QR payment; pay, decline or cancel a UPI one, after which the browser goes to
 * the success, decline or cancel URL stored when the payment was created (on the store's origin).
 */
export function transferRoutes(app: FastifyInstance, ctx: SandboxContext) {
  app.get<{ Params: { id: string } }>('/qr/:id', async (request, reply) => {
    const payment = ctx.book.get(request.params.id);
    if (!payment?.qr) return sendNotFound(ctx, reply, ctx.locale(request));
    const locale = ctx.locale(request, payment.language);
    return ctx.sendPage(
      reply,
      locale,
      200,
      locale.t.instantPaymentTitle,
      qrPage(locale, payment, locale.link(ctx.url(`/qr/${payment.id}`))),
    );
  });

  app.post<{ Params: { id: string } }>('/qr/:id', async (request, reply) => {
    const payment = ctx.book.get(request.params.id);
    if (!payment?.qr) return sendNotFound(ctx, reply, ctx.locale(request));
    const locale = ctx.locale(request, payment.language);
    const { t } = locale;
    const parsed = parseInput(QrDecision, request.body);
    if (!parsed.ok)
      return ctx.sendPage(
        reply,
        locale,
        422,
        t.instantPaymentTitle,
        errorPage(t.instantPaymentTitle, t.confirmOrRefuse),
      );
    if (payment.status === 'init') {
      if (parsed.data.decision === 'confirm') ctx.book.transition(payment, 'succeeded');
      else ctx.book.transition(payment, 'failed', 'refused_by_payer');
    }
    return ctx.sendPage(reply, locale, 200, t.instantPaymentTitle, qrDone(locale, payment, payment.returnUrl));
  });

  const upiExit = (reply: FastifyReply, locale: Locale, payment: SandboxPayment) => {
    const upi = payment.upi;
    if (!upi) return sendNotFound(ctx, reply, locale);
    const url =
      payment.status === 'succeeded' || payment.status === 'refunded'
        ? upi.successUrl
        : payment.failureReason === 'cancelled_by_payer'
          ? upi.cancelUrl
          : upi.declineUrl;
    return reply.redirect(url, 303);
  };

  app.get<{ Params: { id: string } }>('/upi/:id', async (request, reply) => {
    const payment = ctx.book.get(request.params.id);
    if (!payment?.upi) return sendNotFound(ctx, reply, ctx.locale(request));
    const locale = ctx.locale(request, payment.language);
    if (payment.status !== 'init') return upiExit(reply, locale, payment);
    return ctx.sendPage(
      reply,
      locale,
      200,
      locale.t.upiTitle,
      upiPage(locale, payment, locale.link(ctx.url(`/upi/${payment.id}`))),
    );
  });

  app.post<{ Params: { id: string } }>('/upi/:id', async (request, reply) => {
    const payment = ctx.book.get(request.params.id);
    if (!payment?.upi) return sendNotFound(ctx, reply, ctx.locale(request));
    const locale = ctx.locale(request, payment.language);
    const parsed = parseInput(UpiDecision, request.body);
    if (!parsed.ok)
      return ctx.sendPage(
        reply,
        locale,
        422,
        locale.t.upiTitle,
        errorPage(locale.t.upiTitle, locale.t.payDeclineOrCancel),
      );
    if (payment.status === 'init') {
      const decision = parsed.data.decision;
      if (decision === 'pay') ctx.book.transition(payment, 'succeeded');
      else ctx.book.transition(payment, 'failed', decision === 'cancel' ? 'cancelled_by_payer' : 'refused_by_payer');
    }
    return upiExit(reply, locale, payment);
  });
}
