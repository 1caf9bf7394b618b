import {
  CreateOrderBodySchema,
  CreateOrderQuerySchema,
  CreateOrderResponseSchema,
  MessageErrorSchema,
  OrderErrorSchema,
  PaymentStatusBodySchema,
  PaymentStatusResponseSchema,
  SpendingQuerySchema,
  SpendResponseSchema,
} from '@store/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * docs/orders.md, "Orders": POST /orders/create (a purchase, a top-up, or `?type=spending`), POST
 * /payment/spending-balance-handle (pay a spending order from the balance) and POST /payment/status
 * (the browser's poll, which only reads). Someone else's order is a 404 on every call.
 */
export default async function orderRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { orders } = app.services;
  const tags = ['orders'];
  const security = [{ bearer: [] }];
  const errors = {
    401: MessageErrorSchema,
    404: MessageErrorSchema,
    422: OrderErrorSchema,
    429: MessageErrorSchema,
  };

  app.post(
    '/orders/create',
    {
      onRequest: app.authenticate,
      config: { rateLimit: app.rateLimitPreset('write') },
      schema: {
        tags,
        security,
        querystring: CreateOrderQuerySchema,
        body: CreateOrderBodySchema,
        response: { 201: CreateOrderResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await orders.createOrder(request.user.userId, { ...request.body, queryType: request.query.type })),
  );

  app.post(
    '/payment/spending-balance-handle',
    {
      onRequest: app.authenticate,
      config: { rateLimit: app.rateLimitPreset('write') },
      schema: { tags, security, querystring: SpendingQuerySchema, response: { 200: SpendResponseSchema, ...errors } },
    },
    async (request) => orders.spendBalance(request.user.userId, request.query.orderId),
  );

  app.post(
    '/payment/status',
    {
      onRequest: app.authenticate,
      config: { rateLimit: app.rateLimitPreset('read') },
      schema: {
        tags,
        security,
        body: PaymentStatusBodySchema,
        response: { 200: PaymentStatusResponseSchema, ...errors },
      },
    },
    async (request) => orders.paymentStatus(request.user.userId, request.body.orderId),
  );
}
