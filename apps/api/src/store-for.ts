import {
  createStore,
  createStoreWithJobsInProcess,
  type JobQueue,
  type Logger,
  type Mailer,
  type Store,
} from '@store/core';
import type { Database } from '@store/db';
import type { Env } from './env.ts';
import { providerRegistryFor } from './plugins/payments-sandbox.ts';

export interface StoreForOptions {
  database: Database;
  /** Where the store's services and jobs log. */
  logger: Logger;
  /**
   * A queue run elsewhere (BullMQ, for the worker; a test's recording queue). Without one the
   * store's jobs run in this process with its own handlers, delivering mail through `mailer`.
   */
  queue?: JobQueue;
  mailer: Mailer;
}

/**
 * The store this API serves, made from its settings: the shop's address, the payment providers
 * routed per method and the codes' key. The one place that reads them, for the running API and
 * the tests' apps alike, so that a test's store is the one `pnpm start` makes.
 */
export function storeFor(env: Env, { database, logger, queue, mailer }: StoreForOptions): Store {
  const deps = {
    database,
    logger,
    publicUrl: env.PUBLIC_URL,
    providers: providerRegistryFor(env),
    codeKey: env.CODE_ENCRYPTION_KEY,
  };
  return queue ? createStore({ ...deps, queue }) : createStoreWithJobsInProcess({ ...deps, mailer });
}
