import { createCodeCipher, type Database } from '@store/db';
import { type AccountService, createAccountService } from './accounts/account-service.ts';
import { createSessionCache } from './accounts/sessions.ts';
import { type AdminCustomers, createAdminCustomers } from './admin/admin-customers.ts';
import { type AdminOrders, createAdminOrders } from './admin/admin-orders.ts';
import { type AdminProducts, createAdminProducts } from './admin/admin-products.ts';
import { type AdminPromoCodes, createAdminPromo } from './admin/admin-promo.ts';
import { type AuditLog, createAuditLog } from './admin/audit-log.ts';
import { type CodeStock, createCodeStock } from './admin/code-stock.ts';
import { createDashboard, type Dashboard } from './admin/dashboard.ts';
import { createStaffService, type StaffService } from './admin/staff-service.ts';
import { type BasketService, createBasketService } from './basket/basket-service.ts';
import { type CatalogueService, createCatalogueService } from './catalogue/catalogue-service.ts';
import { createStockNotificationService, type StockNotificationService } from './catalogue/stock-notifications.ts';
import { createDeliveryService, type DeliveryService } from './delivery/delivery-service.ts';
import {
  createDisplayRateAdmin,
  createDisplayRates,
  type DisplayRateAdmin,
  type DisplayRates,
} from './display/display-rates.ts';
import { createLedgerService, type LedgerService } from './ledger/ledger-service.ts';
import type { Mailer } from './mail/mail-types.ts';
import { createOrderHistory, type OrderHistory } from './orders/order-history.ts';
import { createOrderOperations, type OrderOperations } from './orders/order-operations.ts';
import { createOrderService, type OrderService } from './orders/order-service.ts';
import type { ChargeConfig } from './payments/charge-currency.ts';
import {
  createPaymentEventIntake,
  createPaymentEventProcessor,
  type PaymentEventIntake,
  type PaymentEventProcessor,
} from './payments/payment-events.ts';
import { createPaymentReconciler, type PaymentReconciler } from './payments/payment-reconcile.ts';
import { createPaymentService, type PaymentService } from './payments/payment-service.ts';
import type { PaymentProvider } from './payments/provider.ts';
import { createProviderRefunds, type ProviderRefunds } from './payments/provider-refunds.ts';
import { type ProviderRegistry, singleProviderRegistry } from './payments/provider-registry.ts';
import { createPromoService, type PromoService } from './promo/promo-service.ts';
import { createInProcessQueue } from './queue/in-process-queue.ts';
import { createJobHandlers } from './queue/job-handlers.ts';
import type { JobHandlers, JobQueue } from './queue/job-queue.ts';
import { createReviewService, type ReviewService } from './reviews/review-service.ts';
import { createIndexedProductSearch, type IndexedProductSearch } from './search/indexed-product-search.ts';
import type { Logger } from './shared/logger.ts';

/** What the store is made of: given by whoever runs it (the API, the worker, a command, a test). */
export interface StoreDeps<Queue extends JobQueue | null = JobQueue | null> {
  database: Database;
  /**
   * Where jobs go once their rows are committed. `null` where no queue runs (an operator's command):
   * every service then only writes its rows, and the sweeps of the running store or worker hand
   * them on (an email within a minute). Said explicitly rather than left out, so that a process
   * with a queue cannot forget to give it and have its mail wait for the sweep. A store keeps the
   * queue's type: `Store` alone is one with a queue (the API's, the worker's).
   */
  queue: Queue;
  logger: Logger;
  /**
   * The shop's address, for the links in emails and the provider's return pages (the fulfilment
   * links each receipt to the profile there). A command reads PUBLIC_URL as the store does, so that
   * its emails link where the store's do.
   */
  publicUrl: string;
  /**
   * The payment provider. Without it nothing is asked of a provider: no payments, no reconciling,
   * refunds to the card wait for a process that has one.
   */
  provider?: PaymentProvider;
  /**
   * Which provider serves each method, and every provider by name (provider-registry.ts); wins
   * over `provider`, which stands for one provider serving every method.
   */
  providers?: ProviderRegistry;
  /** The key the gift-card codes are encrypted with; without it, codes cannot be shown. */
  codeKey?: string;
  /** What each payment method is charged in (docs/currency.md); BRL for the card paths by default. */
  charges?: ChargeConfig;
  /** The store's time; tests set it. The wall clock by default. */
  clock?: () => Date;
}

