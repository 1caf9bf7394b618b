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

const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{16,}={0,2}$/;
const PUBLISHED = new Set([DEV_SANDBOX_API_KEY, DEV_WEBHOOK_SECRET]);

const EnvSchema = z
  .object({
    /** Tests may run on the published development secrets; nothing else may. */
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65_535).default(4010),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Where browsers reach this server: every page, the widget script and every redirect start here. */
    SANDBOX_PUBLIC_URL: z.url().default('http://localhost:4010'),
    /** The merchant's secret key (the store's SANDBOX_API_KEY). */
    SANDBOX_API_KEY: z.string().min(16).optional(),
    /** Standard Webhooks secrets, comma-separated; each signs every callback (the store's PAYMENTS_WEBHOOK_SECRETS). */
    PAYMENTS_WEBHOOK_SECRETS: list
      .refine(
        (secrets) => secrets.every((secret) => WEBHOOK_SECRET.test(secret)),
        'must be whsec_ followed by base64, comma-separated',
      )
      .optional(),
    /**
     * The merchant's calls (server API, admin) from other machines too: the full stack's API calls
     * across the compose network. Off, only the loopback address gets an answer.
     */
    SANDBOX_MERCHANT_FROM_NETWORK: z
      .enum(['true', 'false', '1', '0'])
      .transform((value) => value === 'true' || value === '1')
      .default(false),
    /** The store's origins, comma-separated: where browsers may be sent back, who may open the widget. */
    SANDBOX_STORE_ORIGINS: z
      .string()
      .default('http://localhost:3000')
      .pipe(list)
      .refine((origins) => origins.every((origin) => URL.canParse(origin)), 'must be URLs, comma-separated'),
    /** Where widget payments are reported: the store's callback endpoint as this server reaches it. */
    SANDBOX_WIDGET_CALLBACK_URL: z.url().default('http://localhost:3000/api/payments/callback'),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'test') return;
    const secrets = { SANDBOX_API_KEY: env.SANDBOX_API_KEY, PAYMENTS_WEBHOOK_SECRETS: env.PAYMENTS_WEBHOOK_SECRETS };
    for (const [name, value] of Object.entries(secrets)) {
      if (value === undefined) {
        ctx.addIssue({ code: 'custom', path: [name], message: "must be set, to the store's" });
      } else if ((Array.isArray(value) ? value : [value]).some((secret) => PUBLISHED.has(secret))) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'is published with the repository, for tests only' });
      }
    }
  })
  .transform((env) => ({
    ...env,
    SANDBOX_API_KEY: env.SANDBOX_API_KEY ?? DEV_SANDBOX_API_KEY,
    PAYMENTS_WEBHOOK_SECRETS: env.PAYMENTS_WEBHOOK_SECRETS ?? [DEV_WEBHOOK_SECRET],
  }));

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
