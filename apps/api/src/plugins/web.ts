import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { clientKey } from './rate-limit-store.ts';

export interface WebPluginOptions {
  /** Cover art and icons, served under /static/. */
  assetsDir: string;
  /** The built SPA; absent in API-only deployments. */
  webDist: string;
}

const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/');

/**
 * Serves the catalogue's images and the single-page app. Any GET outside /api that is not a file gets
 * index.html, so the SPA's routes (/category/steam, /product/12) survive a reload; everything else
 * that matches no route is a JSON 404.
 */
export default fp(async function web(app: FastifyInstance, { assetsDir, webDist }: WebPluginOptions) {
  await app.register(fastifyStatic, {
    root: assetsDir,
    prefix: '/static/',
    decorateReply: false,
    maxAge: '1d',
  });

  const hasSpa = existsSync(path.join(webDist, 'index.html'));
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      wildcard: false,
      index: false,
      // The build writes a .br and a .gz beside every script, style and page (apps/web/vite.config.ts):
      // served as the browser accepts, compressed once at the highest levels instead of per request.
      preCompressed: true,
      setHeaders(reply, filePath) {
        // Vite fingerprints everything under assets/; index.html must always be revalidated.
        reply.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  // No route means no route limit: without this one, unknown paths could be requested without end.
  // `allowList: []` replaces the API-only allowList, which cannot apply where nothing was routed.
  const notFoundLimit = app.rateLimit({
    ...app.rateLimitPreset('notFound'),
    allowList: [],
    keyGenerator: (request) => `not-found:${clientKey(request)}`,
  });
  app.setNotFoundHandler({ preHandler: notFoundLimit }, (request: FastifyRequest, reply: FastifyReply) => {
    // HEAD too: link checkers and uptime monitors ask for a page's headers only.
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(request.url) &&
      !request.url.startsWith('/static/');
    if (hasSpa && wantsPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', webDist);
    }
    return reply.code(404).send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
  });
});
