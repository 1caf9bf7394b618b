import {
  AdminIntParamsSchema,
  AdminPromoPageSchema,
  AdminPromoQuerySchema,
  AdminPromoResponseSchema,
  PromoCreateBodySchema,
  PromoDeactivateBodySchema,
} from '@store/contract';
import type { Store } from '@store/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditActor } from '../../plugins/admin-auth.ts';
import { adminSecurity, adminTags, denied, invalid, missing } from './route-schemas.ts';

/**
 * The console's promo codes (docs/console.md): listed, created and deactivated by a manager or the
 * owner; the core service audits every change in its transaction.
 */
export default async function adminPromoRoutes(
  fastify: FastifyInstance,
  { store }: { store: Pick<Store, 'adminPromo'> },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { adminPromo } = store;
  const tags = adminTags;
  const security = adminSecurity;
  const onRequest = app.requireStaff('promo.write');

  app.get(
    '/promo-codes',
    {
      onRequest,
      config: { rateLimit: app.rateLimitPreset('read') },
      schema: {
        tags,
        security,
        querystring: AdminPromoQuerySchema,
        response: { 200: AdminPromoPageSchema, ...denied, ...invalid },
      },
    },
    (request) => adminPromo.list(request.query),
  );

  app.post(
    '/promo-codes',
    {
      onRequest,
      config: { rateLimit: app.rateLimitPreset('write') },
      schema: {
        tags,
        security,
        body: PromoCreateBodySchema,
        response: { 201: AdminPromoResponseSchema, ...denied, ...invalid },
      },
    },
    async (request, reply) => reply.code(201).send(await adminPromo.create(request.body, auditActor(request))),
  );

  app.post(
    '/promo-codes/:id/deactivate',
    {
      onRequest,
      config: { rateLimit: app.rateLimitPreset('write') },
      schema: {
        tags,
        security,
        params: AdminIntParamsSchema,
        body: PromoDeactivateBodySchema,
        response: { 200: AdminPromoResponseSchema, ...denied, ...invalid, ...missing },
      },
    },
    (request) => adminPromo.deactivate(request.params.id, request.body.reason, auditActor(request)),
  );
}
