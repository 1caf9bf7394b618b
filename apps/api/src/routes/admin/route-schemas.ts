import { MessageErrorSchema, ValidationErrorSchema } from '@store/contract';

// What every console route answers besides its own answer, and how its docs are grouped: one
// place for the console's route files (docs/console.md).

/** No staff token, a role without the permission, or too many requests. */
export const denied = { 401: MessageErrorSchema, 403: MessageErrorSchema, 429: MessageErrorSchema };
/** Bad input, with an error per field. */
export const invalid = { 422: ValidationErrorSchema };
export const missing = { 404: MessageErrorSchema };
export const conflict = { 409: MessageErrorSchema };
/** The console's routes in the API's docs: grouped apart, each with the staff bearer token. */
export const adminTags = ['admin'];
export const adminSecurity = [{ bearer: [] }];
