import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.ts';

describe('worker loadEnv', () => {
  it('requires PostgreSQL and Redis', () => {
    expect(() => loadEnv({})).toThrow(/DATABASE_URL[\s\S]*REDIS_URL/);
  });

  it('parses a full environment', () => {
    const env = loadEnv({
      DATABASE_URL: 'postgresql://u@h:5432/d',
      REDIS_URL: 'redis://h:6379',
      WORKER_CONCURRENCY: '8',
    });
    expect(env.WORKER_CONCURRENCY).toBe(8);
  });
});
