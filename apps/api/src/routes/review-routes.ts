import {
  MessageErrorSchema,
  MyReviewResponseSchema,
  OkResponseSchema,
  ProductIdParamsSchema,
  ReviewCreateRequestSchema,
  ReviewIdParamsSchema,
  ReviewSchema,
  ReviewUpdateRequestSchema,
  ValidationErrorSchema,
} from '@store/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * Reviews by the signed-in customer (docs/api.md, "Catalogue and search"): writing one, reading their
 * own of a product, and changing or deleting it. Listing a product's reviews is public, with the
 * catalogue's calls.
 */
export default async function reviewRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { reviews } = app.services;
  const tags = ['reviews'];
  const security = [{ bearer: [] }];
  const onRequest = app.authenticate;
  const config = { rateLimit: app.rateLimitPreset('write') };
  const errors = {
    401: MessageErrorSchema,
    404: MessageErrorSchema,
    422: ValidationErrorSchema,
    429: MessageErrorSchema,
  };

  app.post(
    '/products/feedbacks',
    {
      onRequest,
      config,
      schema: { tags, security, body: ReviewCreateRequestSchema, response: { 201: ReviewSchema, ...errors } },
    },
    async (request, reply) => reply.code(201).send(await reviews.createReview(request.user.userId, request.body)),
  );

  app.get(
    '/products/:id/my-review',
    {
      onRequest,
      config: { rateLimit: app.rateLimitPreset('read') },
      schema: {
        tags,
        security,
        summary: 'The signed-in customer’s own review of the product, or null',
        params: ProductIdParamsSchema,
        response: { 200: MyReviewResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { review: await reviews.getOwnReview(request.user.userId, request.params.id) };
    },
  );

  app.patch(
    '/reviews/:id',
    {
      onRequest,
      config,
      schema: {
        tags,
        security,
        summary: 'Changes the rating or text of the customer’s own review',
        params: ReviewIdParamsSchema,
        body: ReviewUpdateRequestSchema,
        response: { 200: ReviewSchema, 403: MessageErrorSchema, ...errors },
      },
    },
    (request) => reviews.updateReview(request.user.userId, request.params.id, request.body),
  );

  app.delete(
    '/reviews/:id',
    {
      onRequest,
      config,
      schema: {
        tags,
        security,
        summary: 'Deletes the customer’s own review',
        params: ReviewIdParamsSchema,
        response: { 200: OkResponseSchema, 403: MessageErrorSchema, ...errors },
      },
    },
    async (request) => {
      await reviews.deleteReview(request.user.userId, request.params.id);
      return { ok: true as const, message: 'Your review was deleted.' };
    },
  );
}
