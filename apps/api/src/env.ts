import { BlockList, isIP, isIPv6 } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  PAYMENT_SWEEP_INTERVAL_MS,
  PENDING_PAYMENT_CHECK_MS,
  parseCardCurrencies,
  parseEnv,
  readProviderSettings,
} from '@store/core';
import { devCodeKey, type LocalSecrets, loadLocalSecrets } from '@store/db';
import { DEV_SANDBOX_API_KEY, DEV_WEBHOOK_SECRET } from '@store/sandbox/dev-secrets';
import { z } from 'zod';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me-0123456789abcdef';

/** The secrets of tests (NODE_ENV=test), published with the repository: nothing else uses them. */
const TEST_SECRETS: LocalSecrets = {
  JWT_SECRET: DEV_JWT_SECRET,
  CODE_ENCRYPTION_KEY: devCodeKey(),
  SANDBOX_API_KEY: DEV_SANDBOX_API_KEY,
  PAYMENTS_WEBHOOK_SECRETS: DEV_WEBHOOK_SECRET,
};

/** Secrets that were ever published (this repository's defaults and examples): only tests may use them. */
const KNOWN_SECRETS = new Set([
  ...Object.values(TEST_SECRETS),
  'change-me-to-a-long-random-string-of-64-chars-0000000000000000',
  'change-me-to-the-output-of-openssl-rand-hex-32',
  'whsec_Y2hhbmdlLW1lLXdlYmhvb2stc2VjcmV0LTAwMDAwMDA=',
]);

const isPublished = (value: string) => KNOWN_SECRETS.has(value) || KNOWN_SECRETS.has(value.toLowerCase());
/** Words of a value someone meant to replace. */
const PLACEHOLDER = /change-?me|secret|password|example|placeholder|replace/i;
/**
 * Fewest distinct characters a production secret may have. Twelve, not more: a random hex key has
 * only sixteen symbols, and 64 random hex digits show fewer than twelve of them about once in six
 * million draws, while `00...0`, `abab...` or a word repeated show far fewer.
 */
const MIN_DISTINCT_CHARACTERS = 12;
/**
 * Least entropy a production secret must show, estimated from its own character frequencies
 * (length x Shannon entropy). The estimate undercounts a random value (a 64-digit hex key shows
 * about 240 bits of its 256), so 128 passes every properly generated secret and stops short or
 * patterned ones.
 */
const MIN_ENTROPY_BITS = 128;
const GENERATE_HINT = 'generate one with `openssl rand -hex 32`';

function estimatedEntropyBits(value: string): number {
  const counts = new Map<string, number>();
  for (const character of value) counts.set(character, (counts.get(character) ?? 0) + 1);
  let bitsPerCharacter = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bitsPerCharacter -= p * Math.log2(p);
  }
  return bitsPerCharacter * value.length;
}

/** Why a secret must not protect a production store, or undefined when nothing is wrong with it. */
function weakSecretReason(value: string): string | undefined {
  if (isPublished(value)) return `is a published default; ${GENERATE_HINT}`;
  if (PLACEHOLDER.test(value)) return `is a placeholder; ${GENERATE_HINT}`;
  if (/^(.+?)\1+$/s.test(value)) return `repeats one pattern; ${GENERATE_HINT}`;
  const distinct = new Set(value).size;
  if (distinct < MIN_DISTINCT_CHARACTERS) {
    return `has too little entropy (${distinct} distinct characters); ${GENERATE_HINT}`;
  }
  if (estimatedEntropyBits(value) < MIN_ENTROPY_BITS) return `has too little entropy; ${GENERATE_HINT}`;
  return undefined;
}

/**
 * A Standard Webhooks secret is `whsec_` and base64 of the key's bytes: at least 24 of them, and,
 * when they read as text, text that passes as a secret (a base64-encoded `change-me` does not).
 */
