import {
  OUTBOX_SWEEP_INTERVAL_MS,
  PAYMENT_SWEEP_INTERVAL_MS,
  PENDING_PAYMENT_CHECK_MS,
  parseEnv,
  readProviderSettings,
  SMTP_SEND_DEADLINE_MS,
} from '@store/core';
import { JOB_LOCK_MS, PAYMENT_WORKER_CONCURRENCY, WORKER_CONCURRENCY } from '@store/core/bullmq';
import { z } from 'zod';

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: z.url(),
    REDIS_URL: z.url(),
    /** Mail and health jobs run at once (they mostly wait on the network). */
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(WORKER_CONCURRENCY),
    /**
     * Payment events applied at once, in a lane of their own. Each is a few short transactions, so
     * about the database's core count: more only wait on each other and on the API for the same CPUs.
     */
    PAYMENT_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(PAYMENT_WORKER_CONCURRENCY),
    /**
     * The worker's nice value (0-19): how far below the API its CPU priority sits when the two share
     * a host. Fulfilment is background work: under load a shopper's request is served first, and a
     * job takes what CPU the requests leave. 0 keeps the priority it was started with.
     */
    WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
    /** Prefix of the BullMQ keys in Redis; the API must use the same. */
    QUEUE_PREFIX: z
      .string()
      .regex(/^[\w.-]{1,64}$/, 'letters, digits, _ . - only')
      .default('store'),
    /**
     * How long the job of a worker that died stays locked before another worker takes it back, and
     * how often workers look for such jobs.
     */
    JOB_LOCK_MS: z.coerce.number().int().min(500).max(600_000).default(JOB_LOCK_MS),
    /** How often the outbox is swept for emails whose job was lost, and how old such an email must be. */
    OUTBOX_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(OUTBOX_SWEEP_INTERVAL_MS),
    /** SMTP server for outgoing mail (smtp://user:pass@host:port); absent: nothing can be delivered. */
    SMTP_URL: z.url().optional(),
    /**
     * The longest one SMTP send may take. An email whose sender died mid-send waits twice this long
     * before another worker sends it.
     */
    SMTP_SEND_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(SMTP_SEND_DEADLINE_MS),
    MAIL_FROM: z.string().min(3).default('Giftstore <no-reply@giftstore.example>'),
    /** Where customers open the store; emailed links point here. Required in production, as by the API. */
    PUBLIC_URL: z.url().optional(),
    /**
     * The payment provider's API (the sandbox as its own service, as this process reaches it), asked
     * about payments whose callbacks do not come. Unset: only stored events are handed on.
     */
    SANDBOX_URL: z.url().optional(),
    /** The store's secret key at the sandbox; required with SANDBOX_URL. */
    SANDBOX_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
    /**
     * The API's routing and the other providers' settings (docs/payments.md, "Providers"): the
     * worker starts no payment, but refunds and asks about each payment at its own provider.
     */
    PAYMENTS_PROVIDER: z.string().trim().default('sandbox'),
    STRIPE_SECRET_KEY: z.string().optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().optional(),
    STRIPE_WEBHOOK_SECRETS: z.string().optional(),
    STRIPE_API_URL: z.string().optional(),
    PAYSELECTION_SITE_ID: z.string().optional(),
    PAYSELECTION_SECRET_KEY: z.string().optional(),
    PAYSELECTION_PUBLIC_KEY: z.string().optional(),
    PAYSELECTION_WEBHOOK_SECRETS: z.string().optional(),
    PAYSELECTION_API_URL: z.string().optional(),
    /** Where the provider calls back (as the API's setting); the worker starts no payment, so only for its record. */
    PAYMENTS_CALLBACK_URL: z.url().optional(),
    /**
     * How often stored payment events without a job are handed on (once this old), and payments
     * waiting at the provider looked for.
     */
    PAYMENTS_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(PAYMENT_SWEEP_INTERVAL_MS),
    /** A payment still waiting this long is asked about at the provider. */
    PAYMENTS_PENDING_CHECK_MS: z.coerce.number().int().min(100).max(86_400_000).default(PENDING_PAYMENT_CHECK_MS),
    /**
     * Where the worker answers GET /metrics (it serves no other HTTP). The loopback address by
     * default; a container's scrape needs 0.0.0.0 and METRICS_TOKEN. Port 0 turns it off.
     */
    WORKER_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(9_464),
    /** Lets Prometheus read /metrics from another machine (`Authorization: Bearer <token>`). */
    METRICS_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
    /**
     * An OpenTelemetry collector's OTLP/HTTP address (the standard variable): traces go there.
     * Unset: no traces are recorded.
     */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
    OTEL_SERVICE_NAME: z.string().min(1).max(64).default('store-worker'),
  })
  .superRefine((env, ctx) => {
    for (const issue of readProviderSettings(env).issues) {
      ctx.addIssue({ code: 'custom', path: [issue.variable], message: issue.message });
    }
    if (env.SANDBOX_URL && !env.SANDBOX_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['SANDBOX_API_KEY'], message: 'must be set with SANDBOX_URL' });
    }
    if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'must be set in production: emailed links would point at localhost',
      });
    }
  })
  .transform((env) => ({
    ...env,
    PUBLIC_URL: env.PUBLIC_URL ?? 'http://localhost:3000',
    PAYMENTS: readProviderSettings(env).settings,
  }));

export type Env = z.infer<typeof EnvSchema>;

/** The worker exists only in the full stack, so PostgreSQL and Redis are both required. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  return parseEnv(EnvSchema, source);
}
