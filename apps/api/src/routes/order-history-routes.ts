import {
  MessageErrorSchema,
  OrderHistoryDetailSchema,
  OrderHistoryPageSchema,
  OrderHistoryParamsSchema,
  OrderHistoryQuerySchema,
  ValidationErrorSchema,
} from '@store/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod';

/**
 * docs/orders.md, "Order history" and "Receipts": GET /profile/orders, GET /profile/orders/{id} and
 * GET /profile/orders/{id}/receipt, the signed-in customer's own orders. Anyone else's order is not
 * found (404); one never paid has no receipt (409). Answers are never cached: they name what the
 * customer bought.
 */
export default async function orderHistoryRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { orderHistory } = app.services;
  const tags = ['profile'];
  const security = [{ bearer: [] }];
  const errors = {
    401: MessageErrorSchema,
    404: MessageErrorSchema,
    422: ValidationErrorSchema,
    429: MessageErrorSchema,
  };
  const onRequest = [
    app.authenticate,
    async (_request: FastifyRequest, reply: FastifyReply) => {
      reply.header('cache-control', 'no-store');
    },
  ];
  const config = { rateLimit: app.rateLimitPreset('read') };
  const seller = { legalName: app.env.STORE_LEGAL_NAME, taxId: app.env.STORE_TAX_ID };

  app.get(
    '/profile/orders',
    {
      onRequest,
      config,
      schema: {
        tags,
        security,
        querystring: OrderHistoryQuerySchema,
        response: { 200: OrderHistoryPageSchema, ...errors },
      },
    },
    async (request) => orderHistory.listOrders(request.user.userId, request.query.page),
  );

  app.get(
    '/profile/orders/:id',
    {
      onRequest,
      config,
      schema: {
        tags,
        security,
        params: OrderHistoryParamsSchema,
        response: { 200: OrderHistoryDetailSchema, ...errors },
      },
    },
    async (request) => ({ order: await orderHistory.getOrder(request.user.userId, request.params.id) }),
  );

  app.get(
    '/profile/orders/:id/receipt',
    {
      onRequest,
      // A PDF is made for each call: the write preset's bound, not the read one's.
      config: { rateLimit: app.rateLimitPreset('write') },
      schema: {
        tags,
        security,
        summary: "A paid order's receipt, as a PDF file",
        params: OrderHistoryParamsSchema,
        produces: ['application/pdf'],
        response: {
          200: z.any().describe('The receipt (application/pdf)'),
          409: MessageErrorSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const source = await orderHistory.receiptSource(request.user.userId, request.params.id);
      // Loaded on the first receipt: a process that makes none never loads the PDF library and its fonts.
      const { receiptFileName, renderReceiptPdf } = await import('@store/core/receipts');
      const pdf = await renderReceiptPdf(source, seller);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${receiptFileName(source.order.id)}"`)
        .send(pdf);
    },
  );
}
