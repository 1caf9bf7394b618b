import { DashboardResponseSchema } from '@store/contract';
import type { Store } from '@store/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { adminSecurity, adminTags, denied } from './route-schemas.ts';

/** The console's first page (docs/console.md): sales, orders by status, low stock, what needs an operator. */
export default async function dashboardRoutes(
  fastify: FastifyInstance,
  { store }: { store: Pick<Store, 'dashboard'> },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/dashboard',
    {
      onRequest: app.requireStaff('dashboard.read'),
      config: { rateLimit: app.rateLimitPreset('read') },
      schema: {
        tags: adminTags,
        security: adminSecurity,
        response: { 200: DashboardResponseSchema, ...denied },
      },
    },
    () => store.dashboard.read(),
  );
}
