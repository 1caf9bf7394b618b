import { ApiError } from './api-client.ts';
import type { Translate } from './translator.ts';

/**
 * A 429 in the interface language, with how long to wait when the server said (Retry-After). The
 * server's own message is English only, so it is not shown. The texts live with the screens that can
 * meet a 429 (the account screens' `auth`, the basket's `promo`), not in the first download.
 */
export function rateLimitText(error: ApiError, t: Translate, section: 'auth' | 'promo'): string {
  const seconds = error.retryAfter;
  if (seconds === null || seconds <= 0) return t(`${section}.rateLimited`);
  if (seconds < 90) return t(`${section}.rateLimitedSeconds`, { seconds });
  return t(`${section}.rateLimitedMinutes`, { minutes: Math.ceil(seconds / 60) });
}

export const isRateLimited = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 429;
