import {
  EMAIL_TOKEN_TTL_MINUTES,
  type Locale,
  STOCK_NOTIFICATION_LINK_EXPIRED,
  STOCK_NOTIFICATION_LINK_USED,
} from '@store/contract';
import { type PrismaClient, prismaQueryable, qb } from '@store/db';
import { generateEmailToken, hashEmailToken, invalidToken } from '../accounts/email-tokens.ts';
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
  clock?: () => Date;
}

/** A request nobody confirmed is kept this long after its link expired, for the link to say so, then dropped. */
export const UNCONFIRMED_KEPT_MS = 7 * 24 * 3_600_000;

/**
 * "Tell me when it is back" on a sold-out product: the address is kept per product, and written to
 * once, through the email outbox, when the product has stock again (codes imported, an order's
 * codes given back, anything that raises `stock_count`). Only a confirmed address is written to, so
 * nobody can make the store mail a stranger: a guest's request waits for the link of a
 * confirmation email to be followed (its token random, stored hashed, single-use, expiring); a
 * signed-in customer's own address, verified by the account, stands at once.
 */
export function createStockNotificationService({
  db,
  queue,
  publicUrl,
  logger = silentLogger,
  clock = () => new Date(),
}: StockNotificationDeps) {
  const base = publicUrl.replace(/\/+$/, '');
  let running: Promise<number> | null = null;
  let again = false;

  /**
   * Claims the requests of products in stock and writes their emails in one transaction: the
   * conditional UPDATE is the claim, so two instances running at once never write one twice.
   */
  async function sendDue(): Promise<number> {
    const emailIds = await db.$transaction(async (tx) => {
      const sql = prismaQueryable(tx);
      const claimed = await sql.query(
        qb
          .updateTable('stock_notifications as s')
          .from('products as p')
          .set((eb) => ({ notified_at: eb.fn<Date>('now') }))
          .whereRef('p.id', '=', 's.product_id')
          .where('s.confirmed_at', 'is not', null)
          .where('s.notified_at', 'is', null)
          .where('p.stock_count', '>', 0)
          .where((eb) => eb.ref('p.is_active'))
          .returning(['s.id', 's.email', 's.locale', 's.product_id']),
      );
      const ids: string[] = [];
      for (const row of claimed) {
        ids.push(
          await recordEmail(sql, {
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

  /**
   * Writes the emails of every request whose product is in stock again; returns how many. Calls that
   * arrive while one runs are folded into one more run after it.
   */
  function notifyRestocked(): Promise<number> {
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
  }

  return {
    /**
     * Keeps `email` to write to when the product is back; asking again after a notice asks anew.
     * `userId`: the signed-in customer asking. Returns whether a link to confirm the request was
     * mailed: always, unless the address is the customer's own and verified. A request confirmed and
     * still waiting stands as it is, and the answer is the same as for any guest's, so that the form
     * tells nobody who watches what.
     */
    async subscribe(
      productId: number,
      email: string,
      locale: Locale,
      { userId }: { userId?: string } = {},
    ): Promise<{ confirmByEmail: boolean }> {
      const product = await db.product.findFirst({
        where: { id: productId, isActive: true },
        select: { stockCount: true },
      });
      if (!product) throw new NotFoundError('Product');
      if (product.stockCount > 0) throw new ConflictError('The product is in stock: it can be bought now.');
      const address = email.toLowerCase();
      const now = clock();
      const where = { productId_email: { productId, email: address } };
      const owner = userId
        ? await db.user.findUnique({ where: { id: userId }, select: { email: true, emailVerifiedAt: true } })
        : null;
      if (owner?.emailVerifiedAt && owner.email === address) {
        await db.stockNotification.upsert({
          where,
          create: { productId, email: address, locale, confirmedAt: now },
          update: { locale, notifiedAt: null, confirmedAt: now },
        });
        return { confirmByEmail: false };
      }
      const emailId = await db.$transaction(async (tx) => {
        await tx.stockNotification.deleteMany({
          where: { confirmedAt: null, confirmExpiresAt: { lt: new Date(now.getTime() - UNCONFIRMED_KEPT_MS) } },
        });
        const kept = await tx.stockNotification.findUnique({ where, select: { confirmedAt: true, notifiedAt: true } });
        if (kept?.confirmedAt && !kept.notifiedAt) return null;
        // A new link each time: the one mailed before stops working.
        const token = generateEmailToken();
        const expiresInMinutes = EMAIL_TOKEN_TTL_MINUTES['back-in-stock-confirm'];
        const pending = {
          confirmedAt: null,
          confirmTokenHash: hashEmailToken(token),
          confirmExpiresAt: new Date(now.getTime() + expiresInMinutes * 60_000),
        };
        await tx.stockNotification.upsert({
          where,
          create: { productId, email: address, locale, ...pending },
          update: { locale, notifiedAt: null, ...pending },
        });
        return recordEmail(prismaQueryable(tx), {
          to: address,
          template: 'back-in-stock-confirm',
          locale,
          data: { name: '', link: `${base}/product/${productId}?backInStockToken=${token}`, expiresInMinutes },
        });
      });
      if (emailId && queue) void enqueueEmailSend(queue, emailId, logger);
      return { confirmByEmail: true };
    },

    /**
     * Confirms the request of an emailed link, once. The conditional update is the check: of two uses
     * at once only one matches. A used or expired link is a 409 that says which (the contract names
     * the codes); one the store does not know, the same 422 as every emailed link's. Returns the
     * language the request was made in.
     */
    async confirm(token: string): Promise<{ locale: Locale }> {
      const confirmTokenHash = hashEmailToken(token);
      const now = clock();
      const { count } = await db.stockNotification.updateMany({
        where: { confirmTokenHash, confirmedAt: null, confirmExpiresAt: { gt: now } },
        data: { confirmedAt: now },
      });
      const request = await db.stockNotification.findUnique({
        where: { confirmTokenHash },
        select: { locale: true, confirmedAt: true },
      });
      if (!request) throw invalidToken();
      if (count === 0) {
        throw request.confirmedAt
          ? new ConflictError('This link was used already: the request stands.', STOCK_NOTIFICATION_LINK_USED)
          : new ConflictError('This link has expired: ask again for a new one.', STOCK_NOTIFICATION_LINK_EXPIRED);
      }
      // The stock may have come back while the link waited: such a request is due now.
      notifyRestocked().catch((error: unknown) => {
        logger.error({ err: error }, 'back-in-stock emails not written; the next change tries again');
      });
      return { locale: request.locale as Locale };
    },

    notifyRestocked,
  };
}

export type StockNotificationService = ReturnType<typeof createStockNotificationService>;
