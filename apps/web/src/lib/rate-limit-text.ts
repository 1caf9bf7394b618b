import { ApiError } from './api-client.ts';
import type { Translate } from './translator.ts';

/**
 * A 429 in the interface language, with how long to wait when the server said (Retry-After). The
 * server's own message is English only, so it is not shown.
 */
export function rateLimitText(error: ApiError, t: Translate): string {
  const seconds = error.retryAfter;
  if (seconds === null || seconds <= 0) return t('errors.rateLimited');
  if (seconds < 90) return t('errors.rateLimitedSeconds', { seconds });
  return t('errors.rateLimitedMinutes', { minutes: Math.ceil(seconds / 60) });
}

export const isRateLimited = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 429;
