import Fastify from 'fastify';
import { loadSandboxEnv } from './env.ts';
import { sandboxPlugin } from './plugin.ts';

/** The sandbox as its own service (docker-compose.yml): the same plugin, at the root of its own server. */
async function main() {
  const env = loadSandboxEnv();
  const app = Fastify({
    logger: {
      level: env.LOG_LEVEL,
      // Card data travels in request bodies, which are never logged; these paths guard the rest.
      redact: { paths: ['req.headers.authorization', '*.card', '*.card_number', '*.cvc'], censor: '[redacted]' },
    },
    bodyLimit: 64 * 1024,
  });
  await app.register(sandboxPlugin, {
    publicUrl: env.SANDBOX_PUBLIC_URL,
    apiKey: env.SANDBOX_API_KEY,
    merchantFromNetwork: env.SANDBOX_MERCHANT_FROM_NETWORK,
    webhookSecrets: env.PAYMENTS_WEBHOOK_SECRETS,
    storeOrigins: env.SANDBOX_STORE_ORIGINS,
    widgetCallbackUrl: env.SANDBOX_WIDGET_CALLBACK_URL,
  });
  app.get('/health', async () => ({ status: 'ok' }));

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: env.HOST, port: env.PORT });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
