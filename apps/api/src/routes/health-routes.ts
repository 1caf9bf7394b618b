import { isServerUnreachable, qb } from '@store/db';
import type { FastifyInstance } from 'fastify';

/** Longest one dependency check may take. */
const CHECK_TIMEOUT_MS = 3_000;
/**
 * How long a worker has to answer the probe's job: less than a check, so that a queue whose Redis
 * takes no job is told apart from a worker that does not answer.
 */
const WORKER_WAIT_MS = 2_000;
/** How long one answer serves every caller: a probe costs a database query and a queue job. */
export const READY_CACHE_MS = 2_000;

/**
 * `failed` takes the instance out of rotation; `degraded` does not: shoppers are served without it
 * (jobs wait in the database for the sweeps, rate limits count in each instance).
 */
type CheckStatus = 'ok' | 'degraded' | 'failed';

interface Readiness {
  status: 'ready' | 'degraded' | 'unavailable';
  checks: Record<string, CheckStatus>;
}

class CheckTimeoutError extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = 'CheckTimeoutError';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeoutError(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * /health: the process answers (liveness: no dependency, so a restart is never triggered by a
 * database outage). /ready: this instance can serve shoppers, which takes its database alone (503
 * without it); the queue, a worker and Redis are reported beside it, degraded rather than failed.
 */
export default async function healthRoutes(app: FastifyInstance) {
  /** The reason (host names, addresses, driver messages) is for the operator, not the caller. */
  function logFailure(component: string, error: unknown) {
    app.log.warn({ err: error, component }, 'readiness check failed');
  }

  async function database(): Promise<CheckStatus> {
    try {
      await withTimeout(app.database.sql.query(qb.selectNoFrom((eb) => eb.lit(1).as('one'))), CHECK_TIMEOUT_MS);
      return 'ok';
    } catch (error) {
      logFailure('database', error);
      return 'failed';
    }
  }

  /**
   * A job through the queue to a worker. On BullMQ, a job Redis refused or never took degrades the
   * queue (and the worker, which then gets nothing); one taken but not answered degrades the worker
   * alone. The in-process queue runs its jobs itself: one check.
   */
  async function jobs(): Promise<Record<string, CheckStatus>> {
    const separateWorker = app.queue.kind === 'bullmq';
    try {
      await withTimeout(app.queue.ping(WORKER_WAIT_MS), CHECK_TIMEOUT_MS);
      return separateWorker ? { queue: 'ok', worker: 'ok' } : { queue: 'ok' };
    } catch (error) {
      logFailure('queue', error);
      if (!separateWorker) return { queue: 'degraded' };
      const taken = !(error instanceof CheckTimeoutError) && !isServerUnreachable(error);
      return { queue: taken ? 'ok' : 'degraded', worker: 'degraded' };
    }
  }

  async function redis(): Promise<Record<string, CheckStatus>> {
    const client = app.redis;
    if (!client) return {};
    try {
      await withTimeout(client.ping(), CHECK_TIMEOUT_MS);
      return { redis: 'ok' };
    } catch (error) {
      logFailure('redis', error);
      return { redis: 'degraded' };
    }
  }

  async function probe(): Promise<Readiness> {
    const [databaseStatus, jobStatuses, redisStatus] = await Promise.all([database(), jobs(), redis()]);
    const checks = { database: databaseStatus, ...jobStatuses, ...redisStatus };
    if (databaseStatus === 'failed') return { status: 'unavailable', checks };
    return { status: Object.values(checks).every((status) => status === 'ok') ? 'ready' : 'degraded', checks };
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
      const { status, checks } = await readiness();
      return reply
        .code(status === 'unavailable' ? 503 : 200)
        .header('cache-control', 'no-store')
        .send({ status, checks });
    },
  );
}
