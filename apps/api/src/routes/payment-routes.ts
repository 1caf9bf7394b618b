import {
  ConfirmOrderParamsSchema,
  ConfirmOrderResponseSchema,
  CreateQrBodySchema,
  CreateUpiBodySchema,
  HostedPageResponseSchema,
  InitializePaymentBodySchema,
  MessageErrorSchema,
  PaymentBodySchema,
  PaymentMethodsResponseSchema,
  PaymentResponseSchema,
  QrPaymentResponseSchema,
  SbpPaymentBodySchema,
  SbpPaymentResponseSchema,
  UpiPaymentResponseSchema,
  ValidationErrorSchema,
} from '@store/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * The payment calls of docs/payments.md, "The store's payment calls": POST /payment (the card widget's
 * request, or a charge of the store's own card form), POST /payment-sbp, POST /orders/create-qr, POST
 * /orders/create-upi, POST /payment/initialize (the hosted page) and POST /orders/confirm/{id}. None of
 * them completes an order: the provider's events do (callback-routes.ts and the worker). Someone else's
 * order: 404.
 */
export default async function paymentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { payments } = app.services;
  const tags = ['payments'];
  const security = [{ bearer: [] }];
  const errors = {
    401: MessageErrorSchema,
    404: MessageErrorSchema,
    409: MessageErrorSchema,
    422: ValidationErrorSchema,
    429: MessageErrorSchema,
    503: MessageErrorSchema,
  };
  const starting = { onRequest: app.authenticate, config: { rateLimit: app.rateLimitPreset('payment') } };
  // The address Fastify routed (TRUST_PROXY decides whom to believe), never a header as sent.
  const browser = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

  // What the checkout offers: the methods routed to a configured provider. No session needed: the
  // product page names them before anyone logs in.
  app.get(
    '/payments/methods',
    {
      schema: {
        tags,
        summary: 'The payment methods this store offers',
        response: { 200: PaymentMethodsResponseSchema },
      },
    },
    async () => ({ methods: [...payments.offeredMethods()] }),
  );

  app.post(
    '/payment',
    {
      ...starting,
      schema: { tags, security, body: PaymentBodySchema, response: { 200: PaymentResponseSchema, ...errors } },
    },
    async (request) => payments.pay(request.user.userId, request.body, browser(request)),
  );

  app.post(
    '/payment-sbp',
    {
      ...starting,
      schema: { tags, security, body: SbpPaymentBodySchema, response: { 200: SbpPaymentResponseSchema, ...errors } },
    },
    async (request) => payments.payBySbp(request.user.userId, request.body),
  );

  app.post(
    '/orders/create-qr',
    {
      ...starting,
      schema: { tags, security, body: CreateQrBodySchema, response: { 200: QrPaymentResponseSchema, ...errors } },
    },
    async (request) => payments.payByQr(request.user.userId, request.body),
  );

  app.post(
    '/orders/create-upi',
    {
      ...starting,
      schema: { tags, security, body: CreateUpiBodySchema, response: { 200: UpiPaymentResponseSchema, ...errors } },
    },
    async (request) => payments.payByUpi(request.user.userId, request.body),
  );

  app.post(
    '/payment/initialize',
    {
      ...starting,
      schema: {
        tags,
        security,
        body: InitializePaymentBodySchema,
        response: { 200: HostedPageResponseSchema, ...errors },
      },
    },
    async (request) => payments.initializeHostedPage(request.user.userId, request.body, browser(request)),
  );

  app.post(
    '/orders/confirm/:id',
    {
      onRequest: app.authenticate,
      config: { rateLimit: app.rateLimitPreset('write') },
      schema: {
        tags,
        security,
        params: ConfirmOrderParamsSchema,
        response: { 200: ConfirmOrderResponseSchema, ...errors },
      },
    },
    async (request) => payments.confirmOrder(request.user.userId, request.params.id),
  );
}
