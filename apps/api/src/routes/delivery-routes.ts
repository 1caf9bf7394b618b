import {
  MessageErrorSchema,
  OrderDeliverySchema,
  OrderIdParamsSchema,
  PaymentProductsParamsSchema,
  PurchasedSearchQuerySchema,
  PurchasedSearchResponseSchema,
  ValidationErrorSchema,
} from '@store/contract';
import type { RevealContext } from '@store/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * docs/orders.md, "Delivery": GET /payment-confirm/{orderId}, GET /payment-products/{id} and GET
 * /profile/products/purchased/search: the customer's bought products with their codes. Only the
 * owner gets an answer (anyone else: 404); answers are never cached, and every code shown is
 * recorded with the address Fastify resolved and the route it matched.
 */
export default async function deliveryRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { delivery } = app.services;
  const tags = ['delivery'];
  const security = [{ bearer: [] }];
  const errors = {
    401: MessageErrorSchema,
    404: MessageErrorSchema,
    422: ValidationErrorSchema,
    429: MessageErrorSchema,
  };

  const revealContext = (request: FastifyRequest): RevealContext => ({
    ip: request.ip,
    route: request.routeOptions.url ?? 'unknown',
  });
  const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
  };

  app.get(
    '/payment-confirm/:orderId',
    {
      onRequest: [app.authenticate, noStore],
      config: { rateLimit: app.rateLimitPreset('read') },
      schema: { tags, security, params: OrderIdParamsSchema, response: { 200: OrderDeliverySchema, ...errors } },
    },
    async (request) => delivery.getOrderDelivery(request.user.userId, request.params.orderId, revealContext(request)),
  );

  app.get(
    '/payment-products/:id',
    {
      onRequest: [app.authenticate, noStore],
      config: { rateLimit: app.rateLimitPreset('read') },
      schema: {
        tags,
        security,
        params: PaymentProductsParamsSchema,
        response: { 200: OrderDeliverySchema, ...errors },
      },
    },
    async (request) => delivery.getOrderDelivery(request.user.userId, request.params.id, revealContext(request)),
  );

  app.get(
    '/profile/products/purchased/search',
    {
      onRequest: [app.authenticate, noStore],
      config: { rateLimit: app.rateLimitPreset('read') },
      schema: {
        tags,
        security,
        querystring: PurchasedSearchQuerySchema,
        response: { 200: PurchasedSearchResponseSchema, ...errors },
      },
    },
    async (request) =>
      delivery.searchPurchased(
        request.user.userId,
        { page: request.query.page, search: request.query.search_string },
        revealContext(request),
      ),
  );
}
