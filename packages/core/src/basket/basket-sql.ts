import type { CappedLine } from '@store/contract';
import { type Prisma, prismaQueryable, qb } from '@store/db';
import { type ProductRow, productSummaries } from '../catalogue/catalogue-sql.ts';

/**
 * Statements of the basket, built with `qb`, for what Prisma's query builder cannot say: a row lock,
 * a DELETE joined to products, one upsert for many lines, and a pruning batch that skips rows
 * another run holds. They run in the caller's Prisma transaction (prismaQueryable).
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
  await prismaQueryable(tx).query(
    qb
      .selectFrom('users')
      .select((eb) => eb.lit(1).as('locked'))
      .where('id', '=', userId)
      .forNoKeyUpdate(),
  );
}

/** Takes out the lines of products no longer sold, and reports them. */
export async function removeUnavailableLines(tx: Prisma.TransactionClient, userId: string): Promise<CappedLine[]> {
  const removed = await prismaQueryable(tx).query(
    qb
      .deleteFrom('basket_lines')
      .using('products as p')
      .where('basket_lines.user_id', '=', userId)
      .whereRef('p.id', '=', 'basket_lines.product_id')
      .where((eb) => eb.not(eb.ref('p.is_active')))
      .returning(['basket_lines.product_id as id', 'basket_lines.quantity']),
  );
  return removed
    .sort((a, b) => a.id - b.id)
    .map(({ id, quantity }) => ({ id, requested: quantity, quantity: 0, reason: 'unavailable' as const }));
}

/** The lines with their products, in the order they were added. */
export function readBasketRows(tx: Prisma.TransactionClient, userId: string): Promise<BasketRow[]> {
  return prismaQueryable(tx).query(
    productSummaries
      .innerJoin('basket_lines as bl', 'bl.product_id', 'p.id')
      .select('bl.quantity')
      .where('bl.user_id', '=', userId)
      .where((eb) => eb.ref('p.is_active'))
      .orderBy('bl.position')
      .orderBy('bl.product_id'),
  );
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
    // One JSON parameter for the lines, so the statement is the same whatever their number; `n`
    // places each new line after the others, in the order of `changed`.
    const rows = kept.map((id, index) => ({ productId: id, quantity: lines.get(id) as number, n: index + 1 }));
    await prismaQueryable(tx).execute(
      qb
        .insertInto('basket_lines')
        .columns(['user_id', 'product_id', 'quantity', 'position', 'updated_at'])
        .expression((eb) =>
          eb
            .selectFrom((eb) =>
              eb
                .fn<{ value: (typeof rows)[number] }>('jsonb_array_elements', [eb.val(JSON.stringify(rows))])
                .as('line'),
            )
            .select((eb) => [
              eb.val(userId).as('user_id'),
              eb.cast<number>(eb.ref('line.value', '->>').key('productId'), 'integer').as('product_id'),
              eb.cast<number>(eb.ref('line.value', '->>').key('quantity'), 'integer').as('quantity'),
              eb(
                eb
                  .selectFrom('basket_lines')
                  .select((eb) => eb.fn.coalesce(eb.fn.max('position'), eb.lit(0)).as('last'))
                  .where('user_id', '=', userId),
                '+',
                eb.cast<number>(eb.ref('line.value', '->>').key('n'), 'integer'),
              ).as('position'),
              eb.fn<Date>('now').as('updated_at'),
            ]),
        )
        .onConflict((oc) =>
          oc.columns(['user_id', 'product_id']).doUpdateSet((eb) => ({
            quantity: eb.ref('excluded.quantity'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        ),
    );
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
  await prismaQueryable(tx).execute(
    qb.deleteFrom('basket_requests').where((eb) =>
      eb(
        eb.refTuple('user_id', 'request_id'),
        'in',
        eb
          .selectFrom('basket_requests')
          .select(['user_id', 'request_id'])
          .where((eb) => {
            // make_interval(years, months, weeks, days, hours, mins, secs): the TTL in seconds.
            const ttl = eb.fn('make_interval', [
              ...[0, 0, 0, 0, 0, 0].map((zero) => eb.lit(zero)),
              eb.val(ttlMs / 1000),
            ]);
            return eb('created_at', '<', eb(eb.fn('now'), '-', ttl).$castTo<Date>());
          })
          .orderBy('created_at')
          .limit(PRUNE_BATCH)
          .forUpdate()
          .skipLocked()
          .$asTuple('user_id', 'request_id'),
      ),
    ),
  );
}
