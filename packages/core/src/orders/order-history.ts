import {
  ORDER_HISTORY_PAGE_SIZE,
  type OrderHistoryItem,
  type OrderHistoryPage,
  type OrderPaymentMethod,
  orderNumber,
} from '@store/contract';
import { type OrderStatus, qb, type SqlClient } from '@store/db';
import { resolveLocale } from '../mail/templates.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';
import { PAID_STATUSES, statusName, typeName } from './order-state.ts';

/**
 * The customer's orders, each with what the receipt and the history show: the order's money, the
 * payment that paid it (or the newest one tried, for an order still unpaid or ended unpaid), its
 * card's brand and last four digits, and its promo code. Every caller narrows it to its customer.
 */
const ordersQuery = (userId: string) =>
  qb
    .selectFrom('orders as o')
    .leftJoin('promo_codes as pc', 'pc.id', 'o.promo_code_id')
    .leftJoin('payments as paid', 'paid.id', 'o.payment_id')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('payments')
          .distinctOn('order_id')
          .select(['order_id', 'method', 'card_brand', 'card_last4'])
          .orderBy('order_id')
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .as('tried'),
      (join) => join.onRef('tried.order_id', '=', 'o.id').on('o.payment_id', 'is', null),
    )
    .where('o.user_id', '=', userId)
    .select((eb) => [
      'o.id',
      'o.type',
      'o.status',
      'o.created_at as createdAt',
      'o.paid_at as paidAt',
      'o.currency',
      'o.subtotal_minor as subtotalMinor',
      'o.discount_minor as discountMinor',
      'o.total_minor as totalMinor',
      'o.refunded_minor as refundedMinor',
      'pc.code as promoCode',
      'paid.amount_minor as paidMinor',
      'paid.currency as paidCurrency',
      eb.fn.coalesce('paid.method', 'tried.method').as('method'),
      eb.fn.coalesce('paid.card_brand', 'tried.card_brand').as('cardBrand'),
      eb.fn.coalesce('paid.card_last4', 'tried.card_last4').as('cardLast4'),
    ]);

type OrderRow = Awaited<ReturnType<ReturnType<typeof ordersQuery>['execute']>>[number];

/** The lines of the orders `ids`, as they were bought, with the codes delivered for each. */
const linesQuery = (ids: string[]) =>
  qb
    .selectFrom('order_lines as ol')
    .where((eb) => eb('ol.order_id', '=', eb.fn.any(eb.val(ids))))
    .select((eb) => [
      'ol.order_id as orderId',
      'ol.product_id as productId',
      'ol.product_name as name',
      'ol.quantity',
      'ol.unit_price_minor as unitPriceMinor',
      'ol.discount_minor as discountMinor',
      eb
        .selectFrom('product_codes as c')
        .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('delivered'))
        .whereRef('c.order_line_id', '=', 'ol.id')
        .where('c.status', '=', 'SOLD')
        .as('delivered'),
    ])
    .orderBy('ol.product_id')
    .orderBy('ol.id');

type LineRow = Awaited<ReturnType<ReturnType<typeof linesQuery>['execute']>>[number];

const isPaid = (status: OrderStatus) => PAID_STATUSES.includes(status);

function toItem(order: OrderRow, lines: LineRow[]): OrderHistoryItem {
  const paid = isPaid(order.status);
  return {
    id: order.id,
    number: orderNumber(order.id),
    type: typeName(order.type),
    status: statusName(order.status),
    created_at: order.createdAt.toISOString(),
    paid_at: order.paidAt?.toISOString() ?? null,
    currency: order.currency,
    subtotal_minor: order.subtotalMinor,
    discount_minor: order.discountMinor,
    total_minor: order.totalMinor,
    paid_minor: paid ? (order.paidMinor ?? order.totalMinor) : null,
    paid_currency: paid ? (order.paidCurrency ?? order.currency) : null,
    refunded_minor: order.refundedMinor,
    method: order.method ? (order.method.toLowerCase() as OrderPaymentMethod) : null,
    promo_code: order.promoCode,
    receipt: paid,
    lines: lines.map((line) => ({
      product_id: line.productId,
      name: line.name,
      quantity: line.quantity,
      unit_price_minor: line.unitPriceMinor,
      discount_minor: line.discountMinor,
      delivered: line.delivered ?? 0,
    })),
  };
}

