import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from '../shared/logger.ts';
import { mayReadMetrics } from './metrics.ts';

export interface MetricsServerOptions {
  registry: Registry;
  host: string;
  /** 0 takes any free port (tests). */
  port: number;
  token: string | undefined;
  logger: Logger;
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * GET /metrics for a process that serves no HTTP of its own (the worker): its registry in
 * Prometheus' text format, for the loopback address or a caller with the token, and a 404 for
 * anything else, as the API answers.
 */
export async function startMetricsServer({
  registry,
  host,
  port,
  token,
  logger,
}: MetricsServerOptions): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const allowed = mayReadMetrics(request.socket.remoteAddress, request.headers.authorization, token);
    if (request.method !== 'GET' || path !== '/metrics' || !allowed) {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not found' }));
      return;
    }
    registry.metrics().then(
      (text) =>
        response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
      (error: unknown) => {
        logger.error({ err: error }, 'metrics could not be collected');
        response
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: 'Metrics failed' }));
      },
    );
  });
  server.listen(port, host);
  // A port taken or an address this machine does not have rejects here, with the listen error.
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  logger.info({ host, port: bound }, 'metrics served at /metrics');
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
