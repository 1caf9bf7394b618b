import {
  type OrderDelivery,
  PURCHASED_PAGE_SIZE,
  type PurchasedProduct,
  type PurchasedSearchResponse,
} from '@store/contract';
import { type CodeCipher, type OrderStatus, prepare, qb, type SqlClient } from '@store/db';
import { COMPLETED_STATUSES, statusName, typeName } from '../orders/order-state.ts';
import { NotFoundError } from '../shared/errors.ts';
import { minorToDisplay } from '../shared/money.ts';

/** Who is being shown codes, from where, through which call: kept with every reveal. */
export interface RevealContext {
  ip?: string | undefined;
  route: string;
}

/**
 * Order lines as they are shown: the product as it is now, the name and price as they were bought,
 * the product's category and country, and its activation instructions in the customer's language
 * where it has them. Each caller narrows it to its lines and orders them.
 */
const linesQuery = () =>
  qb
    .selectFrom('order_lines as ol')
    .innerJoin('orders as o', 'o.id', 'ol.order_id')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .innerJoin('products as p', 'p.id', 'ol.product_id')
    .innerJoin('categories as c', 'c.id', 'p.category_id')
    .innerJoin('countries as co', 'co.id', 'p.country_id')
    .leftJoin('product_translations as t', (join) =>
      join.onRef('t.product_id', '=', 'ol.product_id').onRef('t.locale', '=', 'u.locale'),
    )
    .select((eb) => [
      'ol.id',
      'ol.order_id as orderId',
      'ol.product_id as productId',
      'ol.product_name as productName',
      'ol.quantity',
      'ol.unit_price_minor as unitPriceMinor',
      'o.paid_at as paidAt',
      'o.currency',
      'c.slug as categorySlug',
      'co.icon as countryIcon',
      'p.cover_path as coverPath',
      'p.cover_text as coverText',
      eb.fn.coalesce('t.activation_instructions', 'p.activation_instructions').as('activationInstructions'),
    ]);

type LinesQuery = ReturnType<typeof linesQuery>;
type LineRow = Awaited<ReturnType<LinesQuery['execute']>>[number];

const DELIVERED = [...COMPLETED_STATUSES] as OrderStatus[];

/**
 * How alike a searched word and a word of a product's name must be (pg_trgm's word_similarity): "stem"
 * and Steam are 0.6 alike, "netflx" and Netflix 0.71; unrelated names stay under 0.3.
 */
const NEAR_SPELLING = 0.5;

/** The lines of one order, in products' id order: what the confirmation page shows. */
const orderLinesStatement = prepare((a: { orderId: string }) =>
  linesQuery().where('ol.order_id', '=', a.orderId).orderBy('ol.product_id').orderBy('ol.id'),
);

/** The customer's own order, as the confirmation page shows it. */
const deliveredOrderStatement = prepare((a: { orderId: string; userId: string }) =>
  qb
    .selectFrom('orders')
    .select([
      'id',
      'type',
      'status',
      'total_minor as totalMinor',
      'refunded_minor as refundedMinor',
      'currency',
      'created_at as createdAt',
      'paid_at as paidAt',
    ])
    .where('id', '=', a.orderId)
    .where('user_id', '=', a.userId),
);

/** The sold codes of the lines `ids` and the record of their reveal to `userId`: one statement. */
const revealStatement = prepare((a: { ids: readonly string[]; userId: string; ip: string | null; route: string }) =>
  qb
    .with('codes', (db) =>
      db
        .selectFrom('product_codes')
        .select(['id', 'order_line_id', 'ciphertext', 'sold_at'])
        .where((eb) => eb('order_line_id', '=', eb.fn.any(eb.val(a.ids))))
        .where('status', '=', 'SOLD'),
    )
    .with('revealed', (db) =>
      db
        .insertInto('code_reveals')
        .columns(['id', 'user_id', 'code_id', 'ip', 'route'])
        .expression((eb) =>
          eb
            .selectFrom('codes')
            .select((eb) => [
              eb.fn<string>('gen_random_uuid').as('id'),
              eb.val(a.userId).as('user_id'),
              'codes.id as code_id',
              eb.val(a.ip).as('ip'),
              eb.val(a.route).as('route'),
            ]),
        ),
    )
    .selectFrom('codes')
    .select(['id', 'order_line_id as orderLineId', 'ciphertext'])
    .orderBy('sold_at')
    .orderBy('id'),
);

export interface DeliveryServiceDeps {
  sql: SqlClient;
  cipher: CodeCipher;
}

/**
 * Delivery of bought codes to their owner (docs/orders.md, "Delivery": payment-confirm, payment-products and
 * the profile's purchased products). Every query is scoped to the customer, so another customer's
 * order is not found (404) rather than forbidden. Codes are decrypted only here, only for their
 * owner, and each one shown is recorded in `code_reveals` with the customer, the address and the call.
 */
