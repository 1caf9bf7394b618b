import { prepare, type Queryable, qb } from '@store/db';

/**
 * Statements of fulfilment, built with `qb`: reserving and claiming codes, which Prisma's query
 * builder cannot say, and the basket.
 */

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
  const rows = await tx.query(claimStatement({ productId, orderLineId, count }));
  return rows.map((row) => row.id);
}

const claimStatement = prepare(
  ({ productId, orderLineId, count }: { productId: number; orderLineId: string; count: number }) =>
    qb
      .with('product', (db) => db.selectFrom('products').select('id').where('id', '=', productId).forNoKeyUpdate())
      .with('held', (db) =>
        db
          .updateTable('product_codes')
          .set((eb) => ({ status: 'SOLD', sold_at: eb.fn<Date>('now') }))
          .where('order_line_id', '=', orderLineId)
          .where('status', '=', 'RESERVED')
          .returning('id'),
      )
      .with('more', (db) =>
        db
          .updateTable('product_codes')
          .set((eb) => ({ status: 'SOLD', order_line_id: orderLineId, sold_at: eb.fn<Date>('now') }))
          .where((eb) =>
            eb(
              'id',
              'in',
              eb
                .selectFrom('product_codes')
                .select('id')
                .where((eb) => eb('product_id', '=', eb.selectFrom('product').select('product.id')))
                .where('status', '=', 'AVAILABLE')
                .orderBy('created_at')
                .limit((eb) =>
                  eb.fn<number>('greatest', [
                    eb.lit(0),
                    eb(
                      eb.val(count),
                      '-',
                      eb.selectFrom('held').select((eb) => eb.fn.countAll<number>().as('held')),
                    ),
                  ]),
                )
                .forUpdate(),
            ),
          )
          .returning('id'),
      )
      .with('sold', (db) => db.selectFrom('held').select('id').unionAll(db.selectFrom('more').select('id')))
      .with('counted', (db) =>
        db
          .updateTable('products')
          .set((eb) => ({
            purchased_count: eb(
              'purchased_count',
              '+',
              eb.selectFrom('sold').select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('sold')),
            ),
          }))
          .where('id', '=', productId)
          .where((eb) => eb.exists(eb.selectFrom('sold').select(eb.lit(1).as('one')))),
      )
      .selectFrom('sold')
      .select('id'),
);

/** At most this many codes are held for one customer's unpaid orders at once: nobody holds the stock. */
export const RESERVED_UNITS_MAX = 100;

/**
 * The tables a reservation reads besides the schema's: the CTE of the order's lines it follows, and
 * its own CTEs before `reserved`. Their columns are declared here, so the caller's `lines` must
 * answer id, product_id and quantity.
 */
const reserving = qb.$extendTables<{
  lines: { id: string; product_id: number; quantity: number };
  stock: { id: number };
  picked: { line_id: string; code_id: string };
}>();

/**
 * The reservation of an order's codes, as three CTEs after one named `lines` (answering id,
 * product_id and quantity), in this order and under these names:
 *
 *     .with('stock', () => reservation.stock).with('picked', () => reservation.picked).with('reserved', () => reservation.reserved)
 *
 * The products' rows are locked first, in id order, as a fulfilment takes them, then each line
 * takes as many AVAILABLE codes as it asks for, oldest first, waiting for locked ones rather than
 * skipping them. `reserved` answers the product of each code.
 */
export const reservation = {
  stock: reserving
    .selectFrom('products as p')
    .select('p.id')
    .where((eb) => eb('p.id', 'in', eb.selectFrom('lines').select('product_id')))
    .orderBy('p.id')
    .forNoKeyUpdate(),
  picked: reserving
    .selectFrom('lines as l')
    .crossJoinLateral((eb) =>
      eb
        .selectFrom('product_codes')
        .select('id')
        .whereRef('product_id', '=', 'l.product_id')
        .where('status', '=', 'AVAILABLE')
        .orderBy('created_at')
        .limit(eb.ref('l.quantity'))
        .forUpdate()
        .as('c'),
    )
    .select(['l.id as line_id', 'c.id as code_id'])
    // An uncorrelated condition, checked once before the codes are read: the products are locked first.
    .where((eb) => eb.exists(eb.selectFrom('stock').select(eb.lit(1).as('one')))),
  reserved: reserving
    .updateTable('product_codes as pc')
    .from('picked')
    .set((eb) => ({ status: 'RESERVED', order_line_id: eb.ref('picked.line_id') }))
    .whereRef('pc.id', '=', 'picked.code_id')
    .returning('pc.product_id'),
};

