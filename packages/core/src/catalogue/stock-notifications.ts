import { EMAIL_TOKEN_TTL_MINUTES, type Locale } from '@store/contract';
import { Prisma, type PrismaClient, prismaQueryable } from '@store/db';
import { enqueueEmailSend, recordEmail } from '../mail/outbox.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';
import { type Logger, silentLogger } from '../shared/logger.ts';

export interface StockNotificationDeps {
  db: PrismaClient;
  /** Absent where no queue runs (a command-line import): the outbox sweep sends the rows instead. */
  queue?: JobQueue;
  publicUrl: string;
  logger?: Logger;
}

interface Claimed {
  id: string;
  email: string;
  locale: string;
  product_id: number;
}

/**
 * "Tell me when it is back" on a sold-out product: the address is kept per product, and written to
 * once, through the email outbox, when the product has stock again (codes imported, an order's
 * codes given back, anything that raises `stock_count`).
 */
export function createStockNotificationService({ db, queue, publicUrl, logger = silentLogger }: StockNotificationDeps) {
  const base = publicUrl.replace(/\/+$/, '');
  let running: Promise<number> | null = null;
  let again = false;

  /**
   * Claims the requests of products in stock and writes their emails in one transaction: the
   * conditional UPDATE is the claim, so two instances running at once never write one twice.
   */
  async function sendDue(): Promise<number> {
    const emailIds = await db.$transaction(async (tx) => {
      const claimed = await tx.$queryRaw<Claimed[]>(Prisma.sql`
        UPDATE stock_notifications s SET notified_at = now()
        FROM products p
        WHERE p.id = s.product_id AND s.notified_at IS NULL AND p.stock_count > 0 AND p.is_active
        RETURNING s.id, s.email, s.locale, s.product_id`);
      const ids: string[] = [];
      for (const row of claimed) {
        ids.push(
          await recordEmail(prismaQueryable(tx), {
            to: row.email,
            template: 'back-in-stock',
            locale: row.locale as Locale,
            data: {
              name: '',
              link: `${base}/product/${row.product_id}`,
              expiresInMinutes: EMAIL_TOKEN_TTL_MINUTES['back-in-stock'],
            },
          }),
        );
      }
      return ids;
    });
    if (queue) for (const id of emailIds) void enqueueEmailSend(queue, id, logger);
    return emailIds.length;
  }

  return {
    /** Keeps `email` to write to when the product is back; asking again after a notice asks anew. */
    async subscribe(productId: number, email: string, locale: Locale): Promise<void> {
      const product = await db.product.findFirst({
        where: { id: productId, isActive: true },
        select: { stockCount: true },
      });
      if (!product) throw new NotFoundError('Product');
      if (product.stockCount > 0) throw new ConflictError('The product is in stock: it can be bought now.');
      const address = email.toLowerCase();
      await db.stockNotification.upsert({
        where: { productId_email: { productId, email: address } },
        create: { productId, email: address, locale },
        update: { locale, notifiedAt: null },
      });
    },

    /**
     * Writes the emails of every request whose product is in stock again; returns how many. Calls that
     * arrive while one runs are folded into one more run after it.
     */
    notifyRestocked(): Promise<number> {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        let sent = 0;
        do {
          again = false;
          sent += await sendDue();
        } while (again);
        return sent;
      })().finally(() => {
        running = null;
      });
      return running;
    },
  };
}

export type StockNotificationService = ReturnType<typeof createStockNotificationService>;
