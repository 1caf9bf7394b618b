import { Prisma, type Queryable } from '@store/db';

/** Raw SQL of fulfilment: the claim of codes, which Prisma's query builder cannot say, and the basket. */

/**
 * Claims up to `count` AVAILABLE codes of a product for an order line, oldest first, and counts them
 * as purchased on the product, in one statement. SKIP LOCKED: concurrent fulfilments take different
 * codes instead of queueing on the same ones, and a code is SOLD to exactly one line (the status
 * check is re-read on the locked row; the code's unique id and the sold-status CHECK back it).
 * Answers the ids claimed, which may be fewer than asked when the pool runs dry.
 */
export async function claimCodes(
  tx: Queryable,
  productId: number,
  orderLineId: string,
  count: number,
): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(Prisma.sql`
    WITH claimed AS (
      UPDATE product_codes SET status = 'SOLD', order_line_id = ${orderLineId}::uuid, sold_at = now()
      WHERE id IN (
        SELECT id FROM product_codes
        WHERE product_id = ${productId} AND status = 'AVAILABLE'
        ORDER BY created_at
        LIMIT ${count}
        FOR UPDATE SKIP LOCKED)
      RETURNING id
    ), counted AS (
      UPDATE products SET purchased_count = purchased_count + (SELECT COUNT(*)::int FROM claimed)
      WHERE id = ${productId} AND EXISTS (SELECT 1 FROM claimed)
    )
    SELECT id FROM claimed`);
  return rows.map((row) => row.id);
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
