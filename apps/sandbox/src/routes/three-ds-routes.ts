import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput, type SandboxContext } from '../context.ts';
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
  const invalid = (reply: Parameters<typeof ctx.sendPage>[0], message: string) =>
    ctx.sendPage(reply, 422, '3-D Secure', errorPage('3-D Secure check refused', message), { framable: true });

  /** The payment a challenge belongs to, when the token proves the browser came from its answer. */
  const challenged = (paymentId: string, token: string): SandboxPayment | undefined => {
    const payment = ctx.book.get(paymentId);
    return payment?.threeDs && payment.threeDs.token === token ? payment : undefined;
  };

  const showChallenge = (reply: Parameters<typeof ctx.sendPage>[0], payment: SandboxPayment) => {
    if (payment.status !== 'pending') return sendDecision(ctx, reply, payment);
    const hidden = { payment_id: payment.id, token: payment.threeDs?.token ?? '' };
    // In the widget's frame, the challenge answers the widget's keys as its card form does.
    const session =
      payment.channel === 'widget' && payment.widgetSessionId ? ctx.widgetSession(payment.widgetSessionId) : undefined;
    return ctx.sendPage(reply, 200, '3-D Secure', challengePage(payment, hidden, ctx.url('/3ds/challenge')), {
      framable: true,
      ...(session ? { script: widgetFrameKeys(session.id, session.origin) } : {}),
    });
  };

  app.post('/3ds/acs', async (request, reply) => {
    const parsed = parseInput(AcsForm, request.body);
    if (!parsed.ok) return invalid(reply, 'PaReq, MD and TermUrl are required.');
    const { PaReq, MD, TermUrl } = parsed.data;
    let paReq: { payment_id?: unknown; token?: unknown };
    try {
      paReq = JSON.parse(Buffer.from(PaReq, 'base64url').toString('utf8'));
    } catch {
      return invalid(reply, 'PaReq could not be read.');
    }
    const payment =
      typeof paReq.token === 'string' && paReq.payment_id === MD ? challenged(MD, paReq.token) : undefined;
    if (!payment) return invalid(reply, 'PaReq and MD do not name a payment waiting for 3-D Secure.');
    // The ACS answers only to the TermUrl it gave out: a changed one would send PaRes elsewhere.
    if (TermUrl !== ctx.url('/3ds/term')) return invalid(reply, 'TermUrl is not the one of this payment.');
    return showChallenge(reply, payment);
  });

  app.get('/3ds/challenge', async (request, reply) => {
    const parsed = parseInput(ChallengeQuery, request.query);
    const payment = parsed.ok ? challenged(parsed.data.payment_id, parsed.data.token) : undefined;
    if (!payment) return invalid(reply, 'This link does not name a payment waiting for 3-D Secure.');
    return showChallenge(reply, payment);
  });

  app.post('/3ds/challenge', async (request, reply) => {
    const parsed = parseInput(ChallengeForm, request.body);
    if (!parsed.ok) return invalid(reply, 'Choose to pass or to fail the challenge.');
    const payment = challenged(parsed.data.payment_id, parsed.data.token);
    if (!payment?.threeDs) return invalid(reply, 'This form does not name a payment waiting for 3-D Secure.');
    if (payment.threeDs.flow === 'classic' && payment.status === 'pending') {
      const { body, script } = autoPostPage(ctx.url('/3ds/term'), {
        PaRes: ctx.paRes(payment.id, parsed.data.outcome),
        MD: payment.id,
      });
      return ctx.sendPage(reply, 200, '3-D Secure', body, { script });
    }
    ctx.completeChallenge(payment, parsed.data.outcome === 'pass');
    return sendDecision(ctx, reply, payment);
  });

  app.post('/3ds/term', async (request, reply) => {
    const parsed = parseInput(TermForm, request.body);
    if (!parsed.ok) return invalid(reply, 'PaRes and MD are required.');
    const answer = ctx.readPaRes(parsed.data.PaRes);
    const payment = answer && answer.paymentId === parsed.data.MD ? ctx.book.get(answer.paymentId) : undefined;
    if (!answer || !payment) return invalid(reply, 'PaRes is not a valid answer for MD.');
    ctx.completeChallenge(payment, answer.outcome === 'pass');
    return sendDecision(ctx, reply, payment);
  });
}
