/**
 * Which provider serves which payment method (docs/payments.md, "Providers"). The operator routes
 * each method the checkout offers to one provider by name; a method routed nowhere is not offered.
 * Everything that acts on a payment the store already made (its refund, its reconciling, its
 * callbacks) asks for the payment's own provider by the name stored in `payments.provider`, never
 * for "the" provider: a routing changed while payments are under way leaves them with the provider
 * that made them.
 */
import { ErrorKeys } from '@store/contract';
import { ValidationError } from '../shared/errors.ts';
import { createPayselectionProvider, type PayselectionProviderConfig } from './payselection/payselection-provider.ts';
import type { PaymentProvider, ProviderPaymentMethod } from './provider.ts';
import { createSandboxPaymentProvider, type SandboxProviderConfig } from './sandbox-provider.ts';
import { createStripeProvider, type StripeProviderConfig } from './stripe/stripe-provider.ts';

/** Every provider the store knows by name; each has a factory below. */
export const PROVIDER_NAMES = ['sandbox', 'stripe', 'payselection'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/**
 * What the operator routes: the port's methods, with the QR method split by scheme (a provider may
 * serve PIX and not SBP).
 */
export const ROUTED_METHODS = ['widget', 'hosted_page', 'card', 'pix', 'sbp', 'upi'] as const;
export type RoutedMethod = (typeof ROUTED_METHODS)[number];

/** Method → provider; a method left out is not offered. */
export type PaymentRouting = Partial<Record<RoutedMethod, ProviderName>>;

/**
 * The methods each provider serves in this store, end to end: its adapter makes the payment and the
 * checkout can show it. Stripe's adapter also opens Payment Element and Checkout payments, and
 * Payselection's a Pay Widget, but the checkout cannot show those pages yet, so routing a method
 * there is refused at start rather than failing at the customer's first payment.
 */
export const SERVED_METHODS: Record<ProviderName, readonly RoutedMethod[]> = {
  sandbox: ROUTED_METHODS,
  stripe: ['pix'],
  payselection: ['card', 'sbp'],
};

function servedOrThrow(method: RoutedMethod, provider: ProviderName, entry: string): void {
  if (SERVED_METHODS[provider].includes(method)) return;
  throw new Error(
    `${entry}: ${provider} does not serve ${method} in this store; it serves ${SERVED_METHODS[provider].join(', ')}`,
  );
}

export const isProviderName = (value: string): value is ProviderName =>
  (PROVIDER_NAMES as readonly string[]).includes(value);
export const isRoutedMethod = (value: string): value is RoutedMethod =>
  (ROUTED_METHODS as readonly string[]).includes(value);

/** The routed method of a request of the port: its method, or a QR payment's scheme. */
export function routedMethodOf(request: { method: ProviderPaymentMethod; scheme?: 'pix' | 'sbp' }): RoutedMethod {
  if (request.method === 'qr') {
    if (!request.scheme) throw new Error('a QR payment names its scheme (pix or sbp)');
    return request.scheme;
  }
  return request.method;
}

/**
 * Reads PAYMENTS_PROVIDER: a provider's name alone (`sandbox`) routes every method to it; otherwise
 * a comma list of `method:provider` entries (`card:sandbox,pix:stripe,sbp:payselection`), each
 * method at most once. Throws an Error whose message names the entry at fault.
 */
export function parsePaymentRouting(value: string): PaymentRouting {
  const text = value.trim();
  if (text === '') throw new Error('is empty: name a provider (sandbox) or list method:provider entries');
  if (!text.includes(':') && !text.includes(',')) {
    if (!isProviderName(text)) {
      throw new Error(`"${text}" is not a provider; the providers are ${PROVIDER_NAMES.join(', ')}`);
    }
    for (const method of ROUTED_METHODS) servedOrThrow(method, text, `"${text}"`);
    return Object.fromEntries(ROUTED_METHODS.map((method) => [method, text]));
  }
  const routing: PaymentRouting = {};
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    const [method = '', provider = '', ...rest] = entry.split(':').map((part) => part.trim());
    if (entry === '' || rest.length > 0 || method === '' || provider === '') {
      throw new Error(`entry "${entry}" is not method:provider (e.g. card:sandbox)`);
    }
    if (!isRoutedMethod(method)) {
      throw new Error(`entry "${entry}": "${method}" is not a method; the methods are ${ROUTED_METHODS.join(', ')}`);
    }
    if (!isProviderName(provider)) {
      throw new Error(
        `entry "${entry}": "${provider}" is not a provider; the providers are ${PROVIDER_NAMES.join(', ')}`,
      );
    }
    if (routing[method]) throw new Error(`entry "${entry}": ${method} is routed twice`);
    servedOrThrow(method, provider, `entry "${entry}"`);
    routing[method] = provider;
  }
  return routing;
}

