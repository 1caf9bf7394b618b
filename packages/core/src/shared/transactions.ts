/**
 * The options of every transaction of orders, payments and refunds. They queue for the pool's
 * connections and for the row locks of busy products and orders: under a burst they wait their turn
 * rather than fail. Prisma's defaults (2 s to get a connection, 5 s to finish) turned a checkout
 * burst on a busy machine into 500s.
 */
export const ORDER_TX_OPTIONS = { maxWait: 60_000, timeout: 60_000 } as const;