/** The store's services over one database and one queue (or none), each made once. */
export interface Store<Queue extends JobQueue | null = JobQueue> {
  readonly database: Database;
  readonly queue: Queue;
  readonly logger: Logger;
  readonly publicUrl: string;
  promo: PromoService;
  orders: OrderService;
  /** The customer's orders and what their receipts say (the profile). */
  orderHistory: OrderHistory;
  /** What an operator does to orders: look them up and refund them. */
  orderOperations: OrderOperations;
  /** The operator's display rates as stored: set, listed, removed. */
  displayRateAdmin: DisplayRateAdmin;
  ledger: LedgerService;
  basket: BasketService;
  reviews: ReviewService;
  /** Undefined without the code key. */
  delivery: DeliveryService | undefined;
  /** Staff and their sign-in; undefined without the code key, which encrypts their TOTP secrets. */
  staff: StaffService | undefined;
  /** What staff did, as the console reads it. */
  auditLog: AuditLog;
  /** The console's orders: search, detail, refunds (through `orderOperations`), receipts, export. */
  adminOrders: AdminOrders;
  /** The console's code stock: imports, batches, withdrawals, reveals; undefined without the code key. */
  codeStock: CodeStock | undefined;
  /** The console's customers: search, detail, balance adjustments, sessions, blocking. */
  adminCustomers: AdminCustomers;
  /** The console's first page: sales, orders by status, low stock, what needs an operator. */
  dashboard: Dashboard;
  /** The console's catalogue: products listed, read, created and changed. */
  adminProducts: AdminProducts;
  /** The console's promo codes: listed, created, deactivated. */
  adminPromo: AdminPromoCodes;
  /** Verified callbacks and the provider's answers, stored and handed to the queue. */
  paymentEvents: PaymentEventIntake;
  /** What a stored payment event does to the order, the balance and the ledger. */
  paymentEventProcessor: PaymentEventProcessor;
  /** The rest are undefined without a provider. */
  paymentProviders: ProviderRegistry | undefined;
  paymentReconciler: PaymentReconciler | undefined;
  providerRefunds: ProviderRefunds | undefined;
  payments: PaymentService | undefined;
  /** The handlers of every job kind, delivering mail with `mailer`. */
  jobHandlers(mailer: Mailer): JobHandlers;
}

/**
 * The one place the store is wired: every process builds its services here, so the API, the
 * worker, the operator's commands and the tests run the same objects over what they were given.
 */
