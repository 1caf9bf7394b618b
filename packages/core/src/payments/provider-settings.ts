/**
 * The providers' settings as the environment gives them (docs/payments.md, "Providers"), read the
 * same way by every process that acts on payments: PAYMENTS_PROVIDER routes the methods, and each
 * provider other than the sandbox has its own variables. A provider's variables are required when a
 * method routes to it; set for one that no method routes to, they are used to verify the callbacks
 * and refund the payments it already has. Every fault is reported with the variable it is in.
 */

import { PAYSELECTION_API_URL } from './payselection/payselection-provider.ts';
import {
  type PaymentRouting,
  type PayselectionProviderConfig,
  parsePaymentRouting,
  routedProviders,
  type StripeProviderConfig,
} from './provider-registry.ts';

export const STRIPE_API_URL = 'https://api.stripe.com';
export { PAYSELECTION_API_URL };

/** Variables whose values are secrets: never logged, never in an answer. */
export const PROVIDER_SECRET_VARIABLES = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRETS',
  'PAYSELECTION_SECRET_KEY',
  'PAYSELECTION_WEBHOOK_SECRETS',
] as const;

export type ProviderSettings = {
  routing: PaymentRouting;
  stripe?: Omit<StripeProviderConfig, 'callbackUrl' | 'fetch' | 'timeoutMs' | 'clock'>;
  payselection?: Omit<PayselectionProviderConfig, 'callbackUrl' | 'fetch' | 'timeoutMs' | 'clock'>;
};

export interface SettingsIssue {
  variable: string;
  message: string;
}

/** Every variable read here. */
export const PROVIDER_VARIABLES = [
  'PAYMENTS_PROVIDER',
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRETS',
  'STRIPE_API_URL',
  'PAYSELECTION_SITE_ID',
  'PAYSELECTION_SECRET_KEY',
  'PAYSELECTION_PUBLIC_KEY',
  'PAYSELECTION_WEBHOOK_SECRETS',
  'PAYSELECTION_API_URL',
] as const;
type ProviderVariable = (typeof PROVIDER_VARIABLES)[number];
type Source = { readonly [Name in ProviderVariable]?: string | undefined };

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function url(source: Source, name: ProviderVariable, fallback: string, issues: SettingsIssue[]): string {
  const value = source[name]?.trim() || fallback;
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('not http(s)');
    return value.replace(/\/+$/, '');
  } catch {
    issues.push({ variable: name, message: 'must be an http(s) URL' });
    return fallback;
  }
}

/** Required variables of one provider: those missing, as issues naming why they are needed. */
function missing(source: Source, names: readonly ProviderVariable[], why: string, issues: SettingsIssue[]): boolean {
  let any = false;
  for (const name of names) {
    if (!source[name]?.trim()) {
      issues.push({ variable: name, message: `must be set: ${why}` });
      any = true;
    }
  }
  return any;
}

const STRIPE_REQUIRED = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRETS'] as const;
const PAYSELECTION_REQUIRED = ['PAYSELECTION_SITE_ID', 'PAYSELECTION_SECRET_KEY', 'PAYSELECTION_PUBLIC_KEY'] as const;
const STRIPE_ALL: readonly ProviderVariable[] = [...STRIPE_REQUIRED, 'STRIPE_API_URL'];
const PAYSELECTION_ALL: readonly ProviderVariable[] = [
  ...PAYSELECTION_REQUIRED,
  'PAYSELECTION_WEBHOOK_SECRETS',
  'PAYSELECTION_API_URL',
];

/** Reads the routing and the providers' variables; `issues` is empty when all is well. */
export function readProviderSettings(source: Source): { settings: ProviderSettings; issues: SettingsIssue[] } {
  const issues: SettingsIssue[] = [];
  let routing: PaymentRouting = {};
  try {
    routing = parsePaymentRouting(source.PAYMENTS_PROVIDER ?? 'sandbox');
  } catch (error) {
    issues.push({ variable: 'PAYMENTS_PROVIDER', message: (error as Error).message });
  }
  const routed = new Set(routedProviders(routing));
  const settings: ProviderSettings = { routing };
  const anySet = (names: readonly ProviderVariable[]) => names.some((name) => source[name]?.trim());

  if (routed.has('stripe') || anySet(STRIPE_ALL)) {
    const why = routed.has('stripe') ? 'a method routes to stripe' : 'other STRIPE_ variables are set';
    if (!missing(source, STRIPE_REQUIRED, why, issues)) {
      const secretKey = source.STRIPE_SECRET_KEY?.trim() ?? '';
      const publishableKey = source.STRIPE_PUBLISHABLE_KEY?.trim() ?? '';
      const webhookSecrets = list(source.STRIPE_WEBHOOK_SECRETS);
      if (!/^(sk|rk)_(test|live)_\w+$/.test(secretKey)) {
        issues.push({ variable: 'STRIPE_SECRET_KEY', message: 'must be a secret key (sk_test_..., sk_live_...)' });
      }
      if (!/^pk_(test|live)_\w+$/.test(publishableKey)) {
        issues.push({ variable: 'STRIPE_PUBLISHABLE_KEY', message: 'must be a publishable key (pk_test_...)' });
      }
      if (!webhookSecrets.every((secret) => /^whsec_\S{8,}$/.test(secret))) {
        issues.push({ variable: 'STRIPE_WEBHOOK_SECRETS', message: 'must be whsec_... secrets, comma-separated' });
      }
      if (/_live_/.test(secretKey) !== /_live_/.test(publishableKey)) {
        issues.push({
          variable: 'STRIPE_PUBLISHABLE_KEY',
          message: 'is not of the same mode (test/live) as the secret key',
        });
      }
      settings.stripe = {
        secretKey,
        publishableKey,
        webhookSecrets,
        apiUrl: url(source, 'STRIPE_API_URL', STRIPE_API_URL, issues),
      };
    }
  }

  if (routed.has('payselection') || anySet(PAYSELECTION_ALL)) {
    const why = routed.has('payselection')
      ? 'a method routes to payselection'
      : 'other PAYSELECTION_ variables are set';
    if (!missing(source, PAYSELECTION_REQUIRED, why, issues)) {
      const siteId = source.PAYSELECTION_SITE_ID?.trim() ?? '';
      const secretKey = source.PAYSELECTION_SECRET_KEY?.trim() ?? '';
      if (!/^\d{1,20}$/.test(siteId)) {
        issues.push({ variable: 'PAYSELECTION_SITE_ID', message: 'must be the site id, digits only' });
      }
      if (secretKey.length < 8) {
        issues.push({ variable: 'PAYSELECTION_SECRET_KEY', message: 'must be at least 8 characters' });
      }
      const webhookSecrets = list(source.PAYSELECTION_WEBHOOK_SECRETS);
      settings.payselection = {
        siteId,
        secretKey,
        publicKey: source.PAYSELECTION_PUBLIC_KEY?.trim() ?? '',
        // Payselection signs its webhooks with the site's secret key unless told otherwise.
        webhookSecrets: webhookSecrets.length > 0 ? webhookSecrets : [secretKey],
        apiUrl: url(source, 'PAYSELECTION_API_URL', PAYSELECTION_API_URL, issues),
      };
    }
  }
  return { settings, issues };
}
