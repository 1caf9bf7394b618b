/**
 * Typed errors thrown by core services. The HTTP layer maps each class to a status code through one
 * table; core knows nothing about HTTP.
 */
export abstract class AppError extends Error {
  abstract readonly kind: 'validation' | 'not_found' | 'conflict' | 'unauthorized' | 'forbidden';
}

/** A field-level problem: `key` is a message key from the contract's ErrorKeys. */
export class ValidationError extends AppError {
  readonly kind = 'validation';
  constructor(
    readonly errors: Record<string, string[]>,
    message = 'The given data was invalid.',
  ) {
    super(message);
  }

  static field(field: string, key: string, message?: string) {
    return new ValidationError({ [field]: [key] }, message);
  }
}

export class NotFoundError extends AppError {
  readonly kind = 'not_found';
  constructor(readonly entity: string) {
    super(`${entity} not found`);
  }
}

export class ConflictError extends AppError {
  readonly kind = 'conflict';
}

export class UnauthorizedError extends AppError {
  readonly kind = 'unauthorized';
  constructor(message = 'Unauthenticated.') {
    super(message);
  }
}

export class ForbiddenError extends AppError {
  readonly kind = 'forbidden';
}
