/**
 * Typed errors thrown by core services. The HTTP layer maps each class to a status code through one
 * table; core knows nothing about HTTP.
 */
export abstract class AppError extends Error {
  abstract readonly kind: 'validation' | 'not_found' | 'conflict' | 'unauthorized' | 'forbidden';
}

/**
 * A field-level problem: `key` is a message key from the contract's ErrorKeys. `details` are further
 * fields of the 422 body that a contract schema names (a refused promo code's `reason`).
 */
export class ValidationError extends AppError {
  readonly kind = 'validation';
  constructor(
    readonly errors: Record<string, string[]>,
    message = 'The given data was invalid.',
    readonly details: Record<string, string> = {},
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
  /** `code` tells the client which state to show (the contract names the codes). */
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export class UnauthorizedError extends AppError {
  readonly kind = 'unauthorized';
  /** `code` tells the client which hint to show (the contract names the codes). */
  constructor(
    message = 'Unauthenticated.',
    readonly code?: string,
  ) {
    super(message);
  }
}

export class ForbiddenError extends AppError {
  readonly kind = 'forbidden';
}
