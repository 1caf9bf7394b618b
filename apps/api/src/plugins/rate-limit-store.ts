import {
  type FastifyRateLimitOptions,
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
  normalizeIP,
} from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;

/** After a failed or slow call, how long every request counts in memory before Redis is tried again. */
export const REDIS_RETRY_AFTER_MS = 1_000;
/** Keys one limit keeps in memory; the least recently counted go first. */
const MEMORY_KEYS = 10_000;

/**
 * The client as the route limits count it: its address (request.ip, so TRUST_PROXY decides whether
 * a forwarded address counts), an IPv6 client by its /64 as @fastify/rate-limit does. Limiters
 * without a route of their own prefix it with their name, so their counts stay apart.
 */
export const clientKey = (request: FastifyRequest) => normalizeIP(request.ip);

/** A fixed window: the first hit sets the expiry, later hits only count. */
const INCREMENT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}`;

const READ = `
local current = redis.call('GET', KEYS[1])
if not current then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(current), ttl}`;

interface LimitCommands {
  storeLimitIncrement(key: string, windowMs: number): Promise<[number, number]>;
  storeLimitRead(key: string): Promise<[number, number]>;
}

/** Counts in this process, as @fastify/rate-limit's LocalStore does. */
class MemoryCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  increment(key: string, windowMs: number): Result {
    const now = Date.now();
    let entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now) entry = { count: 0, resetAt: now + windowMs };
    entry.count += 1;
    // Re-inserting moves the key to the end of the Map's order, so the first key is the stalest.
    this.windows.delete(key);
    this.windows.set(key, entry);
    if (this.windows.size > MEMORY_KEYS) this.windows.delete(this.windows.keys().next().value as string);
    return { current: entry.count, ttl: entry.resetAt - now };
  }

  read(key: string): Result {
    const now = Date.now();
    const entry = this.windows.get(key);
    return !entry || entry.resetAt <= now ? { current: 0, ttl: 0 } : { current: entry.count, ttl: entry.resetAt - now };
  }
}

/** Whether Redis is worth asking, shared by every limit of one app. */
class RedisHealth {
  private skipUntil = 0;
  private degraded = false;

  constructor(
    readonly redis: Redis,
    private readonly logger: FastifyBaseLogger,
  ) {}

  usable(): boolean {
    // ioredis queues commands while it reconnects; a request must not wait for that.
    return this.redis.status === 'ready' && Date.now() >= this.skipUntil;
  }

  failed(error: unknown) {
    this.skipUntil = Date.now() + REDIS_RETRY_AFTER_MS;
    if (this.degraded) return;
    this.degraded = true;
    this.logger.warn({ err: error }, 'rate limits: Redis unavailable, counting in this instance until it is back');
  }

  succeeded() {
    if (!this.degraded) return;
    this.degraded = false;
    this.logger.info('rate limits: Redis is back, counts are shared again');
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

class SharedStore implements FastifyRateLimitStore {
  private readonly memory = new MemoryCounter();

  constructor(
    private readonly prefix: string,
    private readonly health: RedisHealth | undefined,
    private readonly timeoutMs: number,
  ) {}

  incr(key: string, callback: Callback, timeWindow: number) {
    this.count(
      key,
      (commands, fullKey) => commands.storeLimitIncrement(fullKey, timeWindow),
      () => this.memory.increment(key, timeWindow),
      callback,
    );
  }

  read(key: string, callback: Callback) {
    this.count(
      key,
      (commands, fullKey) => commands.storeLimitRead(fullKey),
      () => this.memory.read(key),
      callback,
    );
  }

  child(
    params: FastifyRateLimitOptions & { routeInfo?: { method?: unknown; url?: unknown }; perInstance?: boolean },
  ): SharedStore {
    // A route's own limit counts apart from the others; a limiter made with createRateLimit has
    // no route and names its keys itself. A per-instance limit (rate-limit-presets.ts) never asks Redis.
    const route = params.routeInfo?.url ? `${String(params.routeInfo.method)}${String(params.routeInfo.url)}-` : '';
    return new SharedStore(`${this.prefix}${route}`, params.perInstance ? undefined : this.health, this.timeoutMs);
  }

  private count(
    key: string,
    shared: (commands: LimitCommands, fullKey: string) => Promise<[number, number]>,
    local: () => Result,
    callback: Callback,
  ) {
    const health = this.health;
    if (!health?.usable()) {
      callback(null, local());
      return;
    }
    withTimeout(shared(health.redis as unknown as LimitCommands, this.prefix + key), this.timeoutMs).then(
      ([current, ttl]) => {
        health.succeeded();
        callback(null, { current, ttl });
      },
      (error: unknown) => {
        health.failed(error);
        callback(null, local());
      },
    );
  }
}

export interface SharedStoreOptions {
  /** Counts shared by every API instance; without it, counts stay in this process. */
  redis?: Redis;
  /** Prefix of every key in Redis. */
  namespace: string;
  /** How long one Redis call may take before the request is counted in memory instead. */
  timeoutMs: number;
  logger: FastifyBaseLogger;
}

/**
 * The rate-limit store: counts in Redis, so every API instance shares them, and in this process
 * whenever Redis is down or slow. An instance then limits on its own, which lets a client through
 * at most (instances x limit) times, instead of switching every limit off (`skipOnError`) or making
 * each request wait for Redis. Once Redis answers again, counting is shared again.
 */
export function sharedRateLimitStore({
  redis,
  namespace,
  timeoutMs,
  logger,
}: SharedStoreOptions): FastifyRateLimitStoreCtor {
  let health: RedisHealth | undefined;
  if (redis) {
    // Several stores (tests build several apps) may share one connection: define the scripts once.
    const commands = redis as unknown as Partial<LimitCommands>;
    if (!commands.storeLimitIncrement) redis.defineCommand('storeLimitIncrement', { numberOfKeys: 1, lua: INCREMENT });
    if (!commands.storeLimitRead) redis.defineCommand('storeLimitRead', { numberOfKeys: 1, lua: READ });
    health = new RedisHealth(redis, logger);
  }
  return class extends SharedStore {
    constructor() {
      super(namespace, health, timeoutMs);
    }
  };
}
