import { Prisma, type Queryable } from '@store/db';

/** Raw SQL of fulfilment: reserving and claiming codes, which Prisma's query builder cannot say, and the basket. */

/**
 * Sells an order line's codes, in one statement: those reserved for it when the order was made, and,
 * when fewer are (the order ended unpaid and gave them back before its payment came), as many more
 * AVAILABLE codes of the product as it still lacks, oldest first; and counts them as purchased on the
 * product. The product's row is locked first, as every claim and reservation of its codes takes it,
 * and locked codes are waited for, never skipped: a claim never misses a code that exists because
 * another transaction held it and then rolled back. Answers the ids sold, which may be fewer than
 * `count` when the pool ran dry.
 */
export async function claimCodes(
  tx: Queryable,
  productId: number,
  orderLineId: string,
  count: number,
): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(Prisma.sql`
    WITH product AS (
      SELECT id FROM products WHERE id = ${productId} FOR NO KEY UPDATE
    ), held AS (
      UPDATE product_codes SET status = 'SOLD', sold_at = now()
      WHERE order_line_id = ${orderLineId}::uuid AND status = 'RESERVED'
      RETURNING id
    ), more AS (
      UPDATE product_codes SET status = 'SOLD', order_line_id = ${orderLineId}::uuid, sold_at = now()
      WHERE id IN (
        SELECT id FROM product_codes
        WHERE product_id = (SELECT id FROM product) AND status = 'AVAILABLE'
        ORDER BY created_at
        LIMIT GREATEST(0, ${count} - (SELECT COUNT(*) FROM held))
        FOR UPDATE)
      RETURNING id
    ), sold AS (
      SELECT id FROM held UNION ALL SELECT id FROM more
    ), counted AS (
      UPDATE products SET purchased_count = purchased_count + (SELECT COUNT(*)::int FROM sold)
      WHERE id = ${productId} AND EXISTS (SELECT 1 FROM sold)
    )
    SELECT id FROM sold`);
  return rows.map((row) => row.id);
}

/** At most this many codes are held for one customer's unpaid orders at once: nobody holds the stock. */
export const RESERVED_UNITS_MAX = 100;

/**
 * The reservation of a new order's codes, as CTEs after the one that inserts its lines (`lines`,
 * answering id, product_id and quantity): the products' rows are locked first, in id order, as a
 * fulfilment takes them, then each line takes as many AVAILABLE codes as it asks for, oldest first,
 * waiting for locked ones rather than skipping them. `reserved` answers the product of each code.
 */
export function reservationCtes(lines: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    stock AS (
      SELECT p.id FROM products p WHERE p.id IN (SELECT product_id FROM ${lines}) ORDER BY p.id FOR NO KEY UPDATE
    ), picked AS (
      SELECT l.id AS line_id, c.id AS code_id FROM ${lines} l
      CROSS JOIN LATERAL (
        SELECT id FROM product_codes
        WHERE product_id = l.product_id AND status = 'AVAILABLE'
        ORDER BY created_at
        LIMIT l.quantity
        FOR UPDATE
      ) AS c
      -- An uncorrelated condition, checked once before the codes are read: the products are locked first.
      WHERE EXISTS (SELECT 1 FROM stock)
    ), reserved AS (
      UPDATE product_codes pc SET status = 'RESERVED', order_line_id = picked.line_id
      FROM picked WHERE pc.id = picked.code_id
      RETURNING pc.product_id
    )`;
}

/**
 * What a line of the order still lacks, reserved: after codes held for the customer's abandoned
 * orders came back (releaseReservations), in a statement of its own so that it sees them. Answers
 * the codes reserved now, per product.
 */
export async function reserveRemaining(tx: Queryable, orderId: string): Promise<Map<number, number>> {
  const rows = await tx.query<{ productId: number; count: number }>(Prisma.sql`
    WITH lines AS (
      SELECT ol.id, ol.product_id,
             GREATEST(0, ol.quantity - (SELECT COUNT(*) FROM product_codes pc WHERE pc.order_line_id = ol.id))::int
               AS quantity
      FROM order_lines ol WHERE ol.order_id = ${orderId}::uuid
    ), ${reservationCtes(Prisma.sql`lines`)}
    SELECT product_id AS "productId", COUNT(*)::int AS count FROM reserved GROUP BY product_id`);
  return new Map(rows.map((row) => [row.productId, row.count]));
}

/**
 * Gives back the codes reserved for orders that ended unpaid, or that a newer order of the customer
 * took over: in stock again (the stock trigger counts them).
 */
export function releaseReservations(orderIds: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    UPDATE product_codes SET status = 'AVAILABLE', order_line_id = NULL
    WHERE status = 'RESERVED' AND order_line_id IN (SELECT id FROM order_lines WHERE order_id = ANY(${orderIds}))`;
}

/**
 * The bought units leave the customer's basket: a line goes when the order took all of it, and
 * keeps what the customer added beyond the order otherwise (disjoint rows). CTEs, to open the WITH
 * list of the statement that ends the fulfilment; the customer's row must be locked (the basket's
 * writers queue on it).
 */
export function basketRemoval(userId: string, bought: ReadonlyArray<{ productId: number; quantity: number }>) {
  const ids = bought.map((line) => line.productId);
  const quantities = bought.map((line) => line.quantity);
  return Prisma.sql`
    bought AS (
      SELECT * FROM unnest(${ids}::int[], ${quantities}::int[]) AS b(product_id, quantity)
    ), basket_gone AS (
      DELETE FROM basket_lines bl USING bought b
      WHERE bl.user_id = ${userId}::uuid AND bl.product_id = b.product_id AND bl.quantity <= b.quantity
    ), basket_kept AS (
      UPDATE basket_lines bl SET quantity = bl.quantity - b.quantity, updated_at = now()
      FROM bought b
      WHERE bl.user_id = ${userId}::uuid AND bl.product_id = b.product_id AND bl.quantity > b.quantity
    )`;
}
