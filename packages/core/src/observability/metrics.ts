import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { type JobKind, ORDER_STATUSES } from '@store/contract';
import { qb, type SqlClient } from '@store/db';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { createLedgerService } from '../ledger/ledger-service.ts';
import type { JobHandlers, JobQueue } from '../queue/job-queue.ts';

/**
 * The store's metrics, in Prometheus' text format (prom-client), every name `store_*`. Each process
 * has its own registry: the API instances and the worker each answer GET /metrics for themselves.
 * What the database says (orders, payment events, emails, stock, refunds, the books) is read once per
 * scrape in one statement, so every API instance reports the same store-wide figures: alert on them
 * with max(), not sum().
 */

/** The processes that answer /metrics. */
export type MetricsProcess = 'api' | 'worker';

/** A product with this many codes in stock or fewer is reported as low on stock. */
export const LOW_STOCK_THRESHOLD = 5;
/** Products reported as low on stock at most: the label set stays bounded whatever the catalogue. */
const LOW_STOCK_PRODUCTS_MAX = 200;
/** Proving the books reads the whole ledger: at most this often, its result kept in between. */
export const LEDGER_CHECK_EVERY_MS = 5 * 60_000;

export function createMetricsRegistry(process: MetricsProcess): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ process });
  collectDefaultMetrics({ register: registry, prefix: 'store_' });
  return registry;
}

/**
 * Who may read /metrics: the loopback address (the socket's, as the connection came, never a header
 * a client could forge), or a caller with the bearer token when one is configured. Anyone else is
 * answered as if there were nothing there.
 */
