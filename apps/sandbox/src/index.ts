export { TEST_CARDS } from './cards.ts';
export { DEV_SANDBOX_API_KEY, DEV_WEBHOOK_SECRET } from './dev-secrets.ts';
export { hostedRequestSignature } from './hosted-request.ts';
export { DEFAULT_MERCHANT, type MerchantProfile, type SandboxOptions } from './options.ts';
export { sandboxPlugin } from './plugin.ts';
export type { ChaosSettings, DeliveryOptions } from './webhooks.ts';
