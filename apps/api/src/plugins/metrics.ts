import { createHttpMetrics, createMetricsRegistry, createStoreGauges, mayReadMetrics } from '@store/core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface MetricsPluginOptions {
  /** Lets a caller that is not on this machine read /metrics with `Authorization: Bearer <token>`. */
  token: string | undefined;
}

/**
 * GET /metrics: this instance's metrics in Prometheus' text format (store_*), for the loopback address
 * or a caller with the token; anyone else gets a 404, as for a route there is not.
 * Every request's duration is counted by the route as Fastify routed it.
 */
export default fp(async function metrics(app: FastifyInstance, { token }: MetricsPluginOptions) {
  const registry = createMetricsRegistry('api');
  const http = createHttpMetrics(registry);
  const store = createStoreGauges(registry, { sql: app.database.sql, queue: app.queue });

  app.addHook('onResponse', async (request, reply) => {
    http.observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1_000);
  });

  app.get(
    '/metrics',
    { config: { rateLimit: app.rateLimitPreset('ready') }, schema: { hide: true } },
    async (request, reply) => {
      if (!mayReadMetrics(request.socket.remoteAddress, request.headers.authorization, token)) {
        // The API's 404, never the shop's page shell (a 200) that an unknown page gets.
        return reply.code(404).send({ message: `Route ${request.method} /metrics not found` });
      }
      await store.refresh();
      return reply
        .header('content-type', registry.contentType)
        .header('cache-control', 'no-store')
        .send(await registry.metrics());
    },
  );
});
