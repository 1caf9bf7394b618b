import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me-0123456789abcdef';

const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** PostgreSQL; when absent the store runs on embedded PGlite in DATA_DIR. */
    DATABASE_URL: z.url().optional(),
    DATA_DIR: z.string().default(`${repoRoot}.data/pglite`),
    /** Redis for BullMQ and shared rate limits; when absent both run in this process. */
    REDIS_URL: z.url().optional(),
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEV_JWT_SECRET),
    /** Lifetime of a login session and of the bearer token tied to it. */
    SESSION_TTL_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .default(24 * 30),
    /** Where customers open the store; emailed links point here. */
    PUBLIC_URL: z.url().default('http://localhost:3000'),
    /** SMTP server for outgoing mail (smtp://user:pass@host:port); absent: the dev outbox only. */
    SMTP_URL: z.url().optional(),
    MAIL_FROM: z.string().min(3).default('Gift Store <no-reply@giftstore.example>'),
    CORS_ORIGINS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      ),
    TRUST_PROXY: flag.default(false),
    /** Seed the demo catalogue into an empty database at start. */
    SEED_DEMO: flag.optional(),
    /** The built single-page app; served at / when present. */
    WEB_DIST: z.string().default(`${repoRoot}apps/web/dist`),
    /** How long a catalogue listing page may be served from memory; 0 turns the cache off. */
    CATALOGUE_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
    /** Multiplies every rate-limit preset: benchmarks raise it, nothing else should. */
    RATE_LIMIT_SCALE: z.coerce.number().positive().max(100_000).default(1),
    CODE_ENCRYPTION_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 32 bytes as 64 hex characters')
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    if (env.JWT_SECRET === DEV_JWT_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'must be set in production' });
    }
    if (!env.CODE_ENCRYPTION_KEY) {
      ctx.addIssue({ code: 'custom', path: ['CODE_ENCRYPTION_KEY'], message: 'must be set in production' });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

/** Parses the environment once; a wrong one stops the boot with a list of everything wrong. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable means unset: `DATABASE_URL= pnpm start` runs the embedded mode.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${problems.join('\n')}`);
  }
  return parsed.data;
}
