import { ErrorKeys, ErrorTexts, isAdminErrorKey, isErrorKey, type ValidationErrorBody } from '@store/contract';
import {
  AppError,
  ConflictError,
  PaymentProviderUnavailableError,
  UnauthorizedError,
  ValidationError,
} from '@store/core';
import { isDatabaseBusy, isServerUnreachable } from '@store/db';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

const STATUS_BY_KIND: Record<AppError['kind'], number> = {
  validation: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
};

/** Zod issue codes mapped to message keys, for issues whose schema did not name a key itself. */
function keyForIssue(keyword: string, message: string, params: Record<string, unknown>, input: unknown): string {
  if (isErrorKey(message) || isAdminErrorKey(message)) return message;
  switch (keyword) {
    case 'invalid_type':
      return input === undefined ? ErrorKeys.requiredField : ErrorKeys.invalidValue;
    case 'too_big':
      return params.origin === 'string' ? ErrorKeys.tooLong : ErrorKeys.tooLarge;
    case 'too_small':
      return params.origin === 'string' ? ErrorKeys.tooShort : ErrorKeys.tooSmall;
    case 'invalid_value':
      return ErrorKeys.unknownOption;
    default:
      return ErrorKeys.invalidValue;
  }
}

/**
 * "The database is too busy now" (isDatabaseBusy): no connection came free in time, or a Prisma
 * transaction could not start or ran out of time and was rolled back. Nothing was written, so the
 * client may send the same request again.
 */
const BUSY_RETRY_AFTER_SECONDS = 2;

/**
 * PostgreSQL or Redis cannot be reached now (isServerUnreachable): a restart or a failover takes a
 * few seconds, and the app picks up new connections by itself once it is back. A 503 tells the
 * client, and the payment provider's callbacks, to send it again later, where a 500 would say the
 * request itself broke something.
 */
const UNREACHABLE_RETRY_AFTER_SECONDS = 5;

/** The payment provider did not answer: its timeouts and restarts are short too. */
const PROVIDER_RETRY_AFTER_SECONDS = 5;

/** The part of the request a schema checked, by Fastify's name for it. */
function validated(request: FastifyRequest, context: string | undefined): unknown {
  switch (context) {
    case 'body':
      return request.body;
    case 'querystring':
      return request.query;
    case 'params':
      return request.params;
    case 'headers':
      return request.headers;
    default:
      return undefined;
  }
}

/**
 * The value at a zod issue's path (`/products/0/id`): zod leaves the input out of its issues, and a
 * field that is missing is told apart from one of the wrong type by it.
 */
function valueAt(root: unknown, instancePath: string): unknown {
  let node = root;
  for (const key of instancePath.split('/').filter(Boolean)) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** ValidationError's own default message: a service that words a message of its own keeps it. */
const GENERIC_VALIDATION_MESSAGE = 'The given data was invalid.';

export function validationBody(
  errors: Record<string, string[]>,
  fallback = GENERIC_VALIDATION_MESSAGE,
): ValidationErrorBody {
  const [field, keys] = Object.entries(errors)[0] ?? [];
  const first = keys?.[0];
  const text = first && isErrorKey(first) ? ErrorTexts[first] : undefined;
  return { message: field && text ? `${field}: ${text}` : fallback, errors };
}

function sendValidation(reply: FastifyReply, errors: Record<string, string[]>) {
  return reply.code(422).send(validationBody(errors));
}

/**
 * One table from error class to status and body (the shapes of docs/api.md, "Errors"). Anything
 * unexpected is a 500 with a generic message and the request id; the details go only to the log.
 */
export default fp(async function errorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string[]> = {};
      const input = validated(request, error.validationContext);
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'input';
        const key = keyForIssue(
          issue.keyword,
          issue.message ?? '',
          issue.params as Record<string, unknown>,
          valueAt(input, issue.instancePath),
        );
        const list = errors[field] ?? [];
        if (!list.includes(key)) errors[field] = [...list, key];
      }
      return sendValidation(reply, errors);
    }
    if (error instanceof ValidationError) {
      const body =
        error.message === GENERIC_VALIDATION_MESSAGE
          ? validationBody(error.errors)
          : { message: error.message, errors: error.errors };
      return reply.code(422).send({ ...body, ...error.details });
    }
    if ((error instanceof UnauthorizedError || error instanceof ConflictError) && error.code) {
      return reply.code(STATUS_BY_KIND[error.kind]).send({ message: error.message, code: error.code });
    }
    if (error instanceof AppError) {
      return reply.code(STATUS_BY_KIND[error.kind]).send({ message: error.message });
    }
    if (error instanceof PaymentProviderUnavailableError) {
      // Nothing is known of the payment; the same attempt may be sent again (its key is the same).
      request.log.warn({ err: error }, 'payment provider unavailable');
      return reply
        .code(503)
        .header('retry-after', String(PROVIDER_RETRY_AFTER_SECONDS))
        .send({ message: 'The payment provider cannot be reached now. Please try again.' });
    }
    if (isDatabaseBusy(error)) {
      request.log.warn({ err: error }, 'database busy');
      return reply
        .code(503)
        .header('retry-after', String(BUSY_RETRY_AFTER_SECONDS))
        .send({ message: 'The store is very busy right now. Please try again in a moment.' });
    }
    if (isServerUnreachable(error)) {
      request.log.warn({ err: error }, 'database or Redis unreachable');
      return reply
        .code(503)
        .header('retry-after', String(UNREACHABLE_RETRY_AFTER_SECONDS))
        .send({ message: 'The store is unavailable for a moment. Please try again shortly.' });
    }
    if (error.statusCode === 429) {
      return reply.code(429).send({ message: error.message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, unsupported media type, body too large...
      request.log.info({ code: error.code, msg: error.message }, 'client error');
      return reply.code(status).send({ message: error.message, code: error.code });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ message: 'Something went wrong on our side.', requestId: request.id });
  });
});