/** What a receipt is made of (receipt-pdf.ts): a paid order of the customer's, in their language. */
export interface ReceiptSource {
  locale: ReturnType<typeof resolveLocale>;
  customer: { name: string; email: string };
  order: OrderHistoryItem & { paid_at: string };
  card: { brand: string | null; last4: string | null };
}

export interface OrderHistoryDeps {
  sql: SqlClient;
}

/**
 * The profile's order history (docs/orders.md, "Order history"): every order of the customer's,
 * paid or not, newest first, and one order by its id; and what a paid order's receipt says. Every
 * query is scoped to the customer, so another customer's order is not found (404). No code is read
 * here: the codes of a paid order are delivered by the delivery service, to their owner.
 */
export function createOrderHistory({ sql }: OrderHistoryDeps) {
  async function linesOf(ids: string[]): Promise<Map<string, LineRow[]>> {
    const byOrder = new Map<string, LineRow[]>();
    if (ids.length === 0) return byOrder;
    for (const line of await sql.query(linesQuery(ids))) {
      byOrder.set(line.orderId, [...(byOrder.get(line.orderId) ?? []), line]);
    }
    return byOrder;
  }

  async function readOrder(userId: string, orderId: string) {
    const [order] = await sql.query(ordersQuery(userId).where('o.id', '=', orderId));
    if (!order) throw new NotFoundError('Order');
    const lines = await linesOf([order.id]);
    return { row: order, item: toItem(order, lines.get(order.id) ?? []) };
  }

  return {
    /** GET /profile/orders?page: ORDER_HISTORY_PAGE_SIZE orders a page, the newest first. */
    async listOrders(userId: string, page = 1): Promise<OrderHistoryPage> {
      const [counted, rows] = await Promise.all([
        sql.query(
          qb
            .selectFrom('orders')
            .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('total'))
            .where('user_id', '=', userId),
        ),
        sql.query(
          ordersQuery(userId)
            .orderBy('o.created_at', 'desc')
            .orderBy('o.id', 'desc')
            .limit(ORDER_HISTORY_PAGE_SIZE)
            .offset((page - 1) * ORDER_HISTORY_PAGE_SIZE),
        ),
      ]);
      const total = counted[0]?.total ?? 0;
      const lines = await linesOf(rows.map((row) => row.id));
      return {
        orders: rows.map((row) => toItem(row, lines.get(row.id) ?? [])),
        page,
        pages: Math.ceil(total / ORDER_HISTORY_PAGE_SIZE),
        total,
      };
    },

    /** GET /profile/orders/{id}: one order of the customer's; anyone else's is not found. */
    async getOrder(userId: string, orderId: string): Promise<OrderHistoryItem> {
      return (await readOrder(userId, orderId)).item;
    },

    /**
     * What the receipt of GET /profile/orders/{id}/receipt says: an order of the customer's that was
     * paid. Anyone else's is not found; one never paid has no receipt (ConflictError, 409).
     */
    async receiptSource(userId: string, orderId: string): Promise<ReceiptSource> {
      const { row, item } = await readOrder(userId, orderId);
      if (!item.receipt || !item.paid_at) {
        throw new ConflictError('This order was not paid, so it has no receipt.');
      }
      const [customer] = await sql.query(
        qb.selectFrom('users').select(['name', 'email', 'locale']).where('id', '=', userId),
      );
      if (!customer) throw new NotFoundError('Order');
      return {
        locale: resolveLocale(customer.locale),
        customer: { name: customer.name, email: customer.email },
        order: { ...item, paid_at: item.paid_at },
        card: { brand: row.cardBrand, last4: row.cardLast4 },
      };
    },
  };
}

export type OrderHistory = ReturnType<typeof createOrderHistory>;
