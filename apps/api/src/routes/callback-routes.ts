import { CallbackAckSchema, MessageErrorSchema } from '@store/contract';
import {
  CallbackVerificationError,
  isProviderName,
  type PaymentProvider,
  PaymentProviderUnavailableError,
} from '@store/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** A provider event is a few hundred bytes of JSON; anything much larger is not one. */
export const CALLBACK_BODY_LIMIT = 16 * 1024;

/**
 * The budget of callbacks that fail verification, for this instance whatever their address: a token
 * bucket of CALLBACK_FAILURE_BURST, refilled at CALLBACK_FAILURES_PER_SECOND. The provider's own
 * callbacks never fail, so in normal running no token is taken. A secret rotated on one side only,
 * or a clock minutes off, fails every real callback until it is put right: up to 20 a second
 * (bursts of 100) are answered as ever (unverifiedCallbackStatus), with the reason in the log for
 * the operator. Past that, and whatever a flood sends, a failure is answered 429 with Retry-After
 * (the provider retries either) and nothing more, its log line folded into a count: 20 lines a second
 * is a log an operator can read, where bench/callback-flood's forger sends 6,000 callbacks a second.
 */
export const CALLBACK_FAILURE_BURST = 100;
export const CALLBACK_FAILURES_PER_SECOND = 20;
/** When the budget is whole again after a flood. */
export const CALLBACK_RETRY_AFTER_SECONDS = Math.ceil(CALLBACK_FAILURE_BURST / CALLBACK_FAILURES_PER_SECOND);
/** How often, at most, the log says how many callbacks past the budget were refused. */
const REFUSALS_LOG_MS = 10_000;
/** One object for every refusal past the budget: the response serializer writes its JSON once (app.ts). */
const OVER_BUDGET = { message: 'Too many callbacks here failed verification. Please try again later.' };