export function createDeliveryService({ sql, cipher }: DeliveryServiceDeps) {
  /**
   * The lines `narrow` keeps, in its order, in one query. The confirmation page is read right after
   * every payment, so this replaces what were six queries.
   */
  function readLines(narrow: (query: LinesQuery) => LinesQuery): Promise<LineRow[]> {
    return sql.query(narrow(linesQuery()));
  }

  async function reveal(userId: string, lines: LineRow[], context: RevealContext): Promise<PurchasedProduct[]> {
    // The codes and the record of their reveal, in one statement.
    const ids = lines.map((line) => line.id);
    const codes =
      lines.length === 0
        ? []
        : await sql.query(revealStatement({ ids, userId, ip: context.ip?.slice(0, 64) ?? null, route: context.route }));
    const codesOf = new Map<string, Array<(typeof codes)[number]>>();
    for (const code of codes) {
      if (code.orderLineId) codesOf.set(code.orderLineId, [...(codesOf.get(code.orderLineId) ?? []), code]);
    }
    return lines.map((line) => {
      const lineCodes = codesOf.get(line.id) ?? [];
      return {
        line_id: line.id,
        order_id: line.orderId,
        product_id: line.productId,
        name: line.productName,
        category: line.categorySlug,
        cover_path: line.coverPath,
        cover_text: line.coverText,
        country_icon: line.countryIcon,
        quantity: line.quantity,
        delivered: lineCodes.length,
        unit_price: minorToDisplay(line.unitPriceMinor),
        unit_price_minor: line.unitPriceMinor,
        currency: line.currency,
        activation_instructions: line.activationInstructions,
        codes: lineCodes.map((code) => ({ id: code.id, code: cipher.decrypt(code.ciphertext) })),
        purchased_at: line.paidAt?.toISOString() ?? null,
      };
    });
  }

  return {
    /**
     * GET /payment-confirm/{orderId} and GET /payment-products/{id}: the order with its products,
     * and their codes once it is fulfilled.
     */
    async getOrderDelivery(userId: string, orderId: string, context: RevealContext): Promise<OrderDelivery> {
      const [order] = await sql.query(deliveredOrderStatement({ orderId, userId }));
      if (!order) throw new NotFoundError('Order');
      const lines = await sql.query(orderLinesStatement({ orderId }));
      return {
        ok: true,
        order: {
          id: order.id,
          type: typeName(order.type),
          status: statusName(order.status),
          total: minorToDisplay(order.totalMinor),
          total_minor: order.totalMinor,
          refunded: minorToDisplay(order.refundedMinor),
          refunded_minor: order.refundedMinor,
          currency: order.currency,
          created_at: order.createdAt.toISOString(),
          paid_at: order.paidAt?.toISOString() ?? null,
        },
        products: await reveal(userId, lines, context),
      };
    },

    /**
     * GET /profile/products/purchased/search: the products the customer has codes of, newest
     * purchase first, PURCHASED_PAGE_SIZE a page, searched by name as it was bought: the words
     * anywhere in it, or a word of it spelt nearly so ("stem" finds Steam; trigram word similarity).
     */
    async searchPurchased(
      userId: string,
      { page = 1, search }: { page?: number | undefined; search?: string | undefined },
      context: RevealContext,
    ): Promise<PurchasedSearchResponse> {
      const text = search?.trim();
      const purchased = qb
        .selectFrom('order_lines as ol')
        .innerJoin('orders as o', 'o.id', 'ol.order_id')
        .where('o.user_id', '=', userId)
        .where('o.status', 'in', DELIVERED)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('product_codes as pc')
              .select(eb.lit(1).as('one'))
              .whereRef('pc.order_line_id', '=', 'ol.id')
              .where('pc.status', '=', 'SOLD'),
          ),
        );
      const matching = text
        ? purchased.where((eb) =>
            eb.or([
              eb('ol.product_name', 'ilike', `%${text.replace(/[\\%_]/g, '\\$&')}%`),
              eb(eb.fn('word_similarity', [eb.val(text), 'ol.product_name']), '>=', NEAR_SPELLING),
            ]),
          )
        : purchased;
      const [counted, pageLines] = await Promise.all([
        sql.query(matching.select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('total'))),
        sql.query(
          matching
            .select('ol.id')
            .orderBy('o.paid_at', 'desc')
            .orderBy('ol.id')
            .limit(PURCHASED_PAGE_SIZE)
            .offset((page - 1) * PURCHASED_PAGE_SIZE),
        ),
      ]);
      const total = counted[0]?.total ?? 0;
      const ids = pageLines.map((line) => line.id);
      const lines =
        ids.length === 0
          ? []
          : await readLines((query) =>
              query
                .where((eb) => eb('ol.id', '=', eb.fn.any(eb.val(ids))))
                .orderBy('o.paid_at', 'desc')
                .orderBy('ol.id'),
            );
      return {
        products: await reveal(userId, lines, context),
        page,
        pages: Math.ceil(total / PURCHASED_PAGE_SIZE),
        total,
      };
    },
  };
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;
