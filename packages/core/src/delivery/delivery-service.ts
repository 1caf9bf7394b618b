import {
  type OrderDelivery,
  PURCHASED_PAGE_SIZE,
  type PurchasedProduct,
  type PurchasedSearchResponse,
} from '@store/contract';
import { type CodeCipher, type OrderStatus, type OrderType, Prisma, type PrismaClient, sqlOf } from '@store/db';
import { COMPLETED_STATUSES, statusName, typeName } from '../orders/order-state.ts';
import { NotFoundError } from '../shared/errors.ts';
import { minorToDisplay } from '../shared/money.ts';

/** Who is being shown codes, from where, through which call: kept with every reveal. */
export interface RevealContext {
  ip?: string | undefined;
  route: string;
}

/** An order line as it is shown: the product as it is now, the name and price as they were bought. */
interface LineRow {
  id: string;
  orderId: string;
  productId: number;
  productName: string;
  quantity: number;
  unitPriceMinor: number;
  paidAt: Date | null;
  currency: string;
  categorySlug: string;
  countryIcon: string | null;
  coverPath: string | null;
  coverText: string | null;
  activationInstructions: string;
}

interface CodeRow {
  id: string;
  orderLineId: string | null;
  ciphertext: Uint8Array;
}

const DELIVERED = [...COMPLETED_STATUSES] as OrderStatus[];

/**
 * How alike a searched word and a word of a product's name must be (pg_trgm's word_similarity): "stem"
 * and Steam are 0.6 alike, "netflx" and Netflix 0.71; unrelated names stay under 0.3.
 */
const NEAR_SPELLING = 0.5;

export interface DeliveryServiceDeps {
  db: PrismaClient;
  cipher: CodeCipher;
}

/**
 * Delivery of bought codes to their owner (SPEC.md section 7: payment-confirm, payment-products and
 * the profile's purchased products). Every query is scoped to the customer, so another customer's
 * order is not found (404) rather than forbidden. Codes are decrypted only here, only for their
 * owner, and each one shown is recorded in `code_reveals` with the customer, the address and the call.
 */
export function createDeliveryService({ db, cipher }: DeliveryServiceDeps) {
  const sql = sqlOf(db);

  /**
   * The lines matching `where`, in `orderBy`'s order, in one query: the product, its category and
   * country, and its activation instructions in the customer's language where it has them. The
   * confirmation page is read right after every payment, so this replaces what were six queries.
   */
  function readLines(where: Prisma.Sql, orderBy: Prisma.Sql): Promise<LineRow[]> {
    return sql.query<LineRow>(Prisma.sql`
      SELECT ol.id, ol.order_id AS "orderId", ol.product_id AS "productId", ol.product_name AS "productName",
             ol.quantity, ol.unit_price_minor AS "unitPriceMinor", o.paid_at AS "paidAt", o.currency,
             c.slug AS "categorySlug", co.icon AS "countryIcon", p.cover_path AS "coverPath",
             p.cover_text AS "coverText",
             COALESCE(t.activation_instructions, p.activation_instructions) AS "activationInstructions"
      FROM order_lines ol
      JOIN orders o ON o.id = ol.order_id
      JOIN users u ON u.id = o.user_id
      JOIN products p ON p.id = ol.product_id
      JOIN categories c ON c.id = p.category_id
      JOIN countries co ON co.id = p.country_id
      LEFT JOIN product_translations t ON t.product_id = ol.product_id AND t.locale = u.locale
      WHERE ${where}
      ORDER BY ${orderBy}`);
  }

  async function reveal(userId: string, lines: LineRow[], context: RevealContext): Promise<PurchasedProduct[]> {
    // The codes and the record of their reveal, in one statement.
    const codes: CodeRow[] =
      lines.length === 0
        ? []
        : await sql.query<CodeRow>(Prisma.sql`
            WITH codes AS (
              SELECT id, order_line_id, ciphertext, sold_at FROM product_codes
              WHERE order_line_id = ANY(${lines.map((line) => line.id)}::uuid[]) AND status = 'SOLD'
            ), revealed AS (
              INSERT INTO code_reveals (id, user_id, code_id, ip, route)
              SELECT gen_random_uuid(), ${userId}::uuid, id, ${context.ip?.slice(0, 64) ?? null}, ${context.route}
              FROM codes
            )
            SELECT id, order_line_id AS "orderLineId", ciphertext FROM codes ORDER BY sold_at, id`);
    const codesOf = new Map<string, CodeRow[]>();
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
      const [order] = await sql.query<{
        id: string;
        type: OrderType;
        status: OrderStatus;
        totalMinor: number;
        refundedMinor: number;
        currency: string;
        createdAt: Date;
        paidAt: Date | null;
      }>(Prisma.sql`
        SELECT id, type, status, total_minor AS "totalMinor", refunded_minor AS "refundedMinor", currency,
               created_at AS "createdAt", paid_at AS "paidAt"
        FROM orders WHERE id = ${orderId}::uuid AND user_id = ${userId}::uuid`);
      if (!order) throw new NotFoundError('Order');
      const lines = await readLines(Prisma.sql`ol.order_id = ${orderId}::uuid`, Prisma.sql`ol.product_id, ol.id`);
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
      const matches = text
        ? Prisma.sql`AND (ol.product_name ILIKE ${`%${text.replace(/[\\%_]/g, '\\$&')}%`}
                          OR word_similarity(${text}, ol.product_name) >= ${NEAR_SPELLING})`
        : Prisma.empty;
      const from = Prisma.sql`
        FROM order_lines ol JOIN orders o ON o.id = ol.order_id
        WHERE o.user_id = ${userId}::uuid AND o.status = ANY(${DELIVERED}::text[]::order_status[])
          AND EXISTS (SELECT 1 FROM product_codes pc WHERE pc.order_line_id = ol.id AND pc.status = 'SOLD')
          ${matches}`;
      const [counted, pageLines] = await Promise.all([
        sql.query<{ total: number }>(Prisma.sql`SELECT COUNT(*)::int AS total ${from}`),
        sql.query<{ id: string }>(Prisma.sql`
          SELECT ol.id ${from}
          ORDER BY o.paid_at DESC, ol.id
          LIMIT ${PURCHASED_PAGE_SIZE} OFFSET ${(page - 1) * PURCHASED_PAGE_SIZE}`),
      ]);
      const total = counted[0]?.total ?? 0;
      const ids = pageLines.map((line) => line.id);
      const lines =
        ids.length === 0
          ? []
          : await readLines(
              Prisma.sql`ol.id IN (${Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`))})`,
              Prisma.sql`o.paid_at DESC, ol.id`,
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