/** A token bucket, refilled as it is read: `take` is false while it is empty. */
export function createTokenBucket(size: number, perSecond: number, now = () => performance.now()) {
  let tokens = size;
  let readAt = now();
  return {
    take(): boolean {
      const at = now();
      tokens = Math.min(size, tokens + ((at - readAt) / 1_000) * perSecond);
      readAt = at;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

/**
 * What a callback failing verification (unsigned, forged, altered, stale) is answered. Stripe asks
 * its endpoints to answer such a request 400, and Payselection documents no other code: both are
 * answered 400. The sandbox's callbacks keep their 401: it is the store's own provider, its Standard
 * Webhooks sender retries on any answer but a 2xx alike, and its tests, benchmark and decision 0004
 * describe the 401 (docs/payments.md, "Each provider's callback URL and settings").
 */
export function unverifiedCallbackStatus(provider: string): 400 | 401 {
  return provider === 'sandbox' ? 401 : 400;
}

/** What a callback is answered when the payment it names could not be asked about (503: sent again). */
const PROVIDER_UNAVAILABLE = { message: 'The payment provider could not be reached. Please send the event again.' };

/** What a callback to an unknown or unconfigured provider is answered (404, the SPEC's shape). */
const NO_SUCH_PROVIDER = { message: 'No payment provider of that name is configured here.' };

/**
 * POST /payments/callback/:provider, where each payment provider reports (docs/payments.md,
 * "Providers"), verified with that provider's own secrets; POST /payments/callback, the sandbox's
 * URL from before there were several, is the sandbox's still. Each provider reports (docs/payments.md, "How a callback is
 * processed"). The signature covers the body's bytes as sent, so this route alone reads its body raw,
 * whatever its content type. A verified event is stored under its provider event id and handed to the
 * queue; the answer comes at once, before anything is applied. A duplicate is acknowledged and changes
 * nothing; an unsigned, forged, altered or stale one is refused (the sandbox's 401, a real provider's
 * 400; 400 when it is signed but no event) and changes nothing; one whose amount, currency or order is not the store's is stored, marked,
 * acknowledged, and changes nothing.
 *
 * Every callback is verified before anything else, the database last of all: the check is a
 * native HMAC, cheap enough that a real callback never waits behind forged ones for it. The
 * failures draw on the instance's budget (above); past it they are refused with 429, however many
 * addresses they come from, each under its own rate limit. A verified callback takes nothing from
 * the budget and is never refused for it.
 */
export default async function callbackRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { paymentProviders, paymentEvents, paymentReconciler } = app.services;
  const failures = createTokenBucket(CALLBACK_FAILURE_BURST, CALLBACK_FAILURES_PER_SECOND);
  let refusedSinceLog = 0;
  let loggedAt = Number.NEGATIVE_INFINITY;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: CALLBACK_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );

  const schema = {
    tags: ['payments'],
    response: {
      200: CallbackAckSchema,
      400: MessageErrorSchema,
      401: MessageErrorSchema,
      404: MessageErrorSchema,
      429: MessageErrorSchema,
      503: MessageErrorSchema,
    },
  };

  /** Verifies, stores and acknowledges one callback with `provider`'s own secrets. */
  async function receive(provider: PaymentProvider, request: FastifyRequest, reply: FastifyReply) {
    // Without a content type Fastify reads no body: an empty one, which no signature covers.
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    let event: ReturnType<PaymentProvider['verifyCallback']>;
    try {
      event = provider.verifyCallback(body, request.headers);
      // An adapter names its own events; one that names another provider is not to be believed.
      if (event.provider !== provider.name) {
        throw new CallbackVerificationError('malformed_body', 'The event names another provider.');
      }
    } catch (error) {
      if (!(error instanceof CallbackVerificationError)) throw error;
      // Signed but not an event: the provider's own mistake, a bad request, outside the budget.
      if (error.reason !== 'malformed_body' && !failures.take()) {
        refusedSinceLog += 1;
        if (performance.now() - loggedAt >= REFUSALS_LOG_MS) {
          request.log.warn({ refused: refusedSinceLog }, 'callbacks failing verification past the budget: 429');
          refusedSinceLog = 0;
          loggedAt = performance.now();
        }
        return reply.code(429).header('retry-after', CALLBACK_RETRY_AFTER_SECONDS).send(OVER_BUDGET);
      }
      request.log.warn(
        { provider: provider.name, reason: error.reason, webhookId: request.headers['webhook-id'] },
        'callback refused',
      );
      // Unsigned, forged or stale: not the provider (unverifiedCallbackStatus). Signed but not an
      // event: a bad request.
      const status = error.reason === 'malformed_body' ? 400 : unverifiedCallbackStatus(provider.name);
      return reply.code(status).send({ message: error.message });
    }
    // Verified, but nothing the store applies as such (an event type it does not use, or one that
    // names a payment without carrying it): not stored. One that names a payment of the store's says
    // that payment changed, and the provider is asked about it now, its answer handed on as a poll's
    // (a Stripe dispute lost becomes the payment's chargeback). Then acknowledged, so the provider
    // stops sending it; if the provider cannot be asked, a 503, and the provider sends it again.
    if ('ignored' in event) {
      if (event.providerPaymentId) {
        const asked = { provider: provider.name, type: event.providerEventType, id: event.providerPaymentId };
        try {
          const updates = await paymentReconciler.reconcilePayment(provider.name, event.providerPaymentId);
          request.log.info({ ...asked, updates }, 'callback named a payment: the provider was asked about it');
        } catch (error) {
          if (!(error instanceof PaymentProviderUnavailableError)) throw error;
          request.log.warn({ ...asked, err: error }, 'callback named a payment the provider could not be asked about');
          return reply.code(503).send(PROVIDER_UNAVAILABLE);
        }
      }
      return { received: true as const, duplicate: false };
    }
    const received = await paymentEvents.receiveCallback(event);
    return { received: true as const, duplicate: received.duplicate };
  }

  app.post(
    '/payments/callback',
    {
      config: { rateLimit: app.rateLimitPreset('callback') },
      schema: { ...schema, summary: 'The sandbox’s signed callback (Standard Webhooks), at its first URL' },
    },
    async (request, reply) => {
      const sandbox = paymentProviders.byName('sandbox');
      if (!sandbox) return reply.code(404).send(NO_SUCH_PROVIDER);
      return receive(sandbox, request, reply);
    },
  );

  app.post(
    '/payments/callback/:provider',
    {
      config: { rateLimit: app.rateLimitPreset('callback') },
      schema: {
        ...schema,
        summary: 'A payment provider’s signed callback, verified with that provider’s own secrets',
        params: z.object({ provider: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const { provider: name } = request.params;
      const provider = isProviderName(name) ? paymentProviders.byName(name) : undefined;
      if (!provider) return reply.code(404).send(NO_SUCH_PROVIDER);
      return receive(provider, request, reply);
    },
  );
}
