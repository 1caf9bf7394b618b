import {
  AdminIntParamsSchema,
  AdminProductDetailSchema,
  AdminProductOptionsSchema,
  AdminProductPageSchema,
  AdminProductQuerySchema,
  ProductCreateBodySchema,
  ProductUpdateBodySchema,
} from '@store/contract';
import type { Store } from '@store/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditActor } from '../../plugins/admin-auth.ts';
import { adminSecurity, adminTags, denied, invalid, missing } from './route-schemas.ts';

/**
 * The console's catalogue (docs/console.md): products listed, read, created and changed by a
 * manager or the owner. The core service audits every change in its transaction; the shop's index
 * hears of it from the products table's trigger.
 */
export default async function productRoutes(
  fastify: FastifyInstance,
  { store }: { store: Pick<Store, 'adminProducts'> },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { adminProducts } = store;
  const tags = adminTags;
  const security = adminSecurity;
  const read = app.rateLimitPreset('read');
  const write = app.rateLimitPreset('write');
  const onRequest = app.requireStaff('catalogue.write');

  app.get(
    '/products',
    {
      onRequest,
      config: { rateLimit: read },
      schema: {
        tags,
        security,
        querystring: AdminProductQuerySchema,
        response: { 200: AdminProductPageSchema, ...denied, ...invalid },
      },
    },
    (request) => adminProducts.list(request.query),
  );

  app.get(
    '/products/options',
    {
      onRequest,
      config: { rateLimit: read },
      schema: { tags, security, response: { 200: AdminProductOptionsSchema, ...denied } },
    },
    () => adminProducts.options(),
  );

  app.get(
    '/products/:id',
    {
      onRequest,
      config: { rateLimit: read },
      schema: {
        tags,
        security,
        params: AdminIntParamsSchema,
        response: { 200: AdminProductDetailSchema, ...denied, ...invalid, ...missing },
      },
    },
    (request) => adminProducts.get(request.params.id),
  );

  app.post(
    '/products',
    {
      onRequest,
      config: { rateLimit: write },
      schema: {
        tags,
        security,
        body: ProductCreateBodySchema,
        response: { 201: AdminProductDetailSchema, ...denied, ...invalid },
      },
    },
    async (request, reply) => reply.code(201).send(await adminProducts.create(request.body, auditActor(request))),
  );

  app.patch(
    '/products/:id',
    {
      onRequest,
      config: { rateLimit: write },
      schema: {
        tags,
        security,
        params: AdminIntParamsSchema,
        body: ProductUpdateBodySchema,
        response: { 200: AdminProductDetailSchema, ...denied, ...invalid, ...missing },
      },
    },
    (request) => adminProducts.update(request.params.id, request.body, auditActor(request)),
  );
}
