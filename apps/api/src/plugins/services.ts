import {
  type AccountService,
  type BasketService,
  type CatalogueService,
  createAccountService,
  createBasketService,
  createCatalogueService,
  createDeliveryService,
  createDisplayRates,
  createIndexedProductSearch,
  createLedgerService,
  createOrderService,
  createPaymentEventIntake,
  createPaymentReconciler,
  createPaymentService,
  createPromoService,
  createReviewService,
  createSandboxPaymentProvider,
  createSessionCache,
  createStockNotificationService,
  type DeliveryService,
  type DisplayRates,
  type IndexedProductSearch,
  type JobQueue,
  type LedgerService,
  type OrderService,
  type PaymentEventIntake,
  type PaymentProvider,
  type PaymentReconciler,
  type PaymentService,
  type PromoService,
  type ReviewService,
  type StockNotificationService,
} from '@store/core';
import { createCodeCipher, type Database } from '@store/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Env } from '../env.ts';
import { sandboxProviderConfig } from './payments-sandbox.ts';
import { type RateLimitName, type RateLimitPreset, rateLimit } from './rate-limit-presets.ts';

export interface Services {
  /** The catalogue's search index in this process, fresh from the database's change feed. */
  search: IndexedProductSearch;
  catalogue: CatalogueService;
  /** The operator's display rates, kept in the process and fresh from the table's change feed. */
  displayRates: DisplayRates;
  /** "Tell me when it is back": requests kept, and written to when stock returns. */
  stockNotifications: StockNotificationService;
  accounts: AccountService;
  reviews: ReviewService;
  basket: BasketService;
  promo: PromoService;
  orders: OrderService;
  ledger: LedgerService;
  delivery: DeliveryService;
  /** The payment provider (the sandbox, embedded or standalone). */
  paymentProvider: PaymentProvider;
  /** Verified callbacks and the provider's answers, stored and handed to the queue. */
  paymentEvents: PaymentEventIntake;
  /** Asks the provider about payments whose callbacks do not come. */
  paymentReconciler: PaymentReconciler;
  payments: PaymentService;
}

declare module 'fastify' {
  interface FastifyInstance {
    env: Env;
    database: Database;
    queue: JobQueue;
    redis: Redis | undefined;
    services: Services;
    /** The named rate-limit preset, scaled for this environment. */
    rateLimitPreset(name: RateLimitName): RateLimitPreset;
  }
}

export interface ServicesPluginOptions {
  env: Env;
  database: Database;
  queue: JobQueue;
  redis?: Redis;
}

/** The app's dependencies and the core services built over them. */
export default fp(async function services(
  app: FastifyInstance,
  { env, database, queue, redis }: ServicesPluginOptions,
) {
  app.decorate('env', env);
  app.decorate('database', database);
  app.decorate('queue', queue);
  app.decorate('redis', redis);
  const search = await createIndexedProductSearch({ db: database.prisma, listen: database.listen, logger: app.log });
  app.addHook('onClose', () => search.close());
  const displayRates = await createDisplayRates({ db: database.prisma, listen: database.listen, logger: app.log });
  app.addHook('onClose', () => displayRates.close());
  // Every authenticated call checks its session; one checked in the last few seconds is not read
  // again, and one that ends is forgotten at once by every instance (sessions.ts).
  const sessionCache = createSessionCache();
  await sessionCache.start(database.listen);
  app.addHook('onClose', () => sessionCache.close());
  const orders = createOrderService({
    db: database.prisma,
    promo: createPromoService({ db: database.prisma }),
    queue,
    logger: app.log,
    publicUrl: env.PUBLIC_URL,
  });
  const paymentProvider = createSandboxPaymentProvider(sandboxProviderConfig(env));
  const paymentEvents = createPaymentEventIntake({ db: database.prisma, queue, logger: app.log });
  const paymentReconciler = createPaymentReconciler({
    db: database.prisma,
    provider: paymentProvider,
    intake: paymentEvents,
    logger: app.log,
  });
  const stockNotifications = createStockNotificationService({
    db: database.prisma,
    queue,
    publicUrl: env.PUBLIC_URL,
    logger: app.log,
  });
  // Stock comes back by a code import (from the command line too), an order's codes returning, or an
  // operator's change: each reaches every instance as a catalogue change, and the requests it
  // answers are written once whichever instance gets there first. At start, what came back while
  // no instance ran.
  const notifyRestocked = () => {
    stockNotifications.notifyRestocked().catch((error: unknown) => {
      app.log.error({ err: error }, 'back-in-stock emails not written; the next change tries again');
    });
  };
  search.onChange(notifyRestocked);
  app.addHook('onReady', async () => notifyRestocked());
  app.decorate('services', {
    search,
    stockNotifications,
    catalogue: createCatalogueService({
      db: database.prisma,
      search,
      displayRates,
      pageTtlMs: env.CATALOGUE_CACHE_MS,
    }),
    displayRates,
    accounts: createAccountService({
      db: database.prisma,
      queue,
      publicUrl: env.PUBLIC_URL,
      sessionTtlHours: env.SESSION_TTL_HOURS,
      logger: app.log,
      sessionCache,
    }),
    reviews: createReviewService({ db: database.prisma }),
    basket: createBasketService({ db: database.prisma }),
    promo: createPromoService({ db: database.prisma }),
    orders,
    ledger: createLedgerService({ db: database.prisma }),
    delivery: createDeliveryService({
      db: database.prisma,
      cipher: createCodeCipher(env.CODE_ENCRYPTION_KEY),
    }),
    paymentProvider,
    paymentEvents,
    paymentReconciler,
    payments: createPaymentService({
      db: database.prisma,
      orders,
      provider: paymentProvider,
      reconciler: paymentReconciler,
      publicUrl: env.PUBLIC_URL,
      logger: app.log,
    }),
  });
  app.decorate('rateLimitPreset', (name: RateLimitName) => rateLimit(name, env.RATE_LIMIT_SCALE));
});
