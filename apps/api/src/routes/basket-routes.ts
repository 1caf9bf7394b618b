import {
  BasketMergeBodySchema,
  BasketPatchBodySchema,
  BasketResponseSchema,
  MessageErrorSchema,
  ValidationErrorSchema,
} from '@store/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * SPEC.md section 7: GET and PATCH /basket, and POST /basket/merge for the guest basket on login
 * and registration. Each answers the whole basket after the call.
 */
export default async function basketRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { basket } = app.services;
  const tags = ['basket'];
  const security = [{ bearer: [] }];
  const errors = { 401: MessageErrorSchema, 422: ValidationErrorSchema, 429: MessageErrorSchema };

  app.get(
    '/basket',
    {
      onRequest: app.authenticate,
      config: { rateLimit: app.rateLimitPreset('read') },
      schema: { tags, security, response: { 200: BasketResponseSchema, 401: errors[401], 429: errors[429] } },
    },
    async (request) => basket.getBasket(request.user.userId),
  );

  app.patch(
    '/basket',
    {
      onRequest: app.authenticate,
      config: { rateLimit: app.rateLimitPreset('write') },
      schema: { tags, security, body: BasketPatchBodySchema, response: { 200: BasketResponseSchema, ...errors } },
    },
    async (request) => basket.applyChanges(request.user.userId, request.body),
  );

  app.post(
    '/basket/merge',
    {
      onRequest: app.authenticate,
      config: { rateLimit: app.rateLimitPreset('write') },
      schema: { tags, security, body: BasketMergeBodySchema, response: { 200: BasketResponseSchema, ...errors } },
    },
    async (request) => basket.mergeBasket(request.user.userId, request.body),
  );
}
