import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEV_SANDBOX_API_KEY, DEV_WEBHOOK_SECRET } from './dev-secrets.ts';
import { loadSandboxEnv } from './env.ts';

/** The store's own, as the full stack's .env holds them. */
const secrets = () => ({
  SANDBOX_API_KEY: randomBytes(32).toString('hex'),
  PAYMENTS_WEBHOOK_SECRETS: `whsec_${randomBytes(32).toString('base64')}`,
});

describe('loadSandboxEnv', () => {
  it('runs next to a development store given the store’s key and webhook secret', () => {
    const given = secrets();
    expect(loadSandboxEnv(given)).toMatchObject({
      PORT: 4010,
      SANDBOX_PUBLIC_URL: 'http://localhost:4010',
      SANDBOX_API_KEY: given.SANDBOX_API_KEY,
      PAYMENTS_WEBHOOK_SECRETS: [given.PAYMENTS_WEBHOOK_SECRETS],
      SANDBOX_MERCHANT_FROM_NETWORK: false,
      SANDBOX_STORE_ORIGINS: ['http://localhost:3000'],
      SANDBOX_WIDGET_CALLBACK_URL: 'http://localhost:3000/api/payments/callback',
    });
  });

  it('takes the published secrets in tests only', () => {
    expect(loadSandboxEnv({ NODE_ENV: 'test' })).toMatchObject({
      SANDBOX_API_KEY: DEV_SANDBOX_API_KEY,
      PAYMENTS_WEBHOOK_SECRETS: [DEV_WEBHOOK_SECRET],
    });
    for (const NODE_ENV of ['development', 'production']) {
      expect(() => loadSandboxEnv({ NODE_ENV })).toThrow(
        /SANDBOX_API_KEY: must be set, to the store's[\s\S]*PAYMENTS_WEBHOOK_SECRETS: must be set/,
      );
      expect(() =>
        loadSandboxEnv({
          NODE_ENV,
          SANDBOX_API_KEY: DEV_SANDBOX_API_KEY,
          PAYMENTS_WEBHOOK_SECRETS: `${secrets().PAYMENTS_WEBHOOK_SECRETS},${DEV_WEBHOOK_SECRET}`,
        }),
      ).toThrow(/SANDBOX_API_KEY: is published[\s\S]*PAYMENTS_WEBHOOK_SECRETS: is published/);
    }
  });

  it('answers the merchant from other machines only when told to', () => {
    expect(loadSandboxEnv({ ...secrets(), SANDBOX_MERCHANT_FROM_NETWORK: 'true' }).SANDBOX_MERCHANT_FROM_NETWORK).toBe(
      true,
    );
    expect(() => loadSandboxEnv({ ...secrets(), SANDBOX_MERCHANT_FROM_NETWORK: 'yes' })).toThrow(
      /SANDBOX_MERCHANT_FROM_NETWORK/,
    );
  });

  it('takes lists, and lists everything wrong at once', () => {
    const env = loadSandboxEnv({
      ...secrets(),
      SANDBOX_STORE_ORIGINS: 'http://localhost:3000, https://shop.example',
      PAYMENTS_WEBHOOK_SECRETS: `${secrets().PAYMENTS_WEBHOOK_SECRETS},whsec_${'Q'.repeat(44)}`,
    });
    expect(env.SANDBOX_STORE_ORIGINS).toEqual(['http://localhost:3000', 'https://shop.example']);
    expect(env.PAYMENTS_WEBHOOK_SECRETS).toHaveLength(2);
    expect(() =>
      loadSandboxEnv({ PORT: 'x', PAYMENTS_WEBHOOK_SECRETS: 'plain', SANDBOX_STORE_ORIGINS: 'nope' }),
    ).toThrow(/PORT[\s\S]*PAYMENTS_WEBHOOK_SECRETS[\s\S]*SANDBOX_STORE_ORIGINS/);
  });
});
