import { describe, expect, it } from 'vitest';
import type { PaymentProvider } from './provider.ts';
import {
  buildProviderRegistry,
  PaymentMethodNotOfferedError,
  PROVIDER_FACTORIES,
  parsePaymentRouting,
  routedMethodOf,
} from './provider-registry.ts';
import { readProviderSettings } from './provider-settings.ts';

const fake = (name: string) => ({ name }) as PaymentProvider;
const factories = {
  sandbox: () => fake('sandbox'),
  stripe: () => fake('stripe'),
  payselection: () => fake('payselection'),
};
const stripe = {
  secretKey: 'sk_test_1',
  publishableKey: 'pk_test_1',
  webhookSecrets: ['whsec_1'],
  apiUrl: 'http://127.0.0.1:1',
  callbackUrl: 'http://store/cb',
};
const sandbox = {
  apiUrl: 'http://127.0.0.1:1/sandbox',
  publicUrl: 'http://127.0.0.1:1/sandbox',
  apiKey: 'k'.repeat(16),
  webhookSecrets: [],
  callbackUrl: 'http://store/cb',
};

describe('parsePaymentRouting', () => {
  it('takes a provider alone for every method, or method:provider entries', () => {
    expect(parsePaymentRouting('sandbox')).toEqual({
      widget: 'sandbox',
      hosted_page: 'sandbox',
      card: 'sandbox',
      pix: 'sandbox',
      sbp: 'sandbox',
      upi: 'sandbox',
    });
    expect(parsePaymentRouting(' pix:stripe , card:sandbox,sbp:payselection ')).toEqual({
      pix: 'stripe',
      card: 'sandbox',
      sbp: 'payselection',
    });
  });

  it('names the entry at fault', () => {
    expect(() => parsePaymentRouting('paypal')).toThrow('"paypal" is not a provider');
    expect(() => parsePaymentRouting('card:sandbox,qr:sandbox')).toThrow('entry "qr:sandbox": "qr" is not a method');
    expect(() => parsePaymentRouting('card:paypal')).toThrow('entry "card:paypal": "paypal" is not a provider');
    expect(() => parsePaymentRouting('card:sandbox,card:payselection')).toThrow(
      'entry "card:payselection": card is routed twice',
    );
    expect(() => parsePaymentRouting('card:sandbox,,upi:sandbox')).toThrow('entry "" is not method:provider');
    expect(() => parsePaymentRouting('card:sandbox:x')).toThrow('entry "card:sandbox:x" is not method:provider');
    expect(() => parsePaymentRouting('')).toThrow('is empty');
  });

  it('refuses a method its provider does not serve in this store', () => {
    expect(() => parsePaymentRouting('card:stripe')).toThrow(
      'entry "card:stripe": stripe does not serve card in this store; it serves pix',
    );
    expect(() => parsePaymentRouting('upi:payselection')).toThrow('payselection does not serve upi');
    expect(() => parsePaymentRouting('stripe')).toThrow('"stripe": stripe does not serve widget');
  });
});

