import {
  type BasketContents,
  BasketMergeBodySchema,
  BasketPatchBodySchema,
  type BasketResponse,
  BasketResponseSchema,
  LangQuerySchema,
  MessageErrorSchema,
  ValidationErrorSchema,
} from '@store/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * GET and PATCH /basket, and POST /basket/merge for the guest basket on login and registration
 * (docs/orders.md, "The basket"). Each answers the whole basket after the call.
 */
export default async function basketRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { basket, displayRates } = app.services;
  /** The basket with the rate its prices are shown at in `?lang=`; what is charged stays in BRL. */
  const withDisplay = async (contents: Promise<BasketContents>, lang: string | undefined): Promise<BasketResponse> => ({
    ...(await contents),
    display: displayRates.forLocale(lang),
  });
  const tags = ['basket'];
  const security = [{ bearer: [] }];
  const errors = { 401: MessageErrorSchema, 422: ValidationErrorSchema, 429: MessageErrorSchema };

  app.get(
    '/basket',
    {
      onRequest: app.authenticate,
      config: { rateLimit: app.rateLimitPreset('read') },
      schema: {
        tags,
        security,
        querystring: LangQuerySchema,
        response: { 200: BasketResponseSchema, 401: errors[401], 429: errors[429] },
      },
    },
    async (request) => withDisplay(basket.getBasket(request.user.userId), request.query.lang),
  );

  app.patch(
    '/basket',
    {
      onRequest: app.authenticate,
      config: { rateLimit: app.rateLimitPreset('write') },
      schema: {
        tags,
        security,
        querystring: LangQuerySchema,
        body: BasketPatchBodySchema,
        response: { 200: BasketResponseSchema, ...errors },
      },
    },
    async (request) => withDisplay(basket.applyChanges(request.user.userId, request.body), request.query.lang),
  );

  app.post(
    '/basket/merge',
    {
      onRequest: app.authenticate,
      config: { rateLimit: app.rateLimitPreset('write') },
      schema: {
        tags,
        security,
        querystring: LangQuerySchema,
        body: BasketMergeBodySchema,
        response: { 200: BasketResponseSchema, ...errors },
      },
    },
    async (request) => withDisplay(basket.mergeBasket(request.user.userId, request.body), request.query.lang),
  );
}
