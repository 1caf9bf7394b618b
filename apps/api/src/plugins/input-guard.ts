import { ErrorKeys, hasForbiddenCharacters } from '@store/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { validationBody } from './error-handler.ts';

/** Enough fields to show what is wrong; a body full of bad strings does not get a body full of errors. */
const MAX_REPORTED = 20;

/**
 * Dotted paths (`products.0.name`, as the error handler names zod's issues) of the strings in
 * `value` that hold a character no text may hold, keys included (a bad key is reported under its
 * object). Walked with a stack, not recursion: a 64 KB body can nest thirty thousand levels deep.
 */
export function pathsOfForbiddenText(value: unknown, root: string, limit = MAX_REPORTED): string[] {
  const found = new Set<string>();
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0 && found.size < limit) {
    const [node, path] = stack.pop() as [unknown, string];
    if (typeof node === 'string') {
      if (hasForbiddenCharacters(node)) found.add(path || root);
    } else if (node instanceof Uint8Array) {
      // A body kept raw (the provider's signed callback) is bytes, not text: its route reads it.
    } else if (Array.isArray(node)) {
      for (let index = node.length - 1; index >= 0; index--) stack.push([node[index], join(path, String(index))]);
    } else if (typeof node === 'object' && node !== null) {
      const keys = Object.keys(node);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index] as string;
        if (hasForbiddenCharacters(key)) found.add(path || root);
        else stack.push([(node as Record<string, unknown>)[key], join(path, key)]);
      }
    }
  }
  return [...found];
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** A query whose percent-encoding is not UTF-8 (`%E0%A4%A`, a lone `%`); the parser would keep it raw. */
function hasMalformedQuery(url: string): boolean {
  const start = url.indexOf('?');
  if (start === -1 || !url.includes('%', start)) return false;
  try {
    decodeURIComponent(url.slice(start + 1));
    return false;
  } catch {
    return true;
  }
}

/**
 * Routes of another party mounted in this process (the embedded payment sandbox, see
 * payments-sandbox.ts) read their requests by their own rules, as they would standalone.
 */
export function isThirdPartyRoute(request: FastifyRequest): boolean {
  return (request.routeOptions.config as { thirdParty?: boolean } | undefined)?.thirdParty === true;
}

/**
 * One gate for the text of every request, before any route's schema runs: a path parameter, query
 * value or body string (or key) holding NUL, another control character or a lone surrogate is
 * refused with a 422 naming each field (contract's cleanText() is the same rule, per field, for the
 * forms). Without it such text reached PostgreSQL, which cannot store NUL, and came back as a 500;
 * with it, a new route is covered the day it is added. A route that reads its query refuses one
 * that cannot be decoded, as the router refuses such a path.
 */
export default fp(
  async function inputGuard(app: FastifyInstance) {
    app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
      if (isThirdPartyRoute(request)) return;
      if (request.routeOptions.schema?.querystring && hasMalformedQuery(request.url)) {
        return reply.code(400).send({ message: 'The request URL is malformed.' });
      }
      const errors: Record<string, string[]> = {};
      for (const [value, root] of [
        [request.params, 'params'],
        [request.query, 'query'],
        [request.body, 'body'],
      ] as const) {
        for (const path of pathsOfForbiddenText(value, root)) errors[path] = [ErrorKeys.invalidCharacters];
      }
      // Answered here rather than thrown: a plugin with an error handler of its own (the embedded
      // sandbox provider) would not know this error and answer 500.
      if (Object.keys(errors).length > 0) return reply.code(422).send(validationBody(errors));
    });
  },
  { name: 'input-guard' },
);
