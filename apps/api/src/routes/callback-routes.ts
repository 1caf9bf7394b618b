import { CallbackAckSchema, MessageErrorSchema } from '@store/contract';
import { CallbackVerificationError } from '@store/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** A provider event is a few hundred bytes of JSON; anything much larger is not one. */
export const CALLBACK_BODY_LIMIT = 16 * 1024;

/**
 * POST /payments/callback, where the payment provider reports (SPEC.md section 7's callback URL). The
 * signature covers the body's bytes as sent, so this route alone reads its body raw, whatever its
 * content type. A verified event is stored under its provider event id and handed to the queue; the
 * answer comes at once, before anything is applied. A duplicate is acknowledged and changes nothing;
 * an unsigned, forged, altered or stale one is refused (401; 400 when it is signed but no event) and
 * changes nothing; one whose amount,
 * currency or order is not the store's is stored, marked, acknowledged, and changes nothing.
 */
export default async function callbackRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { paymentProvider, paymentEvents } = app.services;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: CALLBACK_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/payments/callback',
    {
      config: { rateLimit: app.rateLimitPreset('callback') },
      schema: {
        tags: ['payments'],
        summary: 'The payment provider’s signed callback (Standard Webhooks)',
        response: { 200: CallbackAckSchema, 400: MessageErrorSchema, 401: MessageErrorSchema },
      },
    },
    async (request, reply) => {
      // Without a content type Fastify reads no body: an empty one, which no signature covers.
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      let event: ReturnType<typeof paymentProvider.verifyCallback>;
      try {
        event = paymentProvider.verifyCallback(body, request.headers);
      } catch (error) {
        if (!(error instanceof CallbackVerificationError)) throw error;
        request.log.warn({ reason: error.reason, webhookId: request.headers['webhook-id'] }, 'callback refused');
        // Unsigned, forged or stale: not the provider (401). Signed but not an event: a bad request.
        return reply.code(error.reason === 'malformed_body' ? 400 : 401).send({ message: error.message });
      }
      const received = await paymentEvents.receiveCallback(event);
      return { received: true as const, duplicate: received.duplicate };
    },
  );
}
