import { randomUUID } from 'node:crypto';
import type { JobQueue } from '@store/core';
import { assetsDir, type Database } from '@store/db';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { createSerializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type { Env } from './env.ts';
import auth from './plugins/auth.ts';
import errorHandler from './plugins/error-handler.ts';
import external from './plugins/external.ts';
import services from './plugins/services.ts';
import web from './plugins/web.ts';
import accountRoutes from './routes/account-routes.ts';
import catalogueRoutes from './routes/catalogue-routes.ts';
import devMailboxRoutes from './routes/dev-mailbox-routes.ts';
import healthRoutes from './routes/health-routes.ts';
import profileRoutes from './routes/profile-routes.ts';
import reviewRoutes from './routes/review-routes.ts';
import searchRoutes from './routes/search-routes.ts';

export interface AppDeps {
  env: Env;
  database: Database;
  queue: JobQueue;
  redis?: Redis;
  logger?: FastifyServerOptions['logger'];
  /** Prefix of the rate-limit counters in Redis; tests give each run its own. */
  rateLimitNamespace?: string;
}

/** Security headers of every JSON response: nothing in it may be framed, sniffed or run. */
export const API_SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
} as const;

/** Secrets never reach the log: tokens, passwords, codes and card data are censored by path. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.newPassword',
  '*.password_confirmation',
  '*.new_password_confirmation',
  '*.token',
  '*.code',
  '*.codes',
  '*.card_number',
  '*.cvc',
  '*.passwordHash',
];

/** Emailed tokens travel in some paths (PATCH /password-reset/{token}): the log keeps the route only. */
export function redactUrl(url: string): string {
  return url.replace(/\/[A-Za-z0-9_-]{43}(?=[/?#]|$)/g, '/[redacted]');
}

export function loggerOptions(env: Env): FastifyServerOptions['logger'] {
  return {
    level: env.LOG_LEVEL,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}

/**
 * The zod serializer (checks every response against its contract schema), remembering the JSON of
 * each response object: a listing served from the catalogue's cache is checked and stringified once,
 * not on every request. Responses are never mutated after they are sent, so the memo cannot go stale.
 */
function memoizedSerializerCompiler(): ReturnType<typeof createSerializerCompiler> {
  const compile = createSerializerCompiler();
  return (route) => {
    const serialize = compile(route);
    const memo = new WeakMap<object, string>();
    return (data: unknown) => {
      if (typeof data !== 'object' || data === null) return serialize(data);
      let json = memo.get(data);
      if (json === undefined) {
        json = serialize(data);
        memo.set(data, json);
      }
      return json;
    };
  };
}

/**
 * Builds the app without listening: tests call this and use `app.inject`. Plugins load in three
 * passes: external, then the app's own (dependencies, error handling), then routes.
 */
export async function buildApp({ env, database, queue, redis, logger, rateLimitNamespace }: AppDeps) {
  const app = Fastify({
    logger: logger ?? loggerOptions(env),
    genReqId: () => randomUUID(),
    requestIdHeader: 'x-request-id',
    trustProxy: env.TRUST_PROXY,
    // Search text arrives as a path parameter; URL-encoded Devanagari takes nine bytes a letter.
    routerOptions: { maxParamLength: 2_048, ignoreTrailingSlash: true },
    bodyLimit: 64 * 1024,
    // Errors raised before routing (malformed or overlong URLs) get the same body shape as the rest.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      const status = error.statusCode ?? 400;
      reply
        .code(status)
        .send({ message: status === 414 ? 'The request URL is too long.' : 'The request URL is malformed.' });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(memoizedSerializerCompiler());

  await app.register(external, { env, redis, rateLimitNamespace });

  await app.register(services, { env, database, queue, redis });
  await app.register(errorHandler);
  await app.register(auth);

  await app.register(healthRoutes);
  // Emailed links for developers and browser tests, in development without SMTP only: it shows
  // every reset link, so it never runs in production, nor where real mail goes out (the mail
  // server's own inbox, Mailpit in docker-compose, is the place to read it there).
  if (env.NODE_ENV !== 'production' && !env.SMTP_URL) await app.register(devMailboxRoutes);
  await app.register(
    async (api) => {
      // JSON needs a fixed handful of security headers, not helmet's per-request CSP work.
      api.addHook('onRoute', (route) => {
        route.config = { ...(route.config as object), helmet: { skipRoute: true } } as typeof route.config;
      });
      api.addHook('onRequest', async (_request, reply) => {
        reply.headers(API_SECURITY_HEADERS);
      });
      await api.register(catalogueRoutes);
      await api.register(searchRoutes);
      await api.register(accountRoutes);
      await api.register(profileRoutes);
      await api.register(reviewRoutes);
    },
    { prefix: '/api' },
  );
  await app.register(web, { assetsDir, webDist: env.WEB_DIST });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
