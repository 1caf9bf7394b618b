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

  it('applies payment events in a lane of their own, two at once unless told otherwise', () => {
    const base = { DATABASE_URL: 'postgresql://u@h:5432/d', REDIS_URL: 'redis://h:6379' };
    expect(loadEnv(base)).toMatchObject({ WORKER_CONCURRENCY: 4, PAYMENT_WORKER_CONCURRENCY: 2 });
    expect(loadEnv({ ...base, PAYMENT_WORKER_CONCURRENCY: '6' }).PAYMENT_WORKER_CONCURRENCY).toBe(6);
    expect(() => loadEnv({ ...base, PAYMENT_WORKER_CONCURRENCY: '0' })).toThrow(/PAYMENT_WORKER_CONCURRENCY/);
  });

  it('lowers its CPU priority below the API by default, within the nice range', () => {
    const base = { DATABASE_URL: 'postgresql://u@h:5432/d', REDIS_URL: 'redis://h:6379' };
    expect(loadEnv(base).WORKER_NICE).toBe(10);
    expect(loadEnv({ ...base, WORKER_NICE: '0' }).WORKER_NICE).toBe(0);
    expect(() => loadEnv({ ...base, WORKER_NICE: '20' })).toThrow(/WORKER_NICE/);
    expect(() => loadEnv({ ...base, WORKER_NICE: '-5' })).toThrow(/WORKER_NICE/);
  });

  it('sends traces only to a configured OTLP address, under its own service name', () => {
    const base = { DATABASE_URL: 'postgresql://u@h:5432/d', REDIS_URL: 'redis://h:6379' };
    expect(loadEnv(base).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(loadEnv(base).OTEL_SERVICE_NAME).toBe('store-worker');
    expect(loadEnv({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).OTEL_EXPORTER_OTLP_ENDPOINT).toBe(
      'http://collector:4318',
    );
    expect(() => loadEnv({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'collector' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });

  it('requires PUBLIC_URL in production', () => {
    const services = { DATABASE_URL: 'postgresql://u@h:5432/d', REDIS_URL: 'redis://h:6379' };
    expect(() => loadEnv({ ...services, NODE_ENV: 'production' })).toThrow(/PUBLIC_URL: must be set in production/);
    expect(loadEnv({ ...services, NODE_ENV: 'production', PUBLIC_URL: 'https://store.example.com' }).PUBLIC_URL).toBe(
      'https://store.example.com',
    );
    expect(loadEnv(services).PUBLIC_URL).toBe('http://localhost:3000');
  });

  it('defaults the queue prefix and timings to the production ones, and refuses a prefix with a colon', () => {
    const base = { DATABASE_URL: 'postgresql://u@h:5432/d', REDIS_URL: 'redis://h:6379' };
    expect(loadEnv(base)).toMatchObject({
      QUEUE_PREFIX: 'store',
      JOB_LOCK_MS: 30_000,
      OUTBOX_SWEEP_INTERVAL_MS: 60_000,
      SMTP_SEND_TIMEOUT_MS: 30_000,
    });
    expect(loadEnv({ ...base, QUEUE_PREFIX: 'staging-2', JOB_LOCK_MS: '1000' })).toMatchObject({
      QUEUE_PREFIX: 'staging-2',
      JOB_LOCK_MS: 1_000,
    });
    expect(() => loadEnv({ ...base, QUEUE_PREFIX: 'a:b' })).toThrow(/QUEUE_PREFIX/);
  });

  it('has no secret of its own: the sandbox key comes from the environment, as the API and the sandbox have it', () => {
    const base = { DATABASE_URL: 'postgresql://u@h:5432/d', REDIS_URL: 'redis://h:6379' };
    for (const NODE_ENV of ['development', 'production']) {
      const env = loadEnv({ ...base, NODE_ENV, PUBLIC_URL: 'https://store.example.com' });
      expect(env.SANDBOX_API_KEY).toBeUndefined();
      expect(Object.keys(env).filter((name) => /SECRET|KEY/.test(name))).toEqual([]);
    }
  });

  it('asks the payment provider only with its address and key, and sweeps payments every 30 s by default', () => {
    const base = { DATABASE_URL: 'postgresql://u@h:5432/d', REDIS_URL: 'redis://h:6379' };
    expect(loadEnv(base)).toMatchObject({ PAYMENTS_SWEEP_INTERVAL_MS: 30_000, PAYMENTS_PENDING_CHECK_MS: 120_000 });
    expect(loadEnv(base).SANDBOX_URL).toBeUndefined();
    expect(() => loadEnv({ ...base, SANDBOX_URL: 'http://sandbox:4010' })).toThrow(/SANDBOX_API_KEY: must be set/);
    expect(
      loadEnv({ ...base, SANDBOX_URL: 'http://sandbox:4010', SANDBOX_API_KEY: 'sk_live_0123456789abcdef' }),
    ).toMatchObject({ SANDBOX_URL: 'http://sandbox:4010' });
  });
});