function weakWebhookSecretReason(secret: string): string | undefined {
  const hint = 'generate one with `echo whsec_$(openssl rand -base64 32)`';
  if (isPublished(secret)) return `is a published default; ${hint}`;
  const bytes = Buffer.from(secret.slice('whsec_'.length), 'base64');
  if (bytes.length < 24) return `is too short (${bytes.length} bytes); ${hint}`;
  const text = bytes.toString('latin1');
  if (/^[\x20-\x7e]+$/.test(text)) {
    const reason = weakSecretReason(text);
    if (reason) return reason.replace(GENERATE_HINT, hint);
  }
  if (new Set(bytes).size < bytes.length / 2) return `has too little entropy; ${hint}`;
  return undefined;
}

const SECRET_NAMES = ['JWT_SECRET', 'CODE_ENCRYPTION_KEY', 'SANDBOX_API_KEY', 'PAYMENTS_WEBHOOK_SECRETS'] as const;
type SecretName = (typeof SECRET_NAMES)[number];

const PUBLISHED = 'is published with the repository, for tests only; unset, the store makes its own';

/** Why a production store must not start on this secret, or undefined. */
function weakness(name: SecretName, secret: string): string | undefined {
  return name === 'PAYMENTS_WEBHOOK_SECRETS' ? weakWebhookSecretReason(secret) : weakSecretReason(secret);
}

/**
 * Why a secret may not be left unset, or undefined where the store makes its own: only an embedded
 * store does, in its data folder. Production sets every one; so does the full stack (DATABASE_URL),
 * whose API instances, worker and sandbox must all hold the same; and a standalone sandbox
 * (SANDBOX_URL) has its own key and webhook secret, which the store must be given.
 */
function unsetSecretReason(
  env: { NODE_ENV: string; DATABASE_URL?: string; SANDBOX_URL?: string },
  name: SecretName,
): string | undefined {
  if (env.NODE_ENV === 'production') return 'must be set in production';
  if (env.DATABASE_URL) return 'must be set with DATABASE_URL: only an embedded store keeps its own';
  if (env.SANDBOX_URL && (name === 'SANDBOX_API_KEY' || name === 'PAYMENTS_WEBHOOK_SECRETS')) {
    return "must be set with SANDBOX_URL, to the standalone sandbox's";
  }
  return undefined;
}

const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** proxy-addr's names for ranges of addresses, as Fastify's trustProxy accepts them. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Where a proxy to believe may be: private (RFC 1918, IPv6 unique local), loopback and link-local
 * addresses, all of them what PROXY_RANGE_NAMES stand for. Anywhere else a client of the store could
 * be the "proxy", and write whatever address it likes into X-Forwarded-For.
 */
const PROXY_NETWORKS = (
  [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['127.0.0.0', 8, 'ipv4'],
    ['169.254.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
    ['::1', 128, 'ipv6'],
    ['fe80::', 10, 'ipv6'],
  ] as const
).map(([network, prefix, family]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, prefix, family };
});

/** An address or CIDR range, or undefined for what is neither. */
function parseProxyEntry(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return undefined;
  const bits = version === 4 ? 32 : 128;
  if (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits)) return undefined;
  return { address, prefix: prefix === undefined ? bits : Number(prefix), family: version === 4 ? 'ipv4' : 'ipv6' };
}

/**
 * Whether a range lies inside one of PROXY_NETWORKS: no shorter a prefix than the network's, and its
 * first address in it. An IPv4-mapped IPv6 range (::ffff:10.0.0.0/104) is IPv6 here, and outside.
 * Every range inside has a prefix of 7 or more, so none is the /0 that stops Fastify's start.
 */
function isPrivateRange({ address, prefix, family }: NonNullable<ReturnType<typeof parseProxyEntry>>): boolean {
  const [plain = ''] = address.split('%');
  return PROXY_NETWORKS.some(
    (network) => network.family === family && prefix >= network.prefix && network.list.check(plain, family),
  );
}

