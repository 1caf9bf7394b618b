import { spawnSync } from 'node:child_process';

/**
 * Vitest's global setup of every package whose tests need the real services. Outside CI a test that
 * needs PostgreSQL or Redis runs on PGlite or says loudly that it was not run; in CI (`CI=true`) a
 * missing service fails the run at once, so that no concurrency, crash or outage test passes by not
 * running.
 */
export default function requireServicesInCi(): void {
  if (process.env.CI !== 'true') return;
  const missing = [
    process.env.DATABASE_URL ? null : 'DATABASE_URL (PostgreSQL)',
    process.env.REDIS_URL ? null : 'REDIS_URL (Redis)',
    spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0
      ? null
      : 'the redis-server program (the outage tests start and stop a Redis of their own)',
  ].filter((name): name is string => name !== null);
  if (missing.length > 0) {
    throw new Error(`CI=true, but the tests would run without ${missing.join(', ')}: set them up first.`);
  }
}
