import type { CappedLine } from '@store/contract';
import type { Prisma } from '@store/db';
import { PRODUCT_COLUMNS, PRODUCT_JOINS, type ProductRow } from '../catalogue/catalogue-sql.ts';

/**
 * Raw SQL of the basket, for what Prisma's query builder cannot say: a row lock, a DELETE joined to
 * products, one upsert for many lines, and a pruning batch that skips rows another run holds.
 */

/** How many expired request ids one write prunes: more than one write adds, so they never pile up. */
const PRUNE_BATCH = 100;

export interface BasketRow extends ProductRow {
  quantity: number;
}

/**
 * Serialises the writes to one customer's basket: each takes the customer's row for the length of
 * its transaction. NO KEY UPDATE leaves the row free for the foreign-key checks of other tables
 * (a new session, an order), which take KEY SHARE.
 */
export async function lockBasket(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM users WHERE id = ${userId}::uuid FOR NO KEY UPDATE`;
}

/** Takes out the lines of products no longer sold, and reports them. */
export async function removeUnavailableLines(tx: Prisma.TransactionClient, userId: string): Promise<CappedLine[]> {
  const removed = await tx.$queryRaw<Array<{ id: number; quantity: number }>>`
    DELETE FROM basket_lines bl USING products p
    WHERE bl.user_id = ${userId}::uuid AND p.id = bl.product_id AND NOT p.is_active
    RETURNING bl.product_id AS id, bl.quantity`;
  return removed
    .sort((a, b) => a.id - b.id)
    .map(({ id, quantity }) => ({ id, requested: quantity, quantity: 0, reason: 'unavailable' as const }));
}

/** The lines with their products, in the order they were added. */
export function readBasketRows(tx: Prisma.TransactionClient, userId: string): Promise<BasketRow[]> {
  return tx.$queryRaw<BasketRow[]>`
    SELECT ${PRODUCT_COLUMNS}, bl.quantity
    FROM basket_lines bl
    JOIN products p ON p.id = bl.product_id
    ${PRODUCT_JOINS}
    WHERE bl.user_id = ${userId}::uuid AND p.is_active
    ORDER BY bl.position, bl.product_id`;
}

/**
 * Writes the `changed` lines as `lines` holds them: upserted, or deleted when absent. A new line is
 * placed after the basket's others, in the order of `changed`; a line already there keeps its place.
 * The caller holds the basket's lock, so the highest position read here is still the highest.
 */
export async function writeBasketLines(
  tx: Prisma.TransactionClient,
  userId: string,
  lines: ReadonlyMap<number, number>,
  changed: ReadonlySet<number>,
): Promise<void> {
  const kept = [...changed].filter((id) => lines.has(id));
  const removed = [...changed].filter((id) => !lines.has(id));
  if (kept.length > 0) {
    const quantities = kept.map((id) => lines.get(id) as number);
    await tx.$executeRaw`
      INSERT INTO basket_lines (user_id, product_id, quantity, position, updated_at)
      SELECT ${userId}::uuid, line.product_id, line.quantity,
             (SELECT COALESCE(MAX(position), 0) FROM basket_lines WHERE user_id = ${userId}::uuid) + line.n,
             now()
      FROM unnest(${kept}::int[], ${quantities}::int[]) WITH ORDINALITY AS line(product_id, quantity, n)
      ON CONFLICT (user_id, product_id)
      DO UPDATE SET quantity = EXCLUDED.quantity, updated_at = EXCLUDED.updated_at`;
  }
  if (removed.length > 0) {
    await tx.basketLine.deleteMany({ where: { userId, productId: { in: removed } } });
  }
}

/**
 * Deletes a batch of request ids older than `ttlMs`, by the database's clock. SKIP LOCKED: two
 * customers' writes never wait for each other over the same old rows.
 */
export async function pruneBasketRequests(tx: Prisma.TransactionClient, ttlMs: number): Promise<void> {
  await tx.$executeRaw`
    DELETE FROM basket_requests
    WHERE (user_id, request_id) IN (
      SELECT user_id, request_id FROM basket_requests
      WHERE created_at < now() - ${ttlMs}::bigint * interval '1 millisecond'
      ORDER BY created_at
      LIMIT ${PRUNE_BATCH}
      FOR UPDATE SKIP LOCKED)`;
}
