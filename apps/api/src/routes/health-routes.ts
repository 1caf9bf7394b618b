import type { FastifyInstance } from 'fastify';

const READY_TIMEOUT_MS = 3_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref()),
  ]);
}

async function check(run: () => Promise<unknown>): Promise<'ok' | string> {
  try {
    await withTimeout(run(), READY_TIMEOUT_MS);
    return 'ok';
  } catch (error) {
    return error instanceof Error ? error.message : 'failed';
  }
}

/** /health: the process answers. /ready: the database, Redis and a job round trip all work. */
export default async function healthRoutes(app: FastifyInstance) {
  const config = { rateLimit: false as const };

  app.get('/health', { config, schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/ready', { config, schema: { hide: true } }, async (_request, reply) => {
    const checks: Record<string, string> = {
      database: await check(() => app.database.prisma.$queryRaw`SELECT 1`),
      queue: await check(() => app.queue.ping(READY_TIMEOUT_MS)),
    };
    const { redis } = app;
    if (redis) checks.redis = await check(() => redis.ping());
    const ready = Object.values(checks).every((value) => value === 'ok');
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks });
  });
}
