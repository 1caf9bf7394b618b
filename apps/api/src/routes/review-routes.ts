import { MessageErrorSchema, ReviewCreateRequestSchema, ReviewSchema, ValidationErrorSchema } from '@store/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** POST /products/feedbacks, a review by the signed-in customer (docs/api.md, "Catalogue and search"). */
export default async function reviewRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { reviews } = app.services;

  app.post(
    '/products/feedbacks',
    {
      onRequest: app.authenticate,
      config: { rateLimit: app.rateLimitPreset('write') },
      schema: {
        tags: ['reviews'],
        security: [{ bearer: [] }],
        body: ReviewCreateRequestSchema,
        response: {
          201: ReviewSchema,
          401: MessageErrorSchema,
          404: MessageErrorSchema,
          422: ValidationErrorSchema,
          429: MessageErrorSchema,
        },
      },
    },
    async (request, reply) => reply.code(201).send(await reviews.createReview(request.user.userId, request.body)),
  );
}