/**
 * What a line of the order still lacks, reserved: after codes held for the customer's abandoned
 * orders came back (releaseReservations), in a statement of its own so that it sees them. Answers
 * the codes reserved now, per product.
 */
export async function reserveRemaining(tx: Queryable, orderId: string): Promise<Map<number, number>> {
  const rows = await tx.query(
    qb
      .with('lines', (db) =>
        db
          .selectFrom('order_lines as ol')
          .select((eb) => [
            'ol.id',
            'ol.product_id',
            eb
              .cast<number>(
                eb.fn('greatest', [
                  eb.lit(0),
                  eb(
                    'ol.quantity',
                    '-',
                    eb
                      .selectFrom('product_codes as pc')
                      .select((eb) => eb.fn.countAll<number>().as('held'))
                      .whereRef('pc.order_line_id', '=', 'ol.id'),
                  ),
                ]),
                'integer',
              )
              .as('quantity'),
          ])
          .where('ol.order_id', '=', orderId),
      )
      .with('stock', () => reservation.stock)
      .with('picked', () => reservation.picked)
      .with('reserved', () => reservation.reserved)
      .selectFrom('reserved')
      .select((eb) => ['product_id as productId', eb.cast<number>(eb.fn.countAll(), 'integer').as('count')])
      .groupBy('product_id'),
  );
  return new Map(rows.map((row) => [row.productId, row.count]));
}

/** A query answering order ids, one column: the orders whose reserved codes go back. */
const orderIdsShape = () => qb.selectFrom('orders').select('id');
export type OrderIdsQuery = Pick<
  ReturnType<typeof orderIdsShape>,
  'isSelectQueryBuilder' | 'expressionType' | 'toOperationNode' | 'as'
>;

/**
 * Gives back the codes reserved for orders that ended unpaid, or that a newer order of the customer
 * took over: in stock again (the stock trigger counts them). `orders`: their ids, or a query that
 * answers them.
 */
export function reservationRelease(orders: string[] | OrderIdsQuery) {
  return qb
    .updateTable('product_codes')
    .set({ status: 'AVAILABLE', order_line_id: null })
    .where('status', '=', 'RESERVED')
    .where((eb) =>
      eb(
        'order_line_id',
        'in',
        eb
          .selectFrom('order_lines')
          .select('id')
          .where((eb) =>
            Array.isArray(orders) ? eb('order_id', '=', eb.fn.any(eb.val(orders))) : eb('order_id', 'in', orders),
          ),
      ),
    );
}

/** The bought lines as basketRemoval takes them: one JSON text parameter. */
export type BoughtLines = string & { readonly boughtLines: unique symbol };

export function boughtLines(lines: ReadonlyArray<{ productId: number; quantity: number }>): BoughtLines {
  return JSON.stringify(lines.map(({ productId, quantity }) => ({ productId, quantity }))) as BoughtLines;
}

/**
 * The bought units leave the customer's basket: a line goes when the order took all of it, and
 * keeps what the customer added beyond the order otherwise (disjoint rows). The opening CTEs of the
 * statement that ends the fulfilment, which goes on with `.with(...)`; the customer's row must be
 * locked (the basket's writers queue on it). The bought lines are one JSON parameter, so the
 * statement is the same whatever their number.
 */
export function basketRemoval(userId: string, bought: BoughtLines) {
  return qb
    .with('bought', (db) =>
      db
        .selectFrom((eb) =>
          eb.fn<{ value: { productId: number; quantity: number } }>('jsonb_array_elements', [eb.val(bought)]).as('b'),
        )
        .select((eb) => [
          eb.cast<number>(eb.ref('b.value', '->>').key('productId'), 'integer').as('product_id'),
          eb.cast<number>(eb.ref('b.value', '->>').key('quantity'), 'integer').as('quantity'),
        ]),
    )
    .with('basket_gone', (db) =>
      db
        .deleteFrom('basket_lines')
        .using('bought')
        .where('basket_lines.user_id', '=', userId)
        .whereRef('basket_lines.product_id', '=', 'bought.product_id')
        .whereRef('basket_lines.quantity', '<=', 'bought.quantity'),
    )
    .with('basket_kept', (db) =>
      db
        .updateTable('basket_lines')
        .from('bought')
        .set((eb) => ({
          quantity: eb('basket_lines.quantity', '-', eb.ref('bought.quantity')),
          updated_at: eb.fn<Date>('now'),
        }))
        .where('basket_lines.user_id', '=', userId)
        .whereRef('basket_lines.product_id', '=', 'bought.product_id')
        .whereRef('basket_lines.quantity', '>', 'bought.quantity'),
    );
}