export function mayReadMetrics(
  socketAddress: string | undefined,
  authorization: string | undefined,
  token: string | undefined,
): boolean {
  if (socketAddress && isLoopback(socketAddress)) return true;
  if (!token || !authorization?.startsWith('Bearer ')) return false;
  const given = Buffer.from(authorization.slice('Bearer '.length));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function isLoopback(address: string): boolean {
  const plain = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

/** HTTP request durations by the route as Fastify routed it (never the raw URL: bounded labels). */
export function createHttpMetrics(registry: Registry) {
  const duration = new Histogram({
    name: 'store_http_request_duration_seconds',
    help: 'HTTP requests by method, route (as routed) and status, and how long they took.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return {
    observe(method: string, route: string | undefined, status: number, seconds: number) {
      duration.observe({ method, route: route ?? 'unmatched', status: String(status) }, seconds);
    },
  };
}

/** Jobs the worker ran, by kind and how they ended, and how long they took. */
export function createJobMetrics(registry: Registry) {
  const runs = new Counter({
    name: 'store_jobs_total',
    help: 'Jobs run by this process, by kind and outcome (done, failed).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'store_job_duration_seconds',
    help: 'How long jobs took, by kind.',
    labelNames: ['kind'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60],
    registers: [registry],
  });
  const lastDone = new Gauge({
    name: 'store_job_last_done_timestamp_seconds',
    help: 'When this process last finished a job (its health job included), in seconds since the epoch.',
    registers: [registry],
  });
  return {
    /** Runs `work` as a job of `kind`, counting it. */
    async measure<T>(kind: string, work: () => Promise<T>): Promise<T> {
      const stop = duration.startTimer({ kind });
      try {
        const result = await work();
        runs.inc({ kind, outcome: 'done' });
        lastDone.setToCurrentTime();
        return result;
      } catch (error) {
        runs.inc({ kind, outcome: 'failed' });
        throw error;
      } finally {
        stop();
      }
    },
  };
}

export type JobMetrics = ReturnType<typeof createJobMetrics>;

/** The same handlers, each run counted and timed. */
export function measuredHandlers(handlers: JobHandlers, metrics: JobMetrics): JobHandlers {
  const measured: Record<string, unknown> = {};
  for (const [kind, handler] of Object.entries(handlers) as Array<
    [JobKind, (...args: unknown[]) => Promise<unknown>]
  >) {
    measured[kind] = (...args: unknown[]) => metrics.measure(kind, () => handler(...args));
  }
  return measured as JobHandlers;
}

/**
 * The store-wide gauges, read from the database (and the queue, for its depths) when they are
 * scraped: `refresh` before `registry.metrics()`.
 */
export function createStoreGauges(
  registry: Registry,
  {
    sql,
    queue,
    lowStockThreshold = LOW_STOCK_THRESHOLD,
    ledgerCheckEveryMs = LEDGER_CHECK_EVERY_MS,
    now = () => Date.now(),
  }: {
    sql: SqlClient;
    queue?: Pick<JobQueue, 'depths'>;
    lowStockThreshold?: number;
    ledgerCheckEveryMs?: number;
    now?: () => number;
  },
) {
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Gauge<L>({ name, help, labelNames, registers: [registry] });
  const orders = gauge('store_orders', 'Orders by status.', ['status']);
  const events = gauge('store_payment_events', 'Provider events by state: waiting, applied, set_aside, dead.', [
    'state',
  ]);
  const oldest = gauge(
    'store_payment_event_oldest_waiting_seconds',
    'How long the oldest provider event not yet applied (nor dead) has waited; 0 when none waits.',
  );
  const emails = gauge('store_outbox_emails', 'Emails in the outbox not sent: pending, failed.', ['status']);
  const refunds = gauge('store_provider_refunds', 'Refunds to the card asked of the provider: pending, failed.', [
    'status',
  ]);
  const owing = gauge('store_customers_owing', 'Customers who owe the store (a top-up given back after it was spent).');
  const owed = gauge('store_owed_minor', 'What customers owe the store in all, in minor units.');
  const lowStock = gauge(
    'store_product_stock_low',
    `Codes in stock of each active product with ${lowStockThreshold} or fewer (at most ${LOW_STOCK_PRODUCTS_MAX} products).`,
    ['product_id', 'product'],
  );
  const queueJobs = gauge('store_queue_jobs', 'Jobs in the queue by lane and state.', ['queue', 'state']);
  const ledgerProblems = gauge(
    'store_ledger_problems',
    'What the last proof of the books found wrong (0: every balance is its ledger and every transfer sums to zero).',
  );
  const ledgerChecked = gauge(
    'store_ledger_checked_timestamp_seconds',
    'When the books were last proven, in seconds since the epoch.',
  );
  const ledger = createLedgerService({ sql });
  let ledgerCheckedAt = 0;

  /**
   * Each part of the store's state is one row of a subquery turned into JSON (to_json), or its rows
   * into a JSON array (json_agg, '[]' for none), so the whole state is one row of one statement.
   */
  async function readState() {
    const [state] = await sql.query(
      qb.selectNoFrom((eb) => {
        const emptyArray = eb.cast<[]>(eb.val('[]'), 'json');
        return [
          eb
            .selectFrom(
              eb
                .selectFrom('orders')
                .select((eb) => ['status', eb.cast<number>(eb.fn.countAll(), 'integer').as('count')])
                .groupBy('status')
                .as('o'),
            )
            .select((eb) => eb.fn.coalesce(eb.fn.jsonAgg('o'), emptyArray).as('orders'))
            .$asScalar()
            .as('orders'),
          eb
            .selectFrom(
              eb
                .selectFrom('payment_events')
                .select((eb) => {
                  const waiting = eb.and([eb('processed_at', 'is', null), eb('dead_at', 'is', null)]);
                  return [
                    eb.fn.countAll<number>().filterWhere(waiting).as('waiting'),
                    eb.fn
                      .countAll<number>()
                      .filterWhere(eb.and([eb('processed_at', 'is not', null), eb('rejection', 'is', null)]))
                      .as('applied'),
                    eb.fn.countAll<number>().filterWhere('rejection', 'is not', null).as('setAside'),
                    eb.fn.countAll<number>().filterWhere('dead_at', 'is not', null).as('dead'),
                    // EXTRACT(EPOCH FROM ...) as the function it stands for.
                    eb
                      .fn<number | null>('date_part', [
                        eb.val('epoch'),
                        eb(eb.fn('now'), '-', eb.fn.min('received_at').filterWhere(waiting)),
                      ])
                      .as('oldestWaitingSeconds'),
                  ];
                })
                .as('e'),
            )
            .select((eb) => eb.fn.toJson('e').as('events'))
            .$asScalar()
            .as('events'),
          eb
            .selectFrom(
              eb
                .selectFrom('outbound_emails')
                .select((eb) => [
                  eb.fn.countAll<number>().filterWhere('status', '=', 'PENDING').as('pending'),
                  eb.fn.countAll<number>().filterWhere('status', '=', 'FAILED').as('failed'),
                ])
                .where('status', '<>', 'SENT')
                .as('m'),
            )
            .select((eb) => eb.fn.toJson('m').as('emails'))
            .$asScalar()
            .as('emails'),
          eb
            .selectFrom(
              eb
                .selectFrom('provider_refunds')
                .select((eb) => [
                  eb.fn.countAll<number>().filterWhere('status', '=', 'PENDING').as('pending'),
                  eb.fn.countAll<number>().filterWhere('status', '=', 'FAILED').as('failed'),
                ])
                .where('status', '<>', 'SUCCEEDED')
                .as('r'),
            )
            .select((eb) => eb.fn.toJson('r').as('refunds'))
            .$asScalar()
            .as('refunds'),
          eb
            .selectFrom(
              eb
                .selectFrom('users')
                .select((eb) => [
                  eb.fn.countAll<number>().as('customers'),
                  eb.fn.coalesce(eb.fn.sum<number>('owed_minor'), eb.lit(0)).as('minor'),
                ])
                .where('owed_minor', '>', 0)
                .as('u'),
            )
            .select((eb) => eb.fn.toJson('u').as('owing'))
            .$asScalar()
            .as('owing'),
          eb
            .selectFrom(
              eb
                .selectFrom('products')
                .select(['id', 'name', 'stock_count as stock'])
                .where((eb) => eb.ref('is_active'))
                .where('stock_count', '<=', lowStockThreshold)
                .orderBy('stock_count')
                .orderBy('id')
                .limit(LOW_STOCK_PRODUCTS_MAX)
                .as('p'),
            )
            .select((eb) => eb.fn.coalesce(eb.fn.jsonAgg('p'), emptyArray).as('lowStock'))
            .$asScalar()
            .as('lowStock'),
        ];
      }),
    );
    if (!state) throw new Error('the store state could not be read');
    return state;
  }

  return {
    /** Reads what the gauges say now. A failure is thrown: the scrape then fails, which is itself a signal. */
    async refresh(): Promise<void> {
      const state = await readState();
      orders.reset();
      // Every status is there, 0 when no order has it: a rate or an alert needs the series to exist.
      for (const status of ORDER_STATUSES) orders.set({ status }, 0);
      for (const { status, count } of state.orders) orders.set({ status: status.toLowerCase() }, count);
      events.set({ state: 'waiting' }, state.events.waiting);
      events.set({ state: 'applied' }, state.events.applied);
      events.set({ state: 'set_aside' }, state.events.setAside);
      events.set({ state: 'dead' }, state.events.dead);
      oldest.set(state.events.oldestWaitingSeconds ?? 0);
      emails.set({ status: 'pending' }, state.emails.pending);
      emails.set({ status: 'failed' }, state.emails.failed);
      refunds.set({ status: 'pending' }, state.refunds.pending);
      refunds.set({ status: 'failed' }, state.refunds.failed);
      owing.set(state.owing.customers);
      owed.set(Number(state.owing.minor));
      lowStock.reset();
      for (const product of state.lowStock) {
        lowStock.set({ product_id: String(product.id), product: product.name }, product.stock);
      }
      const depths = await queue?.depths?.();
      if (depths) {
        queueJobs.reset();
        for (const { queue: lane, state: jobState, count } of depths)
          queueJobs.set({ queue: lane, state: jobState }, count);
      }
      if (now() - ledgerCheckedAt >= ledgerCheckEveryMs) {
        ledgerProblems.set((await ledger.verifyBooks()).length);
        ledgerCheckedAt = now();
        ledgerChecked.set(Math.floor(ledgerCheckedAt / 1_000));
      }
    },
  };
}

export type StoreGauges = ReturnType<typeof createStoreGauges>;
