import { describe, expect, it } from 'vitest';
import { DEV_SANDBOX_API_KEY, DEV_WEBHOOK_SECRET } from './dev-secrets.ts';
import { loadSandboxEnv } from './env.ts';

describe('loadSandboxEnv', () => {
  it('runs next to a development store with no configuration', () => {
    expect(loadSandboxEnv({})).toMatchObject({
      PORT: 4010,
      SANDBOX_PUBLIC_URL: 'http://localhost:4010',
      SANDBOX_API_KEY: DEV_SANDBOX_API_KEY,
      PAYMENTS_WEBHOOK_SECRETS: [DEV_WEBHOOK_SECRET],
      SANDBOX_STORE_ORIGINS: ['http://localhost:3000'],
      SANDBOX_WIDGET_CALLBACK_URL: 'http://localhost:3000/api/payments/callback',
    });
  });

  it('takes lists, and lists everything wrong at once', () => {
    const env = loadSandboxEnv({
      SANDBOX_STORE_ORIGINS: 'http://localhost:3000, https://shop.example',
      PAYMENTS_WEBHOOK_SECRETS: `${DEV_WEBHOOK_SECRET},whsec_${'Q'.repeat(44)}`,
    });
    expect(env.SANDBOX_STORE_ORIGINS).toEqual(['http://localhost:3000', 'https://shop.example']);
    expect(env.PAYMENTS_WEBHOOK_SECRETS).toHaveLength(2);
    expect(() =>
      loadSandboxEnv({ PORT: 'x', PAYMENTS_WEBHOOK_SECRETS: 'plain', SANDBOX_STORE_ORIGINS: 'nope' }),
    ).toThrow(/PORT[\s\S]*PAYMENTS_WEBHOOK_SECRETS[\s\S]*SANDBOX_STORE_ORIGINS/);
  });
});
