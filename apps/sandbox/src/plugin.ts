import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SandboxContext } from './context.ts';
import type { SandboxOptions } from './options.ts';
import { apiRoutes } from './routes/api-routes.ts';
import { hostedRoutes } from './routes/hosted-routes.ts';
import { threeDsRoutes } from './routes/three-ds-routes.ts';
import { transferRoutes } from './routes/transfer-routes.ts';
import { widgetRoutes } from './routes/widget-routes.ts';
import { errorPage } from './views.ts';

const FORM_BODY_LIMIT = 64 * 1024;

/** JSON for the server API, the admin calls and the widget's session; pages for everything else. */
const wantsJson = (request: FastifyRequest) => {
  const path = request.routeOptions.url ?? request.url;
  return /\/(api\/v1|admin)\//.test(path) || path.endsWith('/widget/sessions');
};

/**
 * The sandbox payment provider as a Fastify plugin, encapsulated: register it under its own prefix
 * (`app.register(sandboxPlugin, { prefix: '/sandbox', ...options })`) in the store's process, or alone
 * in server.ts. It keeps its state in memory and talks to the store only over HTTP: the store calls
 * its API, browsers open its pages, and it sends signed callbacks to the store's callback URL.
 *
 * It sets its own security headers on every answer. Where it shares a process with the store, the
 * store's helmet skips its routes: its pages run inline scripts under their own nonce and the widget's
 * frame may be framed by the store, neither of which the store's own policy allows, nor should.
 */
export async function sandboxPlugin(app: FastifyInstance, options: SandboxOptions) {
  const ctx = new SandboxContext(options, app.log);

  // Hidden from a host's OpenAPI document: the sandbox is another party's API, not the store's.
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object), helmet: { skipRoute: true } } as typeof route.config;
    route.schema = { ...route.schema, hide: true } as typeof route.schema;
  });
  app.addHook('onClose', async () => ctx.close());

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'sandbox failed');
    if (wantsJson(request)) {
      return ctx.sendJson(reply, status, {
        message: status === 500 ? 'The sandbox failed; see its log.' : error.message,
      });
    }
    // A browser gets the error in its language; Fastify's own (English) message is for programs.
    const locale = ctx.locale(request);
    const { t } = locale;
    return ctx.sendPage(
      reply,
      locale,
      status,
      t.errorTitle,
      errorPage(t.errorHeading, status === 500 ? t.errorServer : t.errorRequest),
    );
  });

  app.setNotFoundHandler((request, reply) => {
    if (wantsJson(request)) return ctx.sendJson(reply, 404, { message: 'Not found.' });
    const locale = ctx.locale(request);
    return ctx.sendPage(
      reply,
      locale,
      404,
      locale.t.notFoundTitle,
      errorPage(locale.t.notFoundTitle, locale.t.noSuchPage),
    );
  });

  apiRoutes(app, ctx);
  widgetRoutes(app, ctx);
  hostedRoutes(app, ctx);
  threeDsRoutes(app, ctx);
  transferRoutes(app, ctx);
}