/** The providers a routing names, each once, in PROVIDER_NAMES' order. */
export function routedProviders(routing: PaymentRouting): ProviderName[] {
  const named = new Set(Object.values(routing));
  return PROVIDER_NAMES.filter((name) => named.has(name));
}

// Each adapter's own settings type: the registry makes the adapter from exactly what it takes.
export type { PayselectionProviderConfig, StripeProviderConfig };

export interface ProviderConfigs {
  sandbox?: SandboxProviderConfig;
  stripe?: StripeProviderConfig;
  payselection?: PayselectionProviderConfig;
}

export type ProviderFactories = {
  [Name in ProviderName]: (config: NonNullable<ProviderConfigs[Name]>) => PaymentProvider;
};

/** How each provider is made from its settings. Wiring an adapter is its entry here. */
export const PROVIDER_FACTORIES: ProviderFactories = {
  sandbox: (config) => createSandboxPaymentProvider(config),
  stripe: (config) => createStripeProvider(config),
  payselection: (config) => createPayselectionProvider(config),
};

/** A method routed nowhere: the checkout does not offer it, and a call for it is refused (422). */
export class PaymentMethodNotOfferedError extends ValidationError {
  constructor(readonly method: RoutedMethod) {
    super({ method: [ErrorKeys.unknownOption] }, `Paying by ${method} is not offered by this store.`);
    this.name = 'PaymentMethodNotOfferedError';
  }
}

/** What acts on payments already made needs: their provider by its stored name. */
export interface ProvidersByName<P extends { name: string } = PaymentProvider> {
  /** Every provider configured, each once. */
  readonly providers: readonly P[];
  /** A provider by the name stored with its payments; undefined when it is not configured here. */
  byName(name: string): P | undefined;
}

/** The lookup of a service's deps: a registry, or (tests, older callers) one provider. */
export function providersOf<P extends { name: string }>(deps: {
  provider?: P | undefined;
  providers?: ProvidersByName<P> | undefined;
}): ProvidersByName<P> {
  if (deps.providers) return deps.providers;
  const { provider } = deps;
  if (!provider) throw new Error('a provider or a provider registry is needed');
  return { providers: [provider], byName: (name) => (name === provider.name ? provider : undefined) };
}

export interface ProviderRegistry extends ProvidersByName {
  /** The methods the checkout offers, in ROUTED_METHODS' order. */
  readonly offeredMethods: readonly RoutedMethod[];
  /** The provider that serves a method; PaymentMethodNotOfferedError when none does. */
  forMethod(method: RoutedMethod): PaymentProvider;
}

/** A registry over providers already made: `routing` names each by its `name`. */
export function createProviderRegistry(
  routing: PaymentRouting,
  providers: readonly PaymentProvider[],
): ProviderRegistry {
  const byName = new Map(providers.map((provider) => [provider.name, provider]));
  for (const [method, name] of Object.entries(routing)) {
    if (!byName.has(name)) throw new Error(`${method} is routed to ${name}, which is not configured`);
  }
  const offeredMethods = ROUTED_METHODS.filter((method) => routing[method] !== undefined);
  return {
    offeredMethods,
    providers: [...byName.values()],
    forMethod(method) {
      const name = routing[method];
      const provider = name === undefined ? undefined : byName.get(name);
      if (!provider) throw new PaymentMethodNotOfferedError(method);
      return provider;
    },
    byName: (name) => byName.get(name),
  };
}

/** One provider serving every method: the store before routing, and most tests. */
export function singleProviderRegistry(provider: PaymentProvider): ProviderRegistry {
  return createProviderRegistry(
    Object.fromEntries(ROUTED_METHODS.map((method) => [method, provider.name])) as PaymentRouting,
    [provider],
  );
}

/**
 * Makes each provider that has settings, then the registry. A provider the routing names without
 * settings, or whose adapter is not built, stops the start with an Error that names it.
 */
export function buildProviderRegistry(
  routing: PaymentRouting,
  configs: ProviderConfigs,
  factories: ProviderFactories = PROVIDER_FACTORIES,
): ProviderRegistry {
  for (const name of routedProviders(routing)) {
    if (!configs[name]) throw new Error(`${name} is routed to but has no settings`);
  }
  // A provider with settings that no method routes to is still made: it verifies the callbacks of
  // the payments it already has and refunds them, while its methods move elsewhere.
  const providers = PROVIDER_NAMES.flatMap((name) => {
    const config = configs[name];
    return config ? [(factories[name] as (config: unknown) => PaymentProvider)(config)] : [];
  });
  return createProviderRegistry(routing, providers);
}
