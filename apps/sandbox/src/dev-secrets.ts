/**
 * The development defaults both sides share, so that `pnpm start` (the sandbox in the store's
 * process) and a standalone sandbox next to a development store work with no configuration. They
 * are public: any deployment sets its own (docker-compose.yml shows where).
 */
export const DEV_SANDBOX_API_KEY = 'sk_sandbox_dev_only_0123456789abcdef';
export const DEV_WEBHOOK_SECRET = 'whsec_c3RvcmUtc2FuZGJveC1kZXYtb25seS13ZWJob29rcyE=';
