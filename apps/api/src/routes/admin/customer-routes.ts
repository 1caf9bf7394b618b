import {
  AdminCustomerDetailSchema,
  AdminCustomerPageSchema,
  AdminUuidParamsSchema,
  BalanceAdjustBodySchema,
  BalanceAdjustResponseSchema,
  CustomerActionBodySchema,
  CustomerActionResponseSchema,
  CustomerSearchQuerySchema,
} from '@store/contract';
import type { Store } from '@store/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditActor } from '../../plugins/admin-auth.ts';
import { adminSecurity, adminTags, conflict, denied, invalid, missing } from './route-schemas.ts';

/**
 * The console's customers (docs/console.md): search, the customer's page, balance adjustments
 * (owner, with a fresh TOTP code), ending their sessions, blocking and unblocking. Every change is
 * audited by the core service in the change's transaction.
 */
export default async function customerRoutes(
  fastify: FastifyInstance,
  { store }: { store: Pick<Store, 'adminCustomers'> },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { adminCustomers } = store;
  const tags = adminTags;
  const security = adminSecurity;
  const read = app.rateLimitPreset('read');
  const write = app.rateLimitPreset('write');
  // A session ended by the console is forgotten here at once; the other instances hear the database.
  const forgetSessions = (userId: string) => app.services.accounts.forgetSessionsOf(userId);

  app.get(
    '/customers',
    {
      onRequest: app.requireStaff('customers.read'),
      config: { rateLimit: read },
      schema: {
        tags,
        security,
        querystring: CustomerSearchQuerySchema,
        response: { 200: AdminCustomerPageSchema, ...denied, ...invalid },
      },
    },
    (request) => adminCustomers.search(request.query),
  );

  app.get(
    '/customers/:id',
    {
      onRequest: app.requireStaff('customers.read'),
      config: { rateLimit: read },
      schema: {
        tags,
        security,
        params: AdminUuidParamsSchema,
        response: { 200: AdminCustomerDetailSchema, ...denied, ...invalid, ...missing },
      },
    },
    (request) => adminCustomers.detail(request.params.id),
  );

  app.post(
    '/customers/:id/balance',
    {
      onRequest: app.requireStaff('customers.balance_adjust'),
      config: { rateLimit: write },
      schema: {
        tags,
        security,
        params: AdminUuidParamsSchema,
        body: BalanceAdjustBodySchema,
        response: { 200: BalanceAdjustResponseSchema, ...denied, ...invalid, ...missing, ...conflict },
      },
    },
    (request) => adminCustomers.adjustBalance(request.params.id, request.body, auditActor(request)),
  );

  app.post(
    '/customers/:id/revoke-sessions',
    {
      onRequest: app.requireStaff('customers.sessions_revoke'),
      config: { rateLimit: write },
      schema: {
        tags,
        security,
        params: AdminUuidParamsSchema,
        body: CustomerActionBodySchema,
        response: { 200: CustomerActionResponseSchema, ...denied, ...invalid, ...missing },
      },
    },
    async (request) => {
      const done = await adminCustomers.revokeSessions(request.params.id, request.body.reason, auditActor(request));
      forgetSessions(request.params.id);
      return done;
    },
  );

  for (const path of ['block', 'unblock'] as const) {
    app.post(
      `/customers/:id/${path}`,
      {
        onRequest: app.requireStaff('customers.block'),
        config: { rateLimit: write },
        schema: {
          tags,
          security,
          params: AdminUuidParamsSchema,
          body: CustomerActionBodySchema,
          response: { 200: CustomerActionResponseSchema, ...denied, ...invalid, ...missing },
        },
      },
      async (request) => {
        const done = await adminCustomers[path](request.params.id, request.body.reason, auditActor(request));
        if (path === 'block') forgetSessions(request.params.id);
        return done;
      },
    );
  }
}
