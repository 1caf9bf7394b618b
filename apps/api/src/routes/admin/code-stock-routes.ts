import {
  AdminIntParamsSchema,
  AdminUuidParamsSchema,
  CodeBatchPageSchema,
  CodeBatchQuerySchema,
  CodeImportBodySchema,
  CodeImportReportSchema,
  CodeRevealBodySchema,
  CodeRevealResponseSchema,
  CodeWithdrawBodySchema,
  CodeWithdrawResponseSchema,
} from '@store/contract';
import type { Store } from '@store/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditActor } from '../../plugins/admin-auth.ts';
import { adminSecurity, adminTags, conflict, denied, invalid, missing } from './route-schemas.ts';

/**
 * The console's code stock (docs/console.md): imports with their report, the batches with what
 * became of their codes, a batch's unsold codes withdrawn, and one sold code shown for a ticket.
 * The answers that carry codes are not cached.
 */
export default async function codeStockRoutes(
  fastify: FastifyInstance,
  { store }: { store: Pick<Store, 'codeStock'> },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { codeStock } = store;
  if (!codeStock) throw new Error('the console’s code stock needs the code key');
  const tags = adminTags;
  const security = adminSecurity;
  const read = app.rateLimitPreset('read');
  const write = app.rateLimitPreset('write');

  app.post(
    '/codes/import',
    {
      onRequest: app.requireStaff('codes.import'),
      config: { rateLimit: write },
      schema: {
        tags,
        security,
        body: CodeImportBodySchema,
        response: { 200: CodeImportReportSchema, ...denied, ...invalid },
      },
    },
    (request) =>
      codeStock.importCodes(
        { productId: request.body.product_id, text: request.body.text, label: request.body.label },
        auditActor(request),
      ),
  );

  app.get(
    '/codes/batches',
    {
      onRequest: app.requireStaff('codes.read'),
      config: { rateLimit: read },
      schema: {
        tags,
        security,
        querystring: CodeBatchQuerySchema,
        response: { 200: CodeBatchPageSchema, ...denied, ...invalid },
      },
    },
    (request) => codeStock.listBatches(request.query),
  );

  app.post(
    '/codes/batches/:id/withdraw',
    {
      onRequest: app.requireStaff('codes.withdraw'),
      config: { rateLimit: write },
      schema: {
        tags,
        security,
        params: AdminIntParamsSchema,
        body: CodeWithdrawBodySchema,
        response: { 200: CodeWithdrawResponseSchema, ...denied, ...invalid, ...missing, ...conflict },
      },
    },
    async (request, reply) => {
      const withdrawn = await codeStock.withdraw(request.params.id, request.body.reason, auditActor(request));
      return reply
        .header('cache-control', 'no-store')
        .send({ batch_id: withdrawn.batchId, withdrawn: withdrawn.codes.length, codes: withdrawn.codes });
    },
  );

  app.post(
    '/codes/:id/reveal',
    {
      onRequest: app.requireStaff('codes.reveal'),
      config: { rateLimit: write },
      schema: {
        tags,
        security,
        params: AdminUuidParamsSchema,
        body: CodeRevealBodySchema,
        response: { 200: CodeRevealResponseSchema, ...denied, ...invalid, ...missing, ...conflict },
      },
    },
    async (request, reply) => {
      const revealed = await codeStock.reveal(request.params.id, request.body.reason, auditActor(request));
      return reply.header('cache-control', 'no-store').send({ code_id: revealed.codeId, code: revealed.code });
    },
  );
}
