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

const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

export interface ExternalPluginOptions {
  env: Env;
  redis?: Redis;
  rateLimitNamespace?: string;
}

/** Third-party plugins: security headers, CORS, rate limits and the OpenAPI document. */
export default fp(async function external(
  app: FastifyInstance,
  { env, redis, rateLimitNamespace = 'store-rate-limit:' }: ExternalPluginOptions,
) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        // Radix positions popovers with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  await app.register(cors, { origin: env.CORS_ORIGINS.length ? env.CORS_ORIGINS : false, credentials: false });
  await app.register(rateLimitPlugin, {
    global: true,
    ...rateLimit('read', env.RATE_LIMIT_SCALE),
    ...(redis ? { redis, nameSpace: rateLimitNamespace } : {}),
    skipOnError: true,
    // Only the API is limited: a page view fetches dozens of fingerprinted scripts, styles and
    // covers, which are cheap to serve and cached by the browser and any proxy in front.
    allowList: (request) => !isApiPath(request.url),
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
