import { type DashboardResponse, type OrderStatusName, STORE_CURRENCY } from '@store/contract';
import { int8ToNumber, type OrderStatus, qb, type SqlClient } from '@store/db';

const DAY_MS = 86_400_000;
/** Days of the sales series, today included. */
export const SALES_SERIES_DAYS = 30;
/** The most low-stock products listed, the emptiest first. */
const LOW_STOCK_LIMIT = 50;

/** Orders whose money the store took: paid, delivered, and those refunded since (sold all the same). */
const SOLD_STATUSES: OrderStatus[] = ['PAID', 'FULFILLED', 'PARTIALLY_REFUNDED', 'REFUNDED'];

const num = (value: string | number | bigint | null | undefined): number => (value == null ? 0 : int8ToNumber(value));
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The console's first page: sales by UTC day (goods sold, by when they were paid, in the store's
 * currency; top-ups are money held for the customer, counted when it is spent), orders by status,
 * products at or below their low-stock threshold, and what waits for an operator: payment events set
 * aside or dead, emails failing, customers who owe.
 */
export function createDashboard({ sql, clock = () => new Date() }: { sql: SqlClient; clock?: () => Date }) {
  return {
    async read(): Promise<DashboardResponse> {
      const now = clock();
      const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      const from = new Date(today - (SALES_SERIES_DAYS - 1) * DAY_MS);
      const until = new Date(today + DAY_MS);
      const [sales, statuses, lowStock, [events], [emails], [owed]] = await Promise.all([
        sql.query(
          qb
            .selectFrom('orders')
            .select((eb) => [
              eb.fn<string>('to_char', [eb.fn('timezone', [eb.val('UTC'), 'paid_at']), eb.val('YYYY-MM-DD')]).as('day'),
              eb.fn.countAll<string>().as('orders'),
              eb.fn.sum<string>('total_minor').as('amount'),
            ])
            .where('type', 'in', ['PURCHASE', 'SPENDING'])
            .where('status', 'in', SOLD_STATUSES)
            .where('currency', '=', STORE_CURRENCY)
            .where('paid_at', '>=', from)
            .where('paid_at', '<', until)
            .groupBy('day'),
        ),
        sql.query(
          qb
            .selectFrom('orders')
            .select((eb) => ['status', eb.fn.countAll<string>().as('n')])
            .groupBy('status'),
        ),
        sql.query(
          qb
            .selectFrom('products')
            .select(['id', 'name', 'stock_count', 'low_stock_threshold'])
            .where('is_active', '=', true)
            .whereRef('stock_count', '<=', 'low_stock_threshold')
            .orderBy('stock_count')
            .orderBy('name')
            .orderBy('id')
            .limit(LOW_STOCK_LIMIT),
        ),
        sql.query(
          qb
            .selectFrom('payment_events')
            .select((eb) => [
              eb.fn.countAll<string>().filterWhere('rejection', 'is not', null).as('set_aside'),
              eb.fn
                .countAll<string>()
                .filterWhere((eb) => eb.and([eb('dead_at', 'is not', null), eb('processed_at', 'is', null)]))
                .as('dead'),
            ])
            .where((eb) =>
              eb.or([
                eb('rejection', 'is not', null),
                eb.and([eb('dead_at', 'is not', null), eb('processed_at', 'is', null)]),
              ]),
            ),
        ),
        sql.query(
          qb
            .selectFrom('outbound_emails')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where((eb) =>
              eb.or([
                eb('status', '=', 'FAILED'),
                eb.and([eb('status', '=', 'PENDING'), eb('last_error', 'is not', null)]),
              ]),
            ),
        ),
        sql.query(
          qb
            .selectFrom('users')
            .select((eb) => [eb.fn.countAll<string>().as('customers'), eb.fn.sum<string>('owed_minor').as('owed')])
            .where('owed_minor', '>', 0),
        ),
      ]);
      const byDay = new Map(sales.map((row) => [row.day, { orders: num(row.orders), amount_minor: num(row.amount) }]));
      const series = Array.from({ length: SALES_SERIES_DAYS }, (_, index) => {
        const day = dayOf(new Date(from.getTime() + index * DAY_MS));
        return { day, ...(byDay.get(day) ?? { orders: 0, amount_minor: 0 }) };
      });
      const total = (days: number) =>
        series.slice(-days).reduce(
          (sum, point) => ({
            orders: sum.orders + point.orders,
            amount_minor: sum.amount_minor + point.amount_minor,
          }),
          { orders: 0, amount_minor: 0 },
        );
      return {
        currency: STORE_CURRENCY,
        sales: { today: total(1), days_7: total(7), days_30: total(SALES_SERIES_DAYS), series },
        orders_by_status: Object.fromEntries(
          statuses.map((row) => [row.status.toLowerCase() as OrderStatusName, num(row.n)]),
        ),
        low_stock: lowStock.map((row) => ({
          product_id: row.id,
          name: row.name,
          available: row.stock_count,
          threshold: row.low_stock_threshold,
        })),
        payment_events: { set_aside: num(events?.set_aside), dead_lettered: num(events?.dead) },
        emails_failing: num(emails?.n),
        receivables: { customers: num(owed?.customers), owed_minor: num(owed?.owed) },
      };
    },
  };
}

export type Dashboard = ReturnType<typeof createDashboard>;
