import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
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
  /** The built operator console, served under /admin/; absent where the console is not built. */
  adminDist?: string;
}

const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/');
const isAdminPath = (url: string) => url === '/admin' || url.startsWith('/admin/') || url.startsWith('/admin?');

/**
 * The console's page allows less than the shop's: its own scripts and styles, calls to this origin
 * only, no frames, no forms posted elsewhere, no payment provider. Set on the page, where the browser
 * reads it; its scripts and styles keep the shop's.
 */
export const ADMIN_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  // Radix positions its dialogs with inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "connect-src 'self'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const ADMIN_PAGE_HEADERS = {
  'content-security-policy': ADMIN_CONTENT_SECURITY_POLICY,
  // The console's page is never cached by a proxy, never indexed, and leaks no address in a Referer.
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex, nofollow',
  'referrer-policy': 'no-referrer',
} as const;

/**
 * Serves the catalogue's images and the single-page app. Any GET outside /api that is not a file gets
 * index.html, so the SPA's routes (/category/steam, /product/12) survive a reload; everything else
 * that matches no route is a JSON 404.
 */
export default fp(async function web(app: FastifyInstance, { assetsDir, webDist, adminDist }: WebPluginOptions) {
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

  // The console, built apart (apps/admin): its files under /admin/, its page for every /admin/ route.
  const hasAdmin = adminDist !== undefined && existsSync(path.join(adminDist, 'index.html'));
  if (adminDist && hasAdmin) {
    await app.register(fastifyStatic, {
      root: adminDist,
      prefix: '/admin/',
      wildcard: false,
      index: false,
      preCompressed: true,
      // One reply.sendFile for the whole app: the shop's registration adds it when there is a shop.
      decorateReply: !hasSpa,
      setHeaders(reply, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        } else {
          reply.headers(ADMIN_PAGE_HEADERS);
        }
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
  app.setNotFoundHandler({ preHandler: notFoundLimit }, async (request: FastifyRequest, reply: FastifyReply) => {
    // HEAD too: link checkers and uptime monitors ask for a page's headers only.
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(request.url) &&
      !request.url.startsWith('/static/');
    if (wantsPage && isAdminPath(request.url)) {
      // A missing script or style of the console is missing, not a page.
      if (adminDist && hasAdmin && !request.url.startsWith('/admin/assets/')) {
        // Read, not sent through the shop's static files, whose headers would replace the console's.
        const page = await readFile(path.join(adminDist, 'index.html'));
        return reply.headers(ADMIN_PAGE_HEADERS).type('text/html; charset=utf-8').send(page);
      }
      return reply.code(404).send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
    }
    if (hasSpa && wantsPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', webDist);
    }
    return reply.code(404).send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
  });
});
