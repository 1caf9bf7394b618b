import {
  CARD_TYPE_LOOKUP_DIGITS,
  CardTypeRequestSchema,
  CardTypeResponseSchema,
  MessageErrorSchema,
  ValidationErrorSchema,
} from '@store/contract';
import { detectCardType } from '@store/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * POST /card-type (docs/api.md, "Payments"), the brand of a card from its first 8 digits, for the
 * card form's logo. Open to guests like the rest of the checkout's look-ups; only the prefix is used.
 */
export default async function cardTypeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/card-type',
    {
      config: { rateLimit: app.rateLimitPreset('read') },
      schema: {
        tags: ['payments'],
        body: CardTypeRequestSchema,
        response: { 200: CardTypeResponseSchema, 422: ValidationErrorSchema, 429: MessageErrorSchema },
      },
    },
    async (request) => ({ type: detectCardType(request.body.number.slice(0, CARD_TYPE_LOOKUP_DIGITS)) }),
  );
}