export function createStore<Queue extends JobQueue | null>(deps: StoreDeps<Queue>): Store<Queue> {
  const { database, logger, publicUrl, codeKey, charges, clock } = deps;
  const providers = deps.providers ?? (deps.provider ? singleProviderRegistry(deps.provider) : undefined);
  const { prisma: db, sql } = database;
  // The services take a missing queue as "none runs here".
  const queue = deps.queue ?? undefined;
  const promo = createPromoService({ db, sql, clock });
  const orders = createOrderService({ sql, promo, queue, logger, publicUrl, clock });
  const paymentEvents = createPaymentEventIntake({ sql, queue, logger, clock });
  const paymentEventProcessor = createPaymentEventProcessor({ sql, orders, queue, logger, clock });
  const paymentReconciler = providers
    ? createPaymentReconciler({ db, providers, intake: paymentEvents, logger, clock })
    : undefined;
  const providerRefunds = providers
    ? createProviderRefunds({ sql, providers, intake: paymentEvents, logger, clock })
    : undefined;
  const payments =
    providers && paymentReconciler
      ? createPaymentService({
          db,
          sql,
          orders,
          providers,
          reconciler: paymentReconciler,
          publicUrl,
          logger,
          clock,
          ...(charges ? { charges } : {}),
        })
      : undefined;
  const orderOperations = createOrderOperations({ db, sql, publicUrl, queue, logger });
  const codeCipher = codeKey ? createCodeCipher(codeKey) : undefined;
  const staff = codeCipher ? createStaffService({ sql, cipher: codeCipher, ...(clock ? { clock } : {}) }) : undefined;
  const adminOrders = createAdminOrders({ sql, orderOperations, publicUrl, queue, logger });
  return {
    database,
    queue: deps.queue,
    logger,
    publicUrl,
    promo,
    orders,
    orderHistory: createOrderHistory({ sql }),
    orderOperations,
    displayRateAdmin: createDisplayRateAdmin({ sql, clock }),
    ledger: createLedgerService({ sql }),
    basket: createBasketService({ db }),
    reviews: createReviewService({ db, sql }),
    delivery: codeCipher ? createDeliveryService({ sql, cipher: codeCipher }) : undefined,
    staff,
    auditLog: createAuditLog({ sql }),
    adminOrders,
    codeStock: codeCipher ? createCodeStock({ sql, cipher: codeCipher }) : undefined,
    adminCustomers: createAdminCustomers({ sql, adminOrders, freshTotp: staff?.requireFreshTotp, clock }),
    dashboard: createDashboard({ sql, clock }),
    adminProducts: createAdminProducts({ sql }),
    adminPromo: createAdminPromo({ sql, ...(clock ? { clock } : {}) }),
    paymentEvents,
    paymentEventProcessor,
    paymentProviders: providers,
    paymentReconciler,
    providerRefunds,
    payments,
    jobHandlers: (mailer) =>
      createJobHandlers({
        sql,
        logger,
        mailer,
        paymentEvents: paymentEventProcessor,
        ...(providerRefunds ? { providerRefunds } : {}),
      }),
  };
}

/**
 * The store with its jobs run in this process (the embedded mode, tests): the queue runs the
 * store's own handlers, and what they enqueue comes back to the same queue.
 */
export function createStoreWithJobsInProcess(deps: Omit<StoreDeps, 'queue'> & { mailer: Mailer }): Store {
  let store: Store | undefined;
  createInProcessQueue((queue) => {
    store = createStore({ ...deps, queue });
    return store.jobHandlers(deps.mailer);
  }, deps.logger);
  if (!store) throw new Error('the in-process queue did not make its handlers');
  return store;
}

export interface ShopOptions {
  sessionTtlHours: number;
  /** How long a catalogue page is served from memory. */
  cataloguePageTtlMs?: number;
}

/** What only a process serving shoppers holds: the read models kept fresh from the change feed. */
export interface Shop {
  /** The catalogue's search index in this process. */
  search: IndexedProductSearch;
  /** The operator's display rates, kept in the process. */
  displayRates: DisplayRates;
  catalogue: CatalogueService;
  accounts: AccountService;
  /** "Tell me when it is back": requests kept, and written to when stock returns. */
  stockNotifications: StockNotificationService;
  close(): Promise<void>;
}

/**
 * Opens the shop's read side over a store: the search index and the display rates built from the
 * database and kept fresh by its notifications, and the session cache every instance clears at once.
 */
export async function openShop(store: Store, { sessionTtlHours, cataloguePageTtlMs }: ShopOptions): Promise<Shop> {
  const { database, queue, logger, publicUrl } = store;
  const { prisma: db, sql } = database;
  const search = await createIndexedProductSearch({ db, sql, listen: database.listen, logger });
  const displayRates = await createDisplayRates({ sql, listen: database.listen, logger }).catch(async (error) => {
    await search.close();
    throw error;
  });
  // Every authenticated call checks its session; one checked in the last few seconds is not read
  // again, and one that ends is forgotten at once by every instance (sessions.ts).
  const sessionCache = createSessionCache();
  await sessionCache.start(database.listen);
  return {
    search,
    displayRates,
    catalogue: createCatalogueService({ db, sql, search, displayRates, pageTtlMs: cataloguePageTtlMs }),
    accounts: createAccountService({ db, sql, queue, publicUrl, sessionTtlHours, logger, sessionCache }),
    stockNotifications: createStockNotificationService({ db, queue, publicUrl, logger }),
    async close() {
      await search.close();
      await displayRates.close();
      await sessionCache.close();
    },
  };
}