describe('the registry', () => {
  it('answers the provider of each method, a QR by its scheme, and refuses a method routed nowhere', () => {
    const registry = buildProviderRegistry(
      parsePaymentRouting('card:sandbox,sbp:sandbox,pix:stripe'),
      { sandbox, stripe },
      factories,
    );
    expect(registry.offeredMethods).toEqual(['card', 'pix', 'sbp']);
    expect(registry.forMethod('pix').name).toBe('stripe');
    expect(registry.forMethod(routedMethodOf({ method: 'qr', scheme: 'sbp' })).name).toBe('sandbox');
    expect(() => registry.forMethod('upi')).toThrow(PaymentMethodNotOfferedError);
    expect(registry.byName('stripe')?.name).toBe('stripe');
    expect(registry.byName('payselection')).toBeUndefined();
  });

  it('keeps a provider with settings that no method routes to, for its payments', () => {
    const registry = buildProviderRegistry(parsePaymentRouting('sandbox'), { sandbox, stripe }, factories);
    expect(registry.providers.map((provider) => provider.name)).toEqual(['sandbox', 'stripe']);
    expect(registry.forMethod('widget').name).toBe('sandbox');
    expect(registry.byName('stripe')?.name).toBe('stripe');
  });

  it('does not start on a routed provider without settings', () => {
    expect(() => buildProviderRegistry(parsePaymentRouting('pix:stripe'), { sandbox }, factories)).toThrow(
      'stripe is routed to but has no settings',
    );
  });

  it('makes the real adapters from their settings', () => {
    const payselection = {
      siteId: '21044',
      secretKey: 'ps-secret-key',
      publicKey: '04abcdef',
      webhookSecrets: ['ps-secret-key'],
      apiUrl: 'http://127.0.0.1:1',
      callbackUrl: 'http://store/api/payments/callback/payselection',
    };
    const registry = buildProviderRegistry(
      parsePaymentRouting('pix:stripe,sbp:payselection'),
      { stripe, payselection },
      PROVIDER_FACTORIES,
    );
    expect(registry.forMethod('pix').name).toBe('stripe');
    expect(registry.forMethod('sbp').name).toBe('payselection');
    expect(typeof registry.byName('stripe')?.verifyCallback).toBe('function');
  });
});

describe('readProviderSettings', () => {
  it('needs nothing for the sandbox', () => {
    expect(readProviderSettings({})).toEqual({ settings: { routing: parsePaymentRouting('sandbox') }, issues: [] });
  });

  it('requires a routed provider’s variables, naming each missing one and why', () => {
    const { issues } = readProviderSettings({ PAYMENTS_PROVIDER: 'pix:stripe,sbp:payselection' });
    expect(issues.map((issue) => issue.variable)).toEqual([
      'STRIPE_SECRET_KEY',
      'STRIPE_PUBLISHABLE_KEY',
      'STRIPE_WEBHOOK_SECRETS',
      'PAYSELECTION_SITE_ID',
      'PAYSELECTION_SECRET_KEY',
      'PAYSELECTION_PUBLIC_KEY',
    ]);
    expect(issues[0]?.message).toBe('must be set: a method routes to stripe');
  });

  it('reads them, with the default API URLs, several webhook secrets and Payselection’s own key signing', () => {
    const { settings, issues } = readProviderSettings({
      PAYMENTS_PROVIDER: 'pix:stripe,sbp:payselection',
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
      STRIPE_WEBHOOK_SECRETS: 'whsec_newnewnew, whsec_oldoldold',
      PAYSELECTION_SITE_ID: '21044',
      PAYSELECTION_SECRET_KEY: 'ps-secret-key',
      PAYSELECTION_PUBLIC_KEY: '04abcdef',
      PAYSELECTION_API_URL: 'http://127.0.0.1:9999/',
    });
    expect(issues).toEqual([]);
    expect(settings.stripe).toEqual({
      secretKey: 'sk_test_abc',
      publishableKey: 'pk_test_abc',
      webhookSecrets: ['whsec_newnewnew', 'whsec_oldoldold'],
      apiUrl: 'https://api.stripe.com',
    });
    expect(settings.payselection).toMatchObject({ webhookSecrets: ['ps-secret-key'], apiUrl: 'http://127.0.0.1:9999' });
  });

  it('refuses values of the wrong shape, and partial settings of a provider no method routes to', () => {
    const wrong = readProviderSettings({
      PAYMENTS_PROVIDER: 'pix:stripe',
      STRIPE_SECRET_KEY: 'pk_test_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_abc',
      STRIPE_WEBHOOK_SECRETS: 'nope',
      STRIPE_API_URL: 'ftp://x',
    });
    expect(wrong.issues.map((issue) => issue.variable).sort()).toEqual([
      'STRIPE_API_URL',
      'STRIPE_PUBLISHABLE_KEY',
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRETS',
    ]);
    const partial = readProviderSettings({ PAYSELECTION_SITE_ID: '1' });
    expect(partial.issues[0]).toEqual({
      variable: 'PAYSELECTION_SECRET_KEY',
      message: 'must be set: other PAYSELECTION_ variables are set',
    });
  });
});
