import { z } from 'zod';

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.url(),
  REDIS_URL: z.url(),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** SMTP server for outgoing mail (smtp://user:pass@host:port); absent: mail stays in the dev outbox. */
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).default('Gift Store <no-reply@giftstore.example>'),
  /** Where customers open the store; emailed links point here. */
  PUBLIC_URL: z.url().default('http://localhost:3000'),
});

export type Env = z.infer<typeof EnvSchema>;

/** The worker exists only in the full stack, so PostgreSQL and Redis are both required. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${problems.join('\n')}`);
  }
  return parsed.data;
}
