import {
  type AccountService,
  type BasketService,
  type CatalogueService,
  createStore,
  type DeliveryService,
  type DisplayRates,
  type IndexedProductSearch,
  type JobQueue,
  type LedgerService,
  type OrderHistory,
  type OrderService,
  openShop,
  type PaymentEventIntake,
  type PaymentReconciler,
  type PaymentService,
  type PromoService,
  type ProviderRegistry,
  type ReviewService,
  type StockNotificationService,
  type Store,
} from '@store/core';
import type { Database } from '@store/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Env } from '../env.ts';
import { providerRegistryFor } from './payments-sandbox.ts';
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
  /** The customer's orders and what their receipts say. */
  orderHistory: OrderHistory;
  ledger: LedgerService;
  delivery: DeliveryService;
  /** The payment providers: which serves each method, and each by name (callbacks, refunds). */
  paymentProviders: ProviderRegistry;
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
    /** The store the services come from; the console's routes use its operator services. */
    store: Store;
    /** The named rate-limit preset, scaled for this environment. */
    rateLimitPreset(name: RateLimitName): RateLimitPreset;
  }
}

export interface ServicesPluginOptions {
  env: Env;
  database: Database;
  queue: JobQueue;
  redis?: Redis;
  /** The store this process made (createStore); made here over `database` and `queue` when absent. */
  store?: Store;
}

/** The app's dependencies and the core services built over them. */
export default fp(async function services(
  app: FastifyInstance,
  { env, database, queue, redis, store: given }: ServicesPluginOptions,
) {
  app.decorate('env', env);
  app.decorate('database', database);
  app.decorate('queue', queue);
  app.decorate('redis', redis);
  const store =
    given ??
    createStore({
      database,
      queue,
      logger: app.log,
      publicUrl: env.PUBLIC_URL,
      providers: providerRegistryFor(env),
      codeKey: env.CODE_ENCRYPTION_KEY,
      charges: {
        cardCurrencies: env.PAYMENTS_CHARGE_CURRENCY,
        rateMaxAgeMs: env.PAYMENTS_RATE_MAX_AGE_HOURS * 3_600_000,
      },
    });
  const { delivery, paymentProviders, paymentReconciler, payments } = store;
  if (!delivery || !paymentProviders || !paymentReconciler || !payments) {
    throw new Error('the API needs a store with a payment provider and the code key');
  }
  const shop = await openShop(store, {
    sessionTtlHours: env.SESSION_TTL_HOURS,
    cataloguePageTtlMs: env.CATALOGUE_CACHE_MS,
  });
  app.addHook('onClose', () => shop.close());
  const { search, stockNotifications } = shop;
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
  app.decorate('store', store);
  app.decorate('services', {
    search,
    stockNotifications,
    catalogue: shop.catalogue,
    displayRates: shop.displayRates,
    accounts: shop.accounts,
    reviews: store.reviews,
    basket: store.basket,
    promo: store.promo,
    orders: store.orders,
    orderHistory: store.orderHistory,
    ledger: store.ledger,
    delivery,
    paymentProviders,
    paymentEvents: store.paymentEvents,
    paymentReconciler,
    payments,
  });
  app.decorate('rateLimitPreset', (name: RateLimitName) => rateLimit(name, env.RATE_LIMIT_SCALE));
});
