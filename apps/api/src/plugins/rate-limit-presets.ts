/**
 * Rate-limit presets, one place for all of them. Each route names its preset in `config.rateLimit`.
 * Limits count per client IP; with REDIS_URL they are shared by every API instance.
 */
export interface RateLimitPreset {
  max: number;
  timeWindow: number;
  /**
   * Counted in this process only, never in Redis: for a limit that guards this instance's own CPU,
   * where a shared count protects nothing more and its round trip costs every request.
   */
  perInstance?: true;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const RATE_LIMITS = {
  read: { max: 600, timeWindow: MINUTE },
  write: { max: 120, timeWindow: MINUTE },
  search: { max: 240, timeWindow: MINUTE },
  login: { max: 10, timeWindow: 15 * MINUTE },
  register: { max: 5, timeWindow: HOUR },
  promo: { max: 20, timeWindow: 15 * MINUTE },
  passwordReset: { max: 5, timeWindow: HOUR },
  emailVerify: { max: 10, timeWindow: HOUR },
  /** "Tell me when it is back": a shopper asks for a few products, not for hundreds of addresses. */
  stockNotify: { max: 10, timeWindow: HOUR },
  /** Requests no route matched: a flood of 404s must cost the sender as much as other reads. */
  notFound: { max: 300, timeWindow: MINUTE },
  /** The readiness probe: a load balancer asks every few seconds, and the answer is cached anyway. */
  ready: { max: 60, timeWindow: MINUTE },
  /** Logins to one account from addresses that never logged in to it (plugins/login-throttle.ts). */
  loginAccount: { max: 20, timeWindow: 15 * MINUTE },
  /** Starting payments: a shopper retries a card a few times; a card tester tries hundreds. */
  payment: { max: 30, timeWindow: 15 * MINUTE },
  /**
   * The provider's callbacks: its retries and bursts, not a shopper's pace. The bound is for a flood
   * of forged ones (each costs this instance a signature check) or replayed ones (a duplicate costs
   * one statement). It guards each instance's own CPU, so each instance counts for itself: a shared
   * count in Redis would add a round trip to every callback the provider is waiting on.
   */
  callback: { max: 6_000, timeWindow: MINUTE, perInstance: true },
} as const satisfies Record<string, RateLimitPreset>;

export type RateLimitName = keyof typeof RATE_LIMITS;

export function rateLimit(name: RateLimitName, scale = 1): RateLimitPreset {
  const preset: RateLimitPreset = RATE_LIMITS[name];
  return {
    max: Math.max(1, Math.round(preset.max * scale)),
    timeWindow: preset.timeWindow,
    ...(preset.perInstance ? { perInstance: true as const } : {}),
  };
}
