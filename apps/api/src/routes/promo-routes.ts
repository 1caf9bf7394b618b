import {
  MessageErrorSchema,
  PROMO_LOGIN_REQUIRED,
  PromoErrorSchema,
  PromoQuerySchema,
  PromoResultSchema,
} from '@store/contract';
import { UnauthorizedError } from '@store/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * POST /promocode/?price={n}&code={code} (docs/orders.md, "Promo codes"). The discount comes from the
 * server basket; `price`, the total the client shows, is checked for shape only and never used.
 */
export default async function promoRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { promo } = app.services;

  /** A guest's 401 carries the code of the 'Авторизуйтесь' hint. */
  async function customerOnly(request: FastifyRequest, reply: FastifyReply) {
    try {
      await app.authenticate(request, reply);
    } catch (error) {
      if (error instanceof UnauthorizedError) {
        throw new UnauthorizedError('Log in to use a promo code.', PROMO_LOGIN_REQUIRED);
      }
      throw error;
    }
  }

  app.post(
    '/promocode',
    {
      onRequest: customerOnly,
      config: { rateLimit: app.rateLimitPreset('promo') },
      schema: {
        tags: ['promo'],
        security: [{ bearer: [] }],
        querystring: PromoQuerySchema,
        response: {
          200: PromoResultSchema,
          401: MessageErrorSchema,
          422: PromoErrorSchema,
          429: MessageErrorSchema,
        },
      },
    },
    async (request) => promo.quoteBasket(request.user.userId, request.query.code),
  );
}
