import { ApiError } from './api.ts';
import type { Translate } from './translator.ts';

/** A message key of the API (`admin.totpInvalid`, `validation.tooShort`) in the console's language. */
export function keyText(t: Translate, key: string): string {
  const text = t(`errors.${key}`);
  return text === `errors.${key}` ? t('errors.invalid') : text;
}

/** What went wrong, for a page's or a form's error line: the API's reason where it gives one. */
export function errorText(t: Translate, error: unknown): string {
  if (!(error instanceof ApiError)) return t('errors.network');
  if (error.status === 429) {
    return error.retryAfter ? t('errors.rateLimited', { seconds: error.retryAfter }) : t('errors.rateLimitedSoon');
  }
  if (error.code) {
    const text = t(`errors.${error.code}`);
    if (text !== `errors.${error.code}`) return text;
  }
  if (error.status === 401) return t('errors.admin.unauthorized');
  if (error.status === 403) return t('errors.admin.forbidden');
  if (error.status === 404) return t('common.notFound');
  // A form sent again under its idempotency key: what the first one did stands.
  if (error.status === 409) return t('errors.conflict');
  if (error.status === 503) return t('errors.unavailable');
  if (error.status >= 500) return t('errors.server');
  const fieldKeys = Object.values(error.fieldErrors).flat();
  if (fieldKeys[0]) return keyText(t, fieldKeys[0]);
  return t('errors.invalid');
}

/** The first message of a 422's field, translated, or nothing. */
export function fieldError(t: Translate, error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const key = error.fieldErrors[field]?.[0];
  return key ? keyText(t, key) : undefined;
}