/**
 * Which proxies may name the client in X-Forwarded-For: none (`false`, the default: the socket's
 * address is the client), a hop count (`1`: one proxy in front, so the right-most forwarded address
 * is the client's), or a comma list of the proxies' addresses and CIDR ranges, inside PROXY_NETWORKS.
 * `true` would take the left-most address, which the client writes itself, and is refused. Every
 * value is settled here: what passes, Fastify takes.
 */
const TrustProxySchema = z
  .string()
  .trim()
  .transform((value, ctx): false | number | string[] => {
    if (value === 'false') return false;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 32) return hops === 0 ? false : hops;
    } else if (value !== 'true') {
      const entries = value.split(',').map((entry) => entry.trim());
      const ranges = entries
        .filter((entry) => !PROXY_RANGE_NAMES.has(entry))
        .map((entry) => [entry, parseProxyEntry(entry)] as const);
      const invalid = ranges.filter(([, range]) => !range).map(([entry]) => entry);
      const outside = ranges.filter(([, range]) => range && !isPrivateRange(range)).map(([entry]) => entry);
      if (invalid.length > 0) {
        ctx.addIssue({ code: 'custom', message: `not a proxy address or CIDR range: ${invalid.join(', ')}` });
      }
      if (outside.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message:
            `${outside.join(', ')}: covers public addresses, and a client there could write any address ` +
            'into X-Forwarded-For; only proxies on private (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, ' +
            'fc00::/7), loopback or link-local addresses are believed, or give their number (e.g. 1)',
        });
      }
      return invalid.length > 0 || outside.length > 0 ? z.NEVER : entries;
    }
    ctx.addIssue({
      code: 'custom',
      message:
        'must be false, the number of proxies in front of the store (e.g. 1), or their addresses ' +
        '(e.g. 10.0.0.0/8); `true` would trust any X-Forwarded-For a client sends',
    });
    return z.NEVER;
  });

const LOCAL_HOSTS = new Set(['localhost', '0.0.0.0', '::', '::1']);

