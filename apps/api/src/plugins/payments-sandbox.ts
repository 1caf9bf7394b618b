import {
  buildProviderRegistry,
  type ProviderConfigs,
  type ProviderName,
  type ProviderRegistry,
  routedProviders,
  type SandboxProviderConfig,
} from '@store/core';
import { sandboxPlugin } from '@store/sandbox';
import type { FastifyInstance } from 'fastify';
import type { Env } from '../env.ts';

/** Where the embedded sandbox is mounted. */
export const SANDBOX_PREFIX = '/sandbox';
/** The store's callback endpoint, which the sandbox calls. */
export const PAYMENTS_CALLBACK_PATH = '/api/payments/callback';

/** Whether a method routes to the sandbox (PAYMENTS_PROVIDER). */
export function routesToSandbox(env: Env): boolean {
  return routedProviders(env.PAYMENTS.routing).includes('sandbox');
}

/** The sandbox runs inside this process when a method routes to it, unless a standalone one is configured (SANDBOX_URL). */
export function usesEmbeddedSandbox(env: Env): boolean {
  return routesToSandbox(env) && !env.SANDBOX_URL;
}

/**
 * Each provider's own callback URL: POST /api/payments/callback/:provider. The sandbox keeps the
 * URL it always had (paymentsCallbackUrl), which its callbacks reach as before.
 */
export function providerCallbackUrl(env: Env, provider: ProviderName): string {
  if (provider === 'sandbox') return paymentsCallbackUrl(env);
  return new URL(`${PAYMENTS_CALLBACK_PATH}/${provider}`, env.PUBLIC_URL).toString();
}

/**
 * The providers of this store (provider-registry.ts): the sandbox when a method routes to it or a
 * standalone one is configured (its payments still verify and refund), and each other provider
 * whose settings are given. A provider whose adapter is not built stops the start.
 */
export function providerRegistryFor(env: Env, extra: { fetch?: typeof fetch } = {}): ProviderRegistry {
  const { routing, stripe, payselection } = env.PAYMENTS;
  const configs: ProviderConfigs = {};
  if (routesToSandbox(env) || env.SANDBOX_URL) configs.sandbox = { ...sandboxProviderConfig(env), ...extra };
  if (stripe) configs.stripe = { ...stripe, callbackUrl: providerCallbackUrl(env, 'stripe'), ...extra };
  if (payselection) {
    configs.payselection = { ...payselection, callbackUrl: providerCallbackUrl(env, 'payselection'), ...extra };
  }
  return buildProviderRegistry(routing, configs);
}

/**
 * Where callbacks go. Embedded, the sandbox calls this very process over the loopback rather than
 * PUBLIC_URL, which may be an address outside (a proxy) that the process cannot reach or should not
 * loop through.
 */
export function paymentsCallbackUrl(env: Env): string {
  return env.PAYMENTS_CALLBACK_URL ?? `http://127.0.0.1:${env.PORT}${PAYMENTS_CALLBACK_PATH}`;
}

/** The sandbox adapter's settings (packages/core createSandboxPaymentProvider), embedded or standalone. */
export function sandboxProviderConfig(env: Env): Omit<SandboxProviderConfig, 'fetch' | 'clock' | 'timeoutMs'> {
  const embedded = usesEmbeddedSandbox(env);
  const apiUrl = env.SANDBOX_URL ?? `http://127.0.0.1:${env.PORT}${SANDBOX_PREFIX}`;
  return {
    apiUrl,
    publicUrl: embedded ? `${env.PUBLIC_URL.replace(/\/+$/, '')}${SANDBOX_PREFIX}` : (env.SANDBOX_PUBLIC_URL ?? apiUrl),
    apiKey: env.SANDBOX_API_KEY,
    webhookSecrets: env.PAYMENTS_WEBHOOK_SECRETS,
    callbackUrl: paymentsCallbackUrl(env),
  };
}

/**
 * The sandbox payment provider mounted in the store's process (the embedded default), under its own
 * prefix and in its own encapsulated context: its own error pages, body parser and security headers,
 * none of the store's. It still talks to the store only over HTTP.
 */
export default async function paymentsSandbox(app: FastifyInstance, { env }: { env: Env }) {
  const config = sandboxProviderConfig(env);
  // The store's input guard leaves its routes to it (plugins/input-guard.ts).
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object), thirdParty: true } as typeof route.config;
  });
  await app.register(sandboxPlugin, {
    prefix: SANDBOX_PREFIX,
    publicUrl: config.publicUrl,
    apiKey: env.SANDBOX_API_KEY,
    webhookSecrets: env.PAYMENTS_WEBHOOK_SECRETS,
    storeOrigins: [new URL(env.PUBLIC_URL).origin],
    widgetCallbackUrl: config.callbackUrl,
  });
}
