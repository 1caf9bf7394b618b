import { z } from 'zod';
import { DEV_SANDBOX_API_KEY, DEV_WEBHOOK_SECRET } from './dev-secrets.ts';

const list = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string()).min(1));

const EnvSchema = z.object({
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(4010),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Where browsers reach this server: every page, the widget script and every redirect start here. */
  SANDBOX_PUBLIC_URL: z.url().default('http://localhost:4010'),
  /** The merchant's secret key (the store's SANDBOX_API_KEY). */
  SANDBOX_API_KEY: z.string().min(16).default(DEV_SANDBOX_API_KEY),
  /** Standard Webhooks secrets, comma-separated; each signs every callback (the store's PAYMENTS_WEBHOOK_SECRETS). */
  PAYMENTS_WEBHOOK_SECRETS: z
    .string()
    .default(DEV_WEBHOOK_SECRET)
    .pipe(list)
    .refine(
      (secrets) => secrets.every((secret) => /^whsec_[A-Za-z0-9+/]{16,}={0,2}$/.test(secret)),
      'must be whsec_ followed by base64, comma-separated',
    ),
  /** The store's origins, comma-separated: where browsers may be sent back, who may open the widget. */
  SANDBOX_STORE_ORIGINS: z
    .string()
    .default('http://localhost:3000')
    .pipe(list)
    .refine((origins) => origins.every((origin) => URL.canParse(origin)), 'must be URLs, comma-separated'),
  /** Where widget payments are reported: the store's callback endpoint as this server reaches it. */
  SANDBOX_WIDGET_CALLBACK_URL: z.url().default('http://localhost:3000/api/payments/callback'),
});

export type SandboxEnv = z.infer<typeof EnvSchema>;

/** Parses the environment once; a wrong one stops the boot with a list of everything wrong. */
export function loadSandboxEnv(source: NodeJS.ProcessEnv = process.env): SandboxEnv {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${problems.join('\n')}`);
  }
  return parsed.data;
}
