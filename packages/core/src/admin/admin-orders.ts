import {
  ADMIN_PAGE_SIZE,
  type AdminOrderDetail,
  type AdminOrderListItem,
  type AdminOrderPage,
  type AdminOrderSearchQuery,
  type AdminRefundBody,
  type AdminRefundResponse,
  type OrderPaymentMethod,
  type OrderStatusName,
  type PaymentType,
  RECEIPT_SEND_WINDOW_MINUTES,
} from '@store/contract';
import { int8ToNumber, type OrderStatus, qb, type SqlClient } from '@store/db';
import { enqueueEmailSend, recordEmail } from '../mail/outbox.ts';
import { resolveLocale } from '../mail/templates.ts';
import { orderHistory, recordOrderEvent } from '../orders/order-events.ts';
import type { OrderOperations } from '../orders/order-operations.ts';
import { COMPLETED_STATUSES } from '../orders/order-state.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';
import { type AuditActor, endOf, startOf, writeAudit } from './audit-log.ts';

const lower = <T extends string>(value: string) => value.toLowerCase() as T;
const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());
const num = (value: string | number | bigint | null | undefined): number => (value == null ? 0 : int8ToNumber(value));

export interface AdminOrdersDeps {
  sql: SqlClient;
  orderOperations: OrderOperations;
  publicUrl: string;
  queue?: JobQueue;
  logger?: Logger;
}

/** The refund's name in the ledger's and the provider's keys: one per console form, from its idempotency key. */
export function refundName(idempotencyKey: string): string {
  return `c${idempotencyKey.replaceAll('-', '').toLowerCase().slice(0, 31)}`;
}

/**
 * The console's orders: search, the order with everything that happened to it, refunds (the same
 * service the command line's `orders refund` runs), the receipt sent again, and a CSV of a search.
 */
