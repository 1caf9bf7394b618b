import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput, type SandboxContext } from '../context.ts';
import type { Locale, MessageKey } from '../i18n.ts';
import type { SandboxPayment } from '../payments.ts';
import { autoPostPage, challengePage, errorPage, widgetFrameKeys } from '../views.ts';
import { sendDecision } from './flows.ts';

const AcsForm = z.object({
  PaReq: z.string().min(1).max(4_096),
  MD: z.string().min(1).max(128),
  TermUrl: z.string().max(2_048),
});
const ChallengeQuery = z.object({ payment_id: z.string().min(1).max(128), token: z.string().min(1).max(128) });
const ChallengeForm = ChallengeQuery.extend({ outcome: z.enum(['pass', 'fail']) });
const TermForm = z.object({ PaRes: z.string().min(1).max(4_096), MD: z.string().min(1).max(128) });

/**
 * 3-D Secure, played by the sandbox as the card's issuer. `3DS`: the browser posts PaReq, MD and
 * TermUrl to the ACS (/3ds/acs); the challenge's answer is posted as PaRes and MD to TermUrl
 * (/3ds/term, the sandbox's own), which decides the payment. `3DS_REDIRECT` and the sandbox's own
 * pages go straight to /3ds/challenge. Either way the browser ends at the payment's return URL.
 */
export function threeDsRoutes(app: FastifyInstance, ctx: SandboxContext) {
  type Reply = Parameters<typeof ctx.sendPage>[0];
  const invalid = (reply: Reply, locale: Locale, message: MessageKey) =>
    ctx.sendPage(reply, locale, 422, locale.t.threeDsTitle, errorPage(locale.t.threeDsRefused, locale.t[message]), {
      framable: true,
    });

  /** The payment a challenge belongs to, when the token proves the browser came from its answer. */
  const challenged = (paymentId: string, token: string): SandboxPayment | undefined => {
    const payment = ctx.book.get(paymentId);
    return payment?.threeDs && payment.threeDs.token === token ? payment : undefined;
  };

  const showChallenge = (reply: Reply, locale: Locale, payment: SandboxPayment) => {
    if (payment.status !== 'pending') return sendDecision(ctx, reply, locale, payment);
    const hidden = { payment_id: payment.id, token: payment.threeDs?.token ?? '' };
    // In the widget's frame, the challenge answers the widget's keys as its card form does.
    const session =
      payment.channel === 'widget' && payment.widgetSessionId ? ctx.widgetSession(payment.widgetSessionId) : undefined;
    return ctx.sendPage(
      reply,
      locale,
      200,
      locale.t.threeDsTitle,
      challengePage(locale, payment, hidden, locale.link(ctx.url('/3ds/challenge'))),
      {
        framable: true,
        ...(session ? { script: widgetFrameKeys(session.id, session.origin) } : {}),
      },
    );
  };

  app.post('/3ds/acs', async (request, reply) => {
    const asked = ctx.locale(request);
    const parsed = parseInput(AcsForm, request.body);
    if (!parsed.ok) return invalid(reply, asked, 'acsFieldsRequired');
    const { PaReq, MD, TermUrl } = parsed.data;
    let paReq: { payment_id?: unknown; token?: unknown };
    try {
      paReq = JSON.parse(Buffer.from(PaReq, 'base64url').toString('utf8'));
    } catch {
      return invalid(reply, asked, 'paReqUnreadable');
    }
    const payment =
      typeof paReq.token === 'string' && paReq.payment_id === MD ? challenged(MD, paReq.token) : undefined;
    if (!payment) return invalid(reply, asked, 'paReqNoPayment');
    const locale = ctx.locale(request, payment.language);
    // The ACS answers only to the TermUrl it gave out: a changed one would send PaRes elsewhere.
    if (TermUrl !== ctx.url('/3ds/term')) return invalid(reply, locale, 'termUrlWrong');
    return showChallenge(reply, locale, payment);
  });

  app.get('/3ds/challenge', async (request, reply) => {
    const parsed = parseInput(ChallengeQuery, request.query);
    const payment = parsed.ok ? challenged(parsed.data.payment_id, parsed.data.token) : undefined;
    if (!payment) return invalid(reply, ctx.locale(request), 'challengeLinkInvalid');
    return showChallenge(reply, ctx.locale(request, payment.language), payment);
  });

  app.post('/3ds/challenge', async (request, reply) => {
    const parsed = parseInput(ChallengeForm, request.body);
    if (!parsed.ok) return invalid(reply, ctx.locale(request), 'challengeChoose');
    const payment = challenged(parsed.data.payment_id, parsed.data.token);
    if (!payment?.threeDs) return invalid(reply, ctx.locale(request), 'challengeFormInvalid');
    const locale = ctx.locale(request, payment.language);
    if (payment.threeDs.flow === 'classic' && payment.status === 'pending') {
      const { body, script } = autoPostPage(locale, locale.link(ctx.url('/3ds/term')), {
        PaRes: ctx.paRes(payment.id, parsed.data.outcome),
        MD: payment.id,
      });
      return ctx.sendPage(reply, locale, 200, locale.t.threeDsTitle, body, { script });
    }
    ctx.completeChallenge(payment, parsed.data.outcome === 'pass');
    return sendDecision(ctx, reply, locale, payment);
  });

  app.post('/3ds/term', async (request, reply) => {
    const parsed = parseInput(TermForm, request.body);
    if (!parsed.ok) return invalid(reply, ctx.locale(request), 'termFieldsRequired');
    const answer = ctx.readPaRes(parsed.data.PaRes);
    const payment = answer && answer.paymentId === parsed.data.MD ? ctx.book.get(answer.paymentId) : undefined;
    if (!answer || !payment) return invalid(reply, ctx.locale(request), 'paResInvalid');
    ctx.completeChallenge(payment, answer.outcome === 'pass');
    return sendDecision(ctx, reply, ctx.locale(request, payment.language), payment);
  });
}
