import type { Logger } from '../shared/logger.ts';
import { repeatEvery } from '../shared/repeat.ts';
import type { OrderService } from './order-service.ts';

/** How often unpaid orders are checked for expiry: an order expires at most this long after its time. */
export const ORDER_EXPIRY_SWEEP_INTERVAL_MS = 60_000;

export interface OrderExpirySweeper {
  stop(): Promise<void>;
}

/**
 * Expires due orders now and then on an interval, batch after batch until none is left. A failed
 * sweep is logged and tried again at the next tick; a tick never overlaps the previous one, and
 * several processes sweeping at once take different orders (SKIP LOCKED).
 */
export function startOrderExpirySweep(
  { orders, logger }: { orders: Pick<OrderService, 'expireOrders'>; logger: Logger },
  { intervalMs = ORDER_EXPIRY_SWEEP_INTERVAL_MS, batch = 100 }: { intervalMs?: number; batch?: number } = {},
): OrderExpirySweeper {
  return repeatEvery(
    intervalMs,
    async (isStopped) => {
      let total = 0;
      for (;;) {
        const count = await orders.expireOrders({ limit: batch });
        total += count;
        if (count < batch || isStopped()) break;
      }
      if (total > 0) logger.info({ count: total }, 'unpaid orders expired');
    },
    (error) => logger.error({ err: error }, 'order expiry sweep failed'),
  );
}