/** Where a store listening on HOST:PORT is opened from this machine: what emailed links point at. */
function defaultPublicUrl(host: string, port: number): string {
  const name = LOCAL_HOSTS.has(host) || host.startsWith('127.') ? 'localhost' : isIPv6(host) ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    /** Loopback unless told otherwise: a development store (with its dev mailbox) is for this machine. */
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** PostgreSQL; when absent the store runs on embedded PGlite in DATA_DIR. */
    DATABASE_URL: z.url().optional(),
    DATA_DIR: z.string().default(`${repoRoot}.data/pglite`),
    /** Redis for BullMQ and shared rate limits; when absent both run in this process. */
    REDIS_URL: z.url().optional(),
    /** Prefix of the BullMQ keys in Redis; the worker must use the same. */
    QUEUE_PREFIX: z
      .string()
      .regex(/^[\w.-]{1,64}$/, 'letters, digits, _ . - only')
      .default('store'),
    /**
     * Signs the bearer tokens. Like CODE_ENCRYPTION_KEY, SANDBOX_API_KEY and PAYMENTS_WEBHOOK_SECRETS:
     * a value set here wins; left unset, an embedded store uses its own, kept in its data folder
     * (loadLocalSecrets), and tests the published ones. unsetSecretReason says where it must be set.
     */
    JWT_SECRET: z
      .string()
      .min(32, 'must be at least 32 characters')
      .max(512, 'must be at most 512 characters')
      .optional(),
    /** Lifetime of a login session and of the bearer token tied to it. */
    SESSION_TTL_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .default(24 * 30),
    /**
     * Where customers open the store; emailed links point here. Required in production; elsewhere
     * it follows HOST and PORT (http://localhost:PORT for a loopback or every-interface HOST).
     */
    PUBLIC_URL: z.url().optional(),
    /** SMTP server for outgoing mail (smtp://user:pass@host:port); absent: the dev outbox only. */
    SMTP_URL: z.url().optional(),
    MAIL_FROM: z.string().min(3).default('Giftstore <no-reply@giftstore.example>'),
    /** The seller a receipt names: the store's legal name and its tax id (the demo's, unless set). */
    STORE_LEGAL_NAME: z.string().trim().min(2).max(200).default('Giftstore Digital Commerce Ltd.'),
    STORE_TAX_ID: z.string().trim().min(2).max(64).default('12.345.678/0001-90'),
    CORS_ORIGINS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      ),
    TRUST_PROXY: TrustProxySchema.default(false),
    /** Seed the demo catalogue into an empty database at start. */
    SEED_DEMO: flag.optional(),
    /** The built single-page app; served at / when present. */
    WEB_DIST: z.string().default(`${repoRoot}apps/web/dist`),
    /** The built operator console; served at /admin/ when present. */
    ADMIN_DIST: z.string().default(`${repoRoot}apps/admin/dist`),
    /** How long a catalogue listing page may be served from memory; 0 turns the cache off. */
    CATALOGUE_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
    /** Multiplies every rate-limit preset: benchmarks raise it, nothing else should. */
    RATE_LIMIT_SCALE: z.coerce.number().positive().max(100_000).default(1),
    /**
     * How long a rate-limit count may wait for Redis before the request is counted in this
     * instance instead: a round trip on a healthy network is well under a millisecond.
     */
    RATE_LIMIT_REDIS_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(150),
    CODE_ENCRYPTION_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 32 bytes as 64 hex characters')
      .optional(),
    /**
     * Which provider serves which method (docs/payments.md, "Providers"): a provider's name alone
     * (`sandbox`, the default) serves every method; or `method:provider` entries, comma-separated,
     * over widget, hosted_page, card, pix, sbp, upi (a method left out is not offered). Read, with
     * the STRIPE_ and PAYSELECTION_ variables, by readProviderSettings.
     */
    PAYMENTS_PROVIDER: z.string().trim().default('sandbox'),
    /** Stripe: required when a method routes to it (docs/payments.md, "Providers"). */
    STRIPE_SECRET_KEY: z.string().optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().optional(),
    /** Comma-separated: the old and the new during a rotation. */
    STRIPE_WEBHOOK_SECRETS: z.string().optional(),
    /** https://api.stripe.com unless set (tests point it at a fake). */
    STRIPE_API_URL: z.string().optional(),
    /** Payselection: required when a method routes to it. */
    PAYSELECTION_SITE_ID: z.string().optional(),
    PAYSELECTION_SECRET_KEY: z.string().optional(),
    /** The widget's public key. */
    PAYSELECTION_PUBLIC_KEY: z.string().optional(),
    /** Comma-separated; unset, the secret key signs the webhooks, as Payselection does. */
    PAYSELECTION_WEBHOOK_SECRETS: z.string().optional(),
    /** https://gw.payselection.com unless set. */
    PAYSELECTION_API_URL: z.string().optional(),
    /** Where the provider sends callbacks; unset: this process on the loopback, at PORT. */
    PAYMENTS_CALLBACK_URL: z.url().optional(),
    /** Standard Webhooks secrets (whsec_...), comma-separated: a callback signed with any of them is accepted. */
    PAYMENTS_WEBHOOK_SECRETS: z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((secret) => secret.trim())
          .filter(Boolean),
      )
      .refine(
        (secrets) => secrets.length > 0 && secrets.every((secret) => /^whsec_[A-Za-z0-9+/]{16,}={0,2}$/.test(secret)),
        'must be whsec_ followed by base64, comma-separated',
      )
      .optional(),
    /**
     * What the card paths charge in (docs/currency.md, "What a payment is charged in"):
     * "widget=RUB,hosted_page=RUB,card=RUB" charges them as the product's widget and hosted page
     * requests do; a path not named charges BRL. Pix, SBP and UPI always charge BRL, RUB and INR.
     */
    PAYMENTS_CHARGE_CURRENCY: z
      .string()
      .optional()
      .transform((value, ctx) => {
        try {
          return parseCardCurrencies(value);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
    /** A payment in another currency than BRL is refused while its rate is older than this. */
    PAYMENTS_RATE_MAX_AGE_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(48),
    /** A sandbox running as its own service, as this process reaches it; unset: mounted here at /sandbox. */
    SANDBOX_URL: z.url().optional(),
    /** That sandbox as browsers reach it (defaults to SANDBOX_URL). */
    SANDBOX_PUBLIC_URL: z.url().optional(),
    /** The store's secret key at the sandbox: its API's bearer and the hosted page's signing key. */
    SANDBOX_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
    /**
     * Embedded (jobs in this process): how often stored payment events without a job are handed on
     * (once this old) and payments waiting at the provider looked for. The worker has its own.
     */
    PAYMENTS_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(PAYMENT_SWEEP_INTERVAL_MS),
    /** A payment still waiting this long is asked about at the provider. */
    PAYMENTS_PENDING_CHECK_MS: z.coerce.number().int().min(100).max(86_400_000).default(PENDING_PAYMENT_CHECK_MS),
    /**
     * Lets Prometheus read GET /metrics from another machine (`Authorization: Bearer <token>`); the
     * loopback address reads it without. Unset: only the loopback address.
     */
    METRICS_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
    /**
     * An OpenTelemetry collector's OTLP/HTTP address (the standard variable): traces go there.
     * Unset: no traces are recorded.
     */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
    OTEL_SERVICE_NAME: z.string().min(1).max(64).default('store-api'),
  })
  .superRefine((env, ctx) => {
    for (const issue of readProviderSettings(env).issues) {
      ctx.addIssue({ code: 'custom', path: [issue.variable], message: issue.message });
    }
    if (env.NODE_ENV === 'test') return;
    const production = env.NODE_ENV === 'production';
    for (const name of SECRET_NAMES) {
      const value = env[name];
      const reasons =
        value === undefined
          ? [unsetSecretReason(env, name)]
          : (Array.isArray(value) ? value : [value]).map((secret) =>
              production ? weakness(name, secret) : isPublished(secret) ? PUBLISHED : undefined,
            );
      for (const reason of reasons) if (reason) ctx.addIssue({ code: 'custom', path: [name], message: reason });
    }
    if (production && !env.PUBLIC_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'must be set in production: emailed links would point at localhost',
      });
    }
  })
  .transform((env, ctx) => {
    let own: LocalSecrets | undefined;
    // Read (or made) only when one is missing: a store with all four set never touches the file.
    const ownSecret = (name: SecretName) => {
      own ??= env.NODE_ENV === 'test' ? TEST_SECRETS : loadLocalSecrets(env.DATA_DIR);
      return own[name];
    };
    try {
      return {
        ...env,
        /** The routing and each provider's settings, read once (superRefine has refused a bad one). */
        PAYMENTS: readProviderSettings(env).settings,
        PUBLIC_URL: env.PUBLIC_URL ?? defaultPublicUrl(env.HOST, env.PORT),
        JWT_SECRET: env.JWT_SECRET ?? ownSecret('JWT_SECRET'),
        CODE_ENCRYPTION_KEY: env.CODE_ENCRYPTION_KEY ?? ownSecret('CODE_ENCRYPTION_KEY'),
        SANDBOX_API_KEY: env.SANDBOX_API_KEY ?? ownSecret('SANDBOX_API_KEY'),
        PAYMENTS_WEBHOOK_SECRETS: env.PAYMENTS_WEBHOOK_SECRETS ?? [ownSecret('PAYMENTS_WEBHOOK_SECRETS')],
      };
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['DATA_DIR'], message: (error as Error).message });
      return z.NEVER;
    }
  });

export type Env = z.infer<typeof EnvSchema>;

/** Parses the environment once; a wrong one stops the boot with a list of everything wrong. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  return parseEnv(EnvSchema, source);
}