export function createAdminOrders({ sql, orderOperations, publicUrl, queue, logger = silentLogger }: AdminOrdersDeps) {
  function filtered(query: AdminOrderSearchQuery) {
    let statement = qb.selectFrom('orders as o').innerJoin('users as u', 'u.id', 'o.user_id');
    if (query.q) {
      const q = query.q.toLowerCase();
      statement = statement.where((eb) => eb(eb.cast('o.id', 'text'), 'like', `${q.replaceAll('_', '')}%`));
    }
    if (query.email) statement = statement.where('u.email', 'ilike', `%${query.email.replace(/[\\%_]/g, '\\$&')}%`);
    if (query.status) statement = statement.where('o.status', '=', query.status.toUpperCase() as OrderStatus);
    if (query.type) {
      const type = query.type.toUpperCase() as 'PURCHASE' | 'BALANCE' | 'SPENDING';
      statement = statement.where('o.type', '=', type);
    }
    if (query.method) {
      const method = query.method.toUpperCase() as 'CARD';
      statement = statement.where((eb) =>
        eb.exists(
          eb
            .selectFrom('payments as pm')
            .select('pm.id')
            .whereRef('pm.order_id', '=', 'o.id')
            .where('pm.method', '=', method),
        ),
      );
    }
    if (query.from) statement = statement.where('o.created_at', '>=', startOf(query.from));
    if (query.to) statement = statement.where('o.created_at', '<=', endOf(query.to));
    return statement;
  }

  function listColumns(statement: ReturnType<typeof filtered>) {
    return statement.select((eb) => [
      'o.id',
      'o.user_id',
      'u.email',
      'o.type',
      'o.status',
      'o.currency',
      'o.total_minor',
      'o.refunded_minor',
      'o.created_at',
      'o.paid_at',
      eb
        .selectFrom('payments as pm')
        .select('pm.method')
        .whereRef('pm.order_id', '=', 'o.id')
        .orderBy('pm.created_at', 'desc')
        .limit(1)
        .as('method'),
    ]);
  }

  function item(row: {
    id: string;
    user_id: string;
    email: string;
    type: string;
    status: string;
    currency: string;
    total_minor: string | number | bigint;
    refunded_minor: string | number | bigint;
    created_at: Date;
    paid_at: Date | null;
    method: string | null;
  }): AdminOrderListItem {
    return {
      id: row.id,
      number: row.id.slice(0, 8).toUpperCase(),
      user_id: row.user_id,
      email: row.email,
      type: lower<PaymentType>(row.type),
      status: lower<OrderStatusName>(row.status),
      method: row.method ? lower<OrderPaymentMethod>(row.method) : null,
      currency: row.currency,
      total_minor: num(row.total_minor),
      refunded_minor: num(row.refunded_minor),
      created_at: new Date(row.created_at).toISOString(),
      paid_at: iso(row.paid_at),
    };
  }

  async function search(query: AdminOrderSearchQuery): Promise<AdminOrderPage> {
    const page = query.page ?? 1;
    const pageSize = query.page_size ?? ADMIN_PAGE_SIZE;
    const [rows, [count]] = await Promise.all([
      sql.query(
        listColumns(filtered(query))
          .orderBy('o.created_at', 'desc')
          .orderBy('o.id', 'desc')
          .limit(pageSize)
          .offset((page - 1) * pageSize),
      ),
      sql.query(filtered(query).select((eb) => eb.fn.countAll<string>().as('total'))),
    ]);
    return { items: rows.map(item), page, page_size: pageSize, total: num(count?.total) };
  }

  return {
    search,

    /** Up to `limit` orders of a customer, newest first. */
    async ofCustomer(userId: string, limit: number): Promise<AdminOrderListItem[]> {
      const rows = await sql.query(
        listColumns(qb.selectFrom('orders as o').innerJoin('users as u', 'u.id', 'o.user_id'))
          .where('o.user_id', '=', userId)
          .orderBy('o.created_at', 'desc')
          .limit(limit),
      );
      return rows.map(item);
    },

    async detail(orderId: string): Promise<AdminOrderDetail> {
      const [order] = await sql.query(
        listColumns(qb.selectFrom('orders as o').innerJoin('users as u', 'u.id', 'o.user_id'))
          .leftJoin('promo_codes as pc', 'pc.id', 'o.promo_code_id')
          .select(['o.subtotal_minor', 'o.discount_minor', 'o.expires_at', 'pc.code as promo_code', 'o.payment_id'])
          .where('o.id', '=', orderId),
      );
      if (!order) throw new NotFoundError('Order');
      const [lines, codes, payments, events, refunds, history] = await Promise.all([
        sql.query(
          qb.selectFrom('order_lines').selectAll().where('order_id', '=', orderId).orderBy('product_id').orderBy('id'),
        ),
        sql.query(
          qb
            .selectFrom('product_codes as c')
            .innerJoin('order_lines as l', 'l.id', 'c.order_line_id')
            .select(['c.id', 'c.order_line_id'])
            .where('l.order_id', '=', orderId)
            .where('c.status', '=', 'SOLD')
            .orderBy('c.sold_at')
            .orderBy('c.id'),
        ),
        sql.query(qb.selectFrom('payments').selectAll().where('order_id', '=', orderId).orderBy('created_at')),
        sql.query(
          qb
            .selectFrom('payment_events')
            .select([
              'id',
              'payment_id',
              'provider',
              'provider_event_id',
              'type',
              'received_at',
              'processed_at',
              'rejection',
              'dead_at',
            ])
            .where((eb) =>
              eb.or([
                eb('order_id', '=', orderId),
                eb('payment_id', 'in', eb.selectFrom('payments').select('id').where('order_id', '=', orderId)),
              ]),
            )
            .orderBy('received_at'),
        ),
        sql.query(qb.selectFrom('provider_refunds').selectAll().where('order_id', '=', orderId).orderBy('created_at')),
        orderHistory(sql, orderId),
      ]);
      const base = item(order);
      const status = order.status as OrderStatus;
      const paid = status === 'PAID' || COMPLETED_STATUSES.includes(status);
      const paidWith = payments.find((payment) => payment.id === order.payment_id);
      const asked = refunds
        .filter((refund) => refund.status !== 'FAILED')
        .reduce((sum, refund) => sum + num(refund.amount_minor), 0);
      const inFlight = Math.max(0, asked - num(paidWith?.refunded_minor));
      const left = paid && status !== 'REFUNDED' ? base.total_minor - base.refunded_minor - inFlight : 0;
      const byCard = paidWith && paidWith.method !== 'BALANCE' && paidWith.provider_payment_id ? left : 0;
      return {
        order: {
          ...base,
          subtotal_minor: num(order.subtotal_minor),
          discount_minor: num(order.discount_minor),
          promo_code: order.promo_code ?? null,
          expires_at: iso(order.expires_at),
          refundable: {
            balance_minor: order.type === 'BALANCE' ? 0 : Math.max(0, left),
            card_minor: Math.max(0, byCard),
          },
        },
        lines: lines.map((line) => ({
          id: line.id,
          product_id: line.product_id,
          name: line.product_name,
          quantity: line.quantity,
          unit_price_minor: line.unit_price_minor,
          discount_minor: line.discount_minor,
          code_ids: codes.filter((code) => code.order_line_id === line.id).map((code) => code.id),
        })),
        payments: payments.map((payment) => ({
          id: payment.id,
          provider: payment.provider,
          method: lower<OrderPaymentMethod>(payment.method),
          status: payment.status.toLowerCase(),
          amount_minor: num(payment.amount_minor),
          currency: payment.currency,
          provider_payment_id: payment.provider_payment_id,
          card_brand: payment.card_brand,
          card_last4: payment.card_last4,
          created_at: new Date(payment.created_at).toISOString(),
        })),
        provider_events: events.map((event) => ({
          id: event.id,
          payment_id: event.payment_id,
          provider: event.provider,
          provider_event_id: event.provider_event_id,
          type: event.type,
          received_at: new Date(event.received_at).toISOString(),
          processed_at: iso(event.processed_at),
          set_aside: event.dead_at ? 'dead_lettered' : (event.rejection ?? null),
        })),
        refunds: refunds.map((refund) => ({
          id: refund.id,
          payment_id: refund.payment_id,
          amount_minor: num(refund.amount_minor),
          status: refund.status.toLowerCase(),
          reason: refund.reason,
          created_at: new Date(refund.created_at).toISOString(),
        })),
        timeline: history.map((entry) => ({
          id: String(entry.id),
          at: new Date(entry.createdAt).toISOString(),
          actor: entry.actor,
          kind: entry.kind,
          from_status: entry.fromStatus ? lower<OrderStatusName>(entry.fromStatus) : null,
          to_status: entry.toStatus ? lower<OrderStatusName>(entry.toStatus) : null,
          amount_minor: entry.amountMinor === null ? null : num(entry.amountMinor),
          payment_id: entry.paymentId,
          detail: entry.detail,
        })),
      };
    },

    /**
     * A refund from the console: the command line's refund service, with the audit row written in
     * its transaction. The form's idempotency key names the refund, so the same form sent twice is
     * refused rather than paid twice.
     */
    async refund(
      orderId: string,
      body: AdminRefundBody & { reason: string },
      actor: AuditActor,
    ): Promise<AdminRefundResponse> {
      const result = await orderOperations.refundOrder(orderId, {
        to: body.to,
        ...(body.amount_minor === undefined ? {} : { amountMinor: body.amount_minor }),
        reason: refundName(body.idempotency_key),
        operator: actor.name,
        within: async (tx, refunded) => {
          await writeAudit(tx, actor, {
            action: 'order.refund',
            targetType: 'order',
            targetId: orderId,
            after: {
              to: refunded.to,
              amount_minor: refunded.refundedMinor,
              reason: body.reason,
              idempotency_key: body.idempotency_key,
              ...(refunded.to === 'card'
                ? { refund_id: refunded.refundId }
                : { status: refunded.status.toLowerCase() }),
            },
          });
        },
      });
      const [order] = await sql.query(qb.selectFrom('orders').select('status').where('id', '=', orderId));
      return {
        to: result.to,
        refunded_minor: result.refundedMinor,
        status: lower<OrderStatusName>(order?.status ?? 'PAID'),
        refund_id: result.to === 'card' ? result.refundId : null,
      };
    },

    /** The receipt of a fulfilled order again, to the customer's address; recorded in its history. */
    async resendReceipt(orderId: string, actor: AuditActor): Promise<{ emailId: string }> {
      const emailId = await sql.transaction(async (tx) => {
        const [order] = await tx.query(
          qb
            .selectFrom('orders as o')
            .innerJoin('users as u', 'u.id', 'o.user_id')
            .select([
              'o.id',
              'o.status',
              'o.currency',
              'o.total_minor',
              'o.refunded_minor',
              'u.email',
              'u.name',
              'u.locale',
              'u.deleted_at',
            ])
            .where('o.id', '=', orderId),
        );
        if (!order) throw new NotFoundError('Order');
        if (!COMPLETED_STATUSES.includes(order.status) || order.deleted_at !== null) {
          throw new ConflictError(`Order ${orderId} is ${order.status}: it has no receipt to send.`);
        }
        const lines = await tx.query(
          qb
            .selectFrom('order_lines as l')
            .select((eb) => [
              'l.product_name as name',
              'l.quantity',
              eb
                .selectFrom('product_codes as c')
                .select((eb) => eb.fn.countAll<string>().as('n'))
                .whereRef('c.order_line_id', '=', 'l.id')
                .where('c.status', '=', 'SOLD')
                .as('delivered'),
            ])
            .where('l.order_id', '=', orderId)
            .orderBy('l.product_id'),
        );
        const id = await recordEmail(tx, {
          to: order.email,
          template: 'order-receipt',
          locale: resolveLocale(order.locale),
          data: {
            name: order.name,
            link: new URL(`/profile?order=${orderId}`, publicUrl).toString(),
            expiresInMinutes: RECEIPT_SEND_WINDOW_MINUTES,
            receipt: {
              orderId,
              currency: order.currency,
              totalMinor: num(order.total_minor),
              refundedMinor: num(order.refunded_minor),
              lines: lines.map((line) => ({
                name: line.name,
                quantity: line.quantity,
                delivered: num(line.delivered),
              })),
            },
          },
        });
        await recordOrderEvent(tx, {
          orderId,
          actor: `operator:${actor.name}`.slice(0, 64),
          kind: 'receipt_resent',
          detail: { emailId: id },
        });
        await writeAudit(tx, actor, {
          action: 'order.receipt_resend',
          targetType: 'order',
          targetId: orderId,
          after: { email_id: id },
        });
        return id;
      });
      if (queue) void enqueueEmailSend(queue, emailId, logger);
      return { emailId };
    },

    /** The whole of a search as CSV (at most 10 000 rows); the export itself is audited. */
    async exportCsv(query: AdminOrderSearchQuery, actor: AuditActor): Promise<string> {
      const rows = await sql.query(
        listColumns(filtered(query)).orderBy('o.created_at', 'desc').orderBy('o.id', 'desc').limit(10_000),
      );
      const items = rows.map(item);
      const header = [
        'number',
        'id',
        'created_at',
        'paid_at',
        'email',
        'type',
        'status',
        'method',
        'currency',
        'total_minor',
        'refunded_minor',
      ];
      const csv = [
        header.join(','),
        ...items.map((row) =>
          [
            row.number,
            row.id,
            row.created_at,
            row.paid_at ?? '',
            row.email,
            row.type,
            row.status,
            row.method ?? '',
            row.currency,
            row.total_minor,
            row.refunded_minor,
          ]
            .map(csvField)
            .join(','),
        ),
      ].join('\r\n');
      await sql.transaction((tx) =>
        writeAudit(tx, actor, {
          action: 'order.export',
          targetType: 'order',
          after: {
            rows: items.length,
            filters: Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)),
          },
        }),
      );
      return `${csv}\r\n`;
    },
  };
}

/**
 * A CSV field per RFC 4180, and never a formula: a field a spreadsheet would run (=, +, -, @, tab,
 * carriage return at its start) is prefixed with a quote.
 */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export type AdminOrders = ReturnType<typeof createAdminOrders>;
