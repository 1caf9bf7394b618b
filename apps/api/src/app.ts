import { randomUUID } from 'node:crypto';
import {
  CategoryListingResponseSchema,
  ProductListResponseSchema,
  SearchHintsResponseSchema,
  SearchResponseSchema,
} from '@store/contract';
import { createDevMailbox, type DevMailbox, type JobQueue, type Store } from '@store/core';
import { assetsDir, type Database } from '@store/db';
import Fastify, {
  type FastifyError,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import { createSerializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type { Env } from './env.ts';
import adminAuth from './plugins/admin-auth.ts';
import auth from './plugins/auth.ts';
import errorHandler from './plugins/error-handler.ts';
import external from './plugins/external.ts';
import inputGuard from './plugins/input-guard.ts';
import jsonBody from './plugins/json-body.ts';
import loginThrottle from './plugins/login-throttle.ts';
import metrics from './plugins/metrics.ts';
import paymentsSandbox, { usesEmbeddedSandbox } from './plugins/payments-sandbox.ts';
import services from './plugins/services.ts';
import web from './plugins/web.ts';
import accountRoutes from './routes/account-routes.ts';
import adminRoutes from './routes/admin/admin-routes.ts';
import codeStockRoutes from './routes/admin/code-stock-routes.ts';
import customerRoutes from './routes/admin/customer-routes.ts';
import dashboardRoutes from './routes/admin/dashboard-routes.ts';
import productRoutes from './routes/admin/product-routes.ts';
import adminPromoRoutes from './routes/admin/promo-routes.ts';
import basketRoutes from './routes/basket-routes.ts';
import callbackRoutes from './routes/callback-routes.ts';
import cardTypeRoutes from './routes/card-type-routes.ts';
import catalogueRoutes from './routes/catalogue-routes.ts';
import deliveryRoutes from './routes/delivery-routes.ts';
import devMailboxRoutes from './routes/dev-mailbox-routes.ts';
import healthRoutes from './routes/health-routes.ts';
import orderHistoryRoutes from './routes/order-history-routes.ts';
import orderRoutes from './routes/order-routes.ts';
import paymentRoutes from './routes/payment-routes.ts';
import profileRoutes from './routes/profile-routes.ts';
import promoRoutes from './routes/promo-routes.ts';
import reviewRoutes from './routes/review-routes.ts';
import searchRoutes from './routes/search-routes.ts';

export interface AppDeps {
  env: Env;
  database: Database;
  queue: JobQueue;
  /** The store made over them (createStore), shared with the jobs run in this process; made here when absent. */
  store?: Store;
  redis?: Redis;
  logger?: FastifyServerOptions['logger'];
  /** Prefix of the rate-limit counters in Redis; tests give each run its own. */
  rateLimitNamespace?: string;
  /** What this process's outbox mailer delivered, shown by the dev mailbox (see devMailboxEnabled). */
  devMailbox?: DevMailbox;
  /** Sees every route as it is registered: the bad-input sweep finds what to try this way. */
  onRoute?: (route: RouteOptions) => void;
  /** Traces are on (startTracing found an endpoint): every request is a span of its own trace. */
  tracing?: boolean;
}

/**
 * The dev mailbox runs in development without SMTP only: it shows every reset link, so it never runs
 * in production, nor where real mail goes out (the mail server's own inbox, Mailpit in
 * docker-compose, is the place to read it there).
 */
export function devMailboxEnabled(env: Env): boolean {
  return env.NODE_ENV !== 'production' && !env.SMTP_URL;
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
  // The providers' callback signatures (Standard Webhooks, Stripe, Payselection).
  'req.headers["webhook-signature"]',
  'req.headers["stripe-signature"]',
  'req.headers["x-webhook-signature"]',
  'req.headers.signature',
  // The providers' settings, should an object holding them be logged.
  '*.apiKey',
  '*.secretKey',
  '*.webhookSecrets',
  '*.SANDBOX_API_KEY',
  '*.PAYMENTS_WEBHOOK_SECRETS',
  '*.STRIPE_SECRET_KEY',
  '*.STRIPE_WEBHOOK_SECRETS',
  '*.PAYSELECTION_SECRET_KEY',
  '*.PAYSELECTION_WEBHOOK_SECRETS',
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

const REDACTED = '[redacted]';
/** The shape of every emailed token (EmailTokenSchema): 32 random bytes in base64url. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** Path segments whose next segment is an emailed token, of the API and of the web app's links. */
const TOKEN_PATH_PARENTS = new Set([
  'password-reset',
  'verify-email',
  'email-update-confirmation',
  'undo',
  'email-change-undo',
]);
/** Query parameters of emailed links: accountToken, emailToken, passwordToken, and any other *token*. */
const TOKEN_PARAMETER = /token/i;

/** Decoded as the router and URLSearchParams decode it, so `%41…` hides no token; malformed stays as sent. */
function decodePart(part: string): string {
  try {
    return decodeURIComponent(part.replaceAll('+', ' '));
  } catch {
    return part;
  }
}

/**
 * Emailed tokens travel in paths (`/password-reset/{token}`) and query strings (`/?accountToken=…`):
 * the log keeps the rest of the URL only. Whatever follows a token route is masked, a mistyped token
 * being most of a real one, and so is any segment or value that decodes to a token's shape and any
 * value of a parameter named like a token, however the client encoded or cased it.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const segments = (queryAt === -1 ? url : url.slice(0, queryAt)).split('/');
  const path = segments
    .map((segment, index) => {
      if (!segment) return segment;
      const parent = decodePart(segments[index - 1] ?? '').toLowerCase();
      return TOKEN_PATH_PARENTS.has(parent) || TOKEN_SHAPE.test(decodePart(segment)) ? REDACTED : segment;
    })
    .join('/');
  if (queryAt === -1) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      const value = equals === -1 ? '' : pair.slice(equals + 1);
      if (TOKEN_SHAPE.test(decodePart(name))) return REDACTED;
      if (equals === -1) return pair;
      return TOKEN_PARAMETER.test(decodePart(name)) || TOKEN_SHAPE.test(decodePart(value))
        ? `${name}=${REDACTED}`
        : pair;
    })
    .join('&');
  return `${path}?${query}`;
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
 * TRUST_PROXY for Fastify. A hop count becomes proxy-addr's own test (trust that many addresses,
 * counted from the socket): Fastify 5 takes no bare number any more, since a count trusts
 * whoever connects, proxy or not. That is right only where the proxies are the sole way in; where
 * the store can be reached directly, TRUST_PROXY lists the proxies' addresses instead.
 */
function trustProxyOption(setting: Env['TRUST_PROXY']): FastifyServerOptions['trustProxy'] {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

/**
 * Listings, search results and hints: the store's hottest answers, built field by field from the
 * search index (toProductSummary and its like name every field). Checking each one against its
 * contract costs twice what writing its JSON does, so production writes them as they are. Everywhere
 * else (development and every test run) they are checked like every other answer, and a test
 * compares both ways of writing them over the same data.
 */
const INDEX_BUILT_RESPONSES: ReadonlySet<unknown> = new Set([
  CategoryListingResponseSchema,
  ProductListResponseSchema,
  SearchResponseSchema,
  SearchHintsResponseSchema,
]);

/**
 * The zod serializer: checks a response against its contract schema (unknown fields never leave)
 * and writes it. It remembers the JSON of each response object: a listing served from the
 * catalogue's cache is written once, not on every request; responses are never mutated after they
 * are sent, so the memo cannot go stale. With `checkIndexBuilt` off, INDEX_BUILT_RESPONSES are
 * written unchecked.
 */
export function responseSerializerCompiler({
  checkIndexBuilt,
}: {
  checkIndexBuilt: boolean;
}): ReturnType<typeof createSerializerCompiler> {
  const compile = createSerializerCompiler();
  return (route) => {
    const serialize =
      !checkIndexBuilt && INDEX_BUILT_RESPONSES.has(route.schema)
        ? (data: unknown) => JSON.stringify(data)
        : compile(route);
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
 * passes: external, then the app's own (dependencies, input checks), then routes; the error handler
 * comes before all three.
 */
export async function buildApp({
  env,
  database,
  queue,
  store,
  redis,
  logger,
  rateLimitNamespace,
  devMailbox,
  onRoute,
  tracing = false,
}: AppDeps) {
  const app = Fastify({
    logger: logger ?? loggerOptions(env),
    genReqId: () => randomUUID(),
    requestIdHeader: 'x-request-id',
    trustProxy: trustProxyOption(env.TRUST_PROXY),
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
  if (onRoute) app.addHook('onRoute', onRoute);
  // Before any route, so that every one is traced; the probes and the metrics' scrape are not.
  if (tracing) {
    // Loaded only with traces on, like the SDK (startTracing).
    const { FastifyOtelInstrumentation } = await import('@fastify/otel');
    const otel = new FastifyOtelInstrumentation({
      ignorePaths: ({ url }) => url === '/health' || url === '/ready' || url === '/metrics',
    });
    await app.register(otel.plugin());
  }
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ checkIndexBuilt: env.NODE_ENV !== 'production' }));

  // First: a context takes the error handler that is set when it is made, so the third-party
  // plugins' own routes (CORS preflight, the OpenAPI pages) answer in the same shapes as ours.
  await app.register(errorHandler);
  await app.register(external, { env, redis, rateLimitNamespace });

  await app.register(services, { env, database, queue, redis, store });
  await app.register(jsonBody);
  await app.register(inputGuard);
  await app.register(auth);
  if (!app.store.staff) throw new Error('the API needs a store with the code key');
  await app.register(adminAuth, { staff: app.store.staff });
  await app.register(loginThrottle);

  await app.register(healthRoutes);
  await app.register(metrics, { token: env.METRICS_TOKEN });
  // Emailed links for developers and browser tests. Without a mailbox of this process (the worker
  // delivers), it still lists what the outbox holds, sent messages without their body.
  if (devMailboxEnabled(env)) await app.register(devMailboxRoutes, { mailbox: devMailbox ?? createDevMailbox() });
  if (usesEmbeddedSandbox(env)) await app.register(paymentsSandbox, { env });
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
      await api.register(basketRoutes);
      await api.register(promoRoutes);
      await api.register(cardTypeRoutes);
      await api.register(orderRoutes);
      await api.register(paymentRoutes);
      await api.register(callbackRoutes);
      await api.register(deliveryRoutes);
      await api.register(orderHistoryRoutes);
      await api.register(adminRoutes, { prefix: '/admin', store: app.store });
      await api.register(codeStockRoutes, { prefix: '/admin', store: app.store });
      await api.register(customerRoutes, { prefix: '/admin', store: app.store });
      await api.register(dashboardRoutes, { prefix: '/admin', store: app.store });
      await api.register(productRoutes, { prefix: '/admin', store: app.store });
      await api.register(adminPromoRoutes, { prefix: '/admin', store: app.store });
    },
    { prefix: '/api' },
  );
  await app.register(web, { assetsDir, webDist: env.WEB_DIST, adminDist: env.ADMIN_DIST });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
