import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { clientKey } from './rate-limit-store.ts';

/** How long an address that logged in to an account stays known to it. */
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The per-account login limit, as a login route's preHandler and onResponse hooks. */
    loginThrottle: {
      check(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
      record(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    };
  }
}

/**
 * The account a login names, as a key: the address as the contract normalised it, hashed so that
 * Redis keys do not list customers' addresses. Any address counts, registered or not, so the limit
 * tells nobody which addresses have accounts.
 */
function accountKey(request: FastifyRequest): string | undefined {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  if (typeof email !== 'string') return undefined;
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
}

/** The same words as @fastify/rate-limit's own 429 (its `after`: "15 minutes", "1 hour"). */
function retryText(seconds: number): string {
  const units: Array<[string, number]> = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
    ['second', 1],
  ];
  const [unit, size] = units.find(([, length]) => seconds >= length) ?? ['second', 1];
  const count = Math.round(seconds / size);
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/**
 * Guessing one account's password from many addresses, each under the per-address login limit, is
 * slowed by a limit per account (OWASP's Authentication Cheat Sheet: count failed logins against
 * the account, not only the source address).
 *
 * A per-account limit is also a way for a stranger to lock the owner out, so it is built not to
 * (after OWASP's "Slow Down Online Guessing Attacks with Device Cookies", with the address in
 * place of a cookie, since the API has none):
 * - It counts only attempts from addresses that have never logged in to the account. An address
 *   that has (within 30 days) is neither counted nor stopped by it: the owner at home or at work
 *   logs in during an attack. The per-address limit still holds for it.
 * - It counts the attempt before the password is checked, atomically: counting failures after the
 *   fact would let a burst of parallel guesses through before the first one is counted. A success
 *   from a new address costs one unit of a generous limit (RATE_LIMITS.loginAccount), and the
 *   window is short, so an owner on a new network waits minutes, not hours; a password reset still
 *   works meanwhile.
 * - The answer, once exceeded, is the same 429 for right and wrong passwords, or the limit would
 *   tell the attacker which guess was right.
 */
export default fp(async function loginThrottle(app: FastifyInstance) {
  const accountAttempts = app.createRateLimit({
    ...app.rateLimitPreset('loginAccount'),
    allowList: [],
    keyGenerator: (request) => `login-account:${accountKey(request)}`,
  });
  const knownAddresses = app.createRateLimit({
    max: 1,
    timeWindow: KNOWN_ADDRESS_MS,
    allowList: [],
    keyGenerator: (request) => `login-known:${accountKey(request)}:${clientKey(request)}`,
  });

  async function hasLoggedInFrom(request: FastifyRequest): Promise<boolean> {
    const seen = await knownAddresses(request, { increment: false });
    return !seen.isAllowed && seen.remaining < seen.max;
  }

  app.decorate('loginThrottle', {
    async check(request: FastifyRequest, reply: FastifyReply) {
      if (accountKey(request) === undefined || (await hasLoggedInFrom(request))) return undefined;
      const attempt = await accountAttempts(request);
      if (attempt.isAllowed || !attempt.isExceeded) return undefined;
      return reply
        .code(429)
        .header('retry-after', attempt.ttlInSeconds)
        .send({ message: `Too many requests. Please try again in ${retryText(attempt.ttlInSeconds)}.` });
    },
    async record(request: FastifyRequest, reply: FastifyReply) {
      if (reply.statusCode !== 200 || accountKey(request) === undefined) return;
      await knownAddresses(request);
    },
  });
});
