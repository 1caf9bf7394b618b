/**
 * The secrets of tests (NODE_ENV=test), on both sides: the store's and the sandbox's tests use them
 * with no configuration. They are published, so nothing else may: a store makes its own
 * (packages/db local-secrets.ts) or is given them, and a standalone sandbox is given the store's.
 */
export const DEV_SANDBOX_API_KEY = 'sk_sandbox_dev_only_0123456789abcdef';
export const DEV_WEBHOOK_SECRET = 'whsec_c3RvcmUtc2FuZGJveC1kZXYtb25seS13ZWJob29rcyE=';
