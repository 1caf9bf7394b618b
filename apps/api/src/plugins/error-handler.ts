import { ErrorKeys, ErrorTexts, isErrorKey, type ValidationErrorBody } from '@store/contract';
import { AppError, ValidationError } from '@store/core';
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
function keyForIssue(keyword: string, message: string, params: Record<string, unknown>): string {
  if (isErrorKey(message)) return message;
  switch (keyword) {
    case 'invalid_type':
      return params.input === undefined ? ErrorKeys.requiredField : ErrorKeys.invalidValue;
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
 * One table from error class to status and body (SPEC.md section 8 shapes). Anything unexpected is
 * a 500 with a generic message and the request id; the details go only to the log.
 */
export default fp(async function errorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'input';
        const key = keyForIssue(issue.keyword, issue.message ?? '', issue.params as Record<string, unknown>);
        const list = errors[field] ?? [];
        if (!list.includes(key)) errors[field] = [...list, key];
      }
      return sendValidation(reply, errors);
    }
    if (error instanceof ValidationError) {
      if (error.message === GENERIC_VALIDATION_MESSAGE) return sendValidation(reply, error.errors);
      return reply.code(422).send({ message: error.message, errors: error.errors });
    }
    if (error instanceof AppError) {
      return reply.code(STATUS_BY_KIND[error.kind]).send({ message: error.message });
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
