import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** What JSON allows around a value: a body of only this is no value at all. */
const JSON_WHITESPACE = /^[ \t\n\r]*$/;

/**
 * JSON bodies as the web app sends them (docs/api.md, "Conventions"): it sets
 * `Content-Type: application/json` on every call, also on those without a payload (POST /logout),
 * so an empty body with that type is no body, not a malformed one. A route that takes a body and
 * gets none answers as if it got `{}`: a 422 naming each missing field, not one error for "body".
 */
export default fp(
  async function jsonBody(app: FastifyInstance) {
    // Fastify's own parser (secure-json-parse, prototype poisoning refused) for everything else.
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body as string;
      if (JSON_WHITESPACE.test(text)) return done(null, undefined);
      return parseJson(request, text, done);
    });

    app.addHook('preValidation', async (request) => {
      if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
    });
  },
  { name: 'json-body' },
);
