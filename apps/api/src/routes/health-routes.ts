import type { FastifyInstance } from 'fastify';

/** Longest one dependency check may take. */
const CHECK_TIMEOUT_MS = 3_000;
/** How long one answer serves every caller: a probe costs a database query and a queue job. */
export const READY_CACHE_MS = 2_000;

type CheckStatus = 'ok' | 'failed';

interface Readiness {
  ready: boolean;
  checks: Record<string, CheckStatus>;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * /health: the process answers (liveness: no dependency, so a restart is never triggered by a
 * database outage). /ready: the database, Redis and a job round trip through a worker all work.
 */
export default async function healthRoutes(app: FastifyInstance) {
  async function check(component: string, run: () => Promise<unknown>): Promise<CheckStatus> {
    try {
      await withTimeout(run(), CHECK_TIMEOUT_MS);
      return 'ok';
    } catch (error) {
      // The reason (host names, addresses, driver messages) is for the operator, not the caller.
      app.log.warn({ err: error, component }, 'readiness check failed');
      return 'failed';
    }
  }

  async function probe(): Promise<Readiness> {
    const { redis } = app;
    const entries = await Promise.all([
      check('database', () => app.database.prisma.$queryRaw`SELECT 1`).then((status) => ['database', status] as const),
      check('queue', () => app.queue.ping(CHECK_TIMEOUT_MS)).then((status) => ['queue', status] as const),
      ...(redis ? [check('redis', () => redis.ping()).then((status) => ['redis', status] as const)] : []),
    ]);
    const checks = Object.fromEntries(entries);
    return { ready: entries.every(([, status]) => status === 'ok'), checks };
  }

  // However many callers ask at once, one probe runs, and its answer serves them for a while.
  let inFlight: Promise<Readiness> | undefined;
  let latest: { at: number; readiness: Readiness } | undefined;
  function readiness(): Promise<Readiness> {
    if (latest && Date.now() - latest.at < READY_CACHE_MS) return Promise.resolve(latest.readiness);
    inFlight ??= probe()
      .then((result) => {
        latest = { at: Date.now(), readiness: result };
        return result;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  app.get('/health', { config: { rateLimit: false }, schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get(
    '/ready',
    { config: { rateLimit: app.rateLimitPreset('ready') }, schema: { hide: true } },
    async (_request, reply) => {
      const { ready, checks } = await readiness();
      return reply
        .code(ready ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ status: ready ? 'ready' : 'unavailable', checks });
    },
  );
}
