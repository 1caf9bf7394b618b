import { constants as zlib } from 'node:zlib';
import compress, { type FastifyCompressOptions } from '@fastify/compress';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimitPlugin from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type { Env } from '../env.ts';
import { rateLimit } from './rate-limit-presets.ts';
import { sharedRateLimitStore } from './rate-limit-store.ts';

/**
 * Whether the route the router matched is part of the API. Decided on the route's own path, never on
 * the request target: `http://x/api/login`, `/%61pi/login` and `/api/login` all reach one route,
 * and a limit that read the target string could be stepped around by spelling it differently.
 */
const isApiRoute = (routePath: string | undefined) =>
  routePath !== undefined && (routePath === '/api' || routePath.startsWith('/api/'));

export interface ExternalPluginOptions {
  env: Env;
  redis?: Redis;
  rateLimitNamespace?: string;
}

/**
 * Responses a browser may take compressed: above a kilobyte (a page of the catalogue is ~20 KB of
 * JSON, a tenth of that compressed). Brotli at quality 4 compresses about as fast as gzip's
 * default and smaller; the web app's files are compressed once, at build time, at the highest
 * levels (see plugins/web.ts).
 */
const COMPRESSION: FastifyCompressOptions = {
  global: true,
  globalDecompression: false,
  threshold: 1024,
  encodings: ['br', 'gzip'],
  brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  zlibOptions: { level: 6 },
};

/** Third-party plugins: compression, security headers, CORS, rate limits and the OpenAPI document. */
export default fp(async function external(
  app: FastifyInstance,
  { env, redis, rateLimitNamespace = 'store-rate-limit:' }: ExternalPluginOptions,
) {
  // Before @fastify/static (registered by plugins/web.ts), as @fastify/compress requires.
  await app.register(compress, COMPRESSION);
  // Bodies are at most 64 KB of JSON: nothing gains from compressing them, and inflating them
  // would let a small request become a large one.
  app.addHook('onRequest', async (request, reply) => {
    const encoding = request.headers['content-encoding'];
    if (encoding && encoding.trim().toLowerCase() !== 'identity') {
      return reply.code(415).send({ message: 'Request bodies are accepted uncompressed only.' });
    }
  });
  // A payment provider on another origin (the standalone sandbox): the checkout loads its widget
  // script, calls it, frames its card form and posts forms to it (the hosted page, 3-D Secure).
  // Embedded, it is under this origin's /sandbox, which 'self' covers.
  const provider = env.SANDBOX_URL ? [new URL(env.SANDBOX_PUBLIC_URL ?? env.SANDBOX_URL).origin] : [];
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        // Radix positions popovers with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'", ...provider],
        connectSrc: ["'self'", ...provider],
        frameSrc: ["'self'", ...provider],
        formAction: ["'self'", ...provider],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  await app.register(cors, { origin: env.CORS_ORIGINS.length ? env.CORS_ORIGINS : false, credentials: false });
  await app.register(rateLimitPlugin, {
    global: true,
    ...rateLimit('read', env.RATE_LIMIT_SCALE),
    store: sharedRateLimitStore({
      redis,
      namespace: rateLimitNamespace,
      timeoutMs: env.RATE_LIMIT_REDIS_TIMEOUT_MS,
      logger: app.log,
    }),
    // Only the API, and routes that name a limit of their own (/ready), are limited: a page view
    // fetches dozens of fingerprinted scripts, styles and covers, which are cheap to serve and
    // cached by the browser and any proxy in front. Requests that match no route are limited by
    // the not-found handler (plugins/web.ts).
    allowList: (request) =>
      !isApiRoute(request.routeOptions.url) && typeof request.routeOptions.config.rateLimit !== 'object',
    // The limit headers go on the 429 (with retry-after) only: nine headers on every catalogue read
    // cost more than they tell a browser.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many requests. Please try again in ${context.after}.`,
    }),
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Store API',
        description: 'Gift cards and top-ups: catalogue, accounts, orders.',
        version: '1.0.0',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
