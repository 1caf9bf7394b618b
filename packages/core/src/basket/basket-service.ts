import {
  BASKET_LINE_MAX,
  BASKET_LINES_MAX,
  type BasketContents,
  type BasketItem,
  type BasketMergeBody,
  type BasketPatchBody,
  type CappedLine,
  ErrorKeys,
  STORE_CURRENCY,
} from '@store/contract';
import type { Prisma, PrismaClient } from '@store/db';
import { toProductSummary } from '../catalogue/catalogue-service.ts';
import { ValidationError } from '../shared/errors.ts';
import { minorToDisplay } from '../shared/money.ts';
import {
  type BasketRow,
  lockBasket,
  pruneBasketRequests,
  readBasketRows,
  removeUnavailableLines,
  writeBasketLines,
} from './basket-sql.ts';

/**
 * How long the ids of applied flushes and merges are remembered: a retry of the same id within a
 * week is answered with the basket as it is, not applied again. A client keeps an id only until
 * the server has acknowledged it, so a week covers a laptop closed mid-flush and opened days later;
 * an id retried after that is applied as new.
 */
export const BASKET_REQUEST_TTL_MS = 7 * 24 * 3_600_000;

/** A flush waits its turn behind the customer's other writes inside its transaction. */
const TX_OPTIONS = { maxWait: 5_000, timeout: 15_000 };

export interface BasketServiceDeps {
  db: PrismaClient;
  requestTtlMs?: number;
}

/** The most a line of a product with this stock may hold now. */
function lineMax(stockCount: number): number {
  return Math.max(0, Math.min(stockCount, BASKET_LINE_MAX));
}

/**
 * A basket being changed inside its transaction: the lines as they are, what the call changes,
 * and what it could not do as asked.
 */
class BasketDraft {
  readonly changed = new Set<number>();
  readonly capped: CappedLine[] = [];

  constructor(readonly lines: Map<number, number>) {}

  /**
   * Sets a line to `requested` units, within its product's stock and the per-line maximum, and
   * within BASKET_LINES_MAX lines; zero or less removes it.
   */
  set(id: number, requested: number, stockCount: number) {
    const current = this.lines.get(id) ?? 0;
    if (requested <= 0) {
      if (current > 0) this.put(id, 0);
      return;
    }
    if (current === 0 && this.lines.size >= BASKET_LINES_MAX) {
      this.capped.push({ id, requested, quantity: 0, reason: 'basket_full' });
      return;
    }
    const quantity = Math.min(requested, lineMax(stockCount));
    if (quantity < requested) {
      this.capped.push({ id, requested, quantity, reason: stockCount < BASKET_LINE_MAX ? 'stock' : 'line_max' });
    }
    if (quantity !== current) this.put(id, quantity);
  }

  private put(id: number, quantity: number) {
    if (quantity > 0) this.lines.set(id, quantity);
    else this.lines.delete(id);
    this.changed.add(id);
  }
}

function toBasketItem(row: BasketRow): BasketItem {
  const summary = toProductSummary(row);
  return {
    id: summary.id,
    article: summary.article,
    name: summary.name,
    price: summary.price,
    price_minor: summary.price_minor,
    currency: summary.currency,
    category: summary.category,
    cover_path: summary.cover_path,
    cover_text: summary.cover_text,
    country_icon: summary.country_icon,
    country: summary.country,
    in_stock: summary.in_stock,
    pivot: { quantity: row.quantity },
    max_quantity: lineMax(row.stock_count),
  };
}

function toResponse(rows: BasketRow[], capped: CappedLine[]): BasketContents {
  const totalMinor = rows.reduce((sum, row) => sum + row.price_minor * row.quantity, 0);
  return {
    products: rows.map(toBasketItem),
    total_minor: totalMinor,
    total: minorToDisplay(totalMinor),
    currency: STORE_CURRENCY,
    capped,
  };
}

/**
 * The customer's server basket (docs/orders.md, "The basket"). Every change runs in one transaction
 * that first locks the customer's row: two tabs flushing at once take turns, and the second sees
 * the first's lines, so both changes count and the line-count limit holds. A flush or merge id is
 * recorded in the same transaction, so a retried request is applied once, and a refused one (422)
 * leaves no trace. Lines of products no longer sold leave the basket on the next read or write,
 * which reports them once as `capped` with reason `unavailable`.
 */
export function createBasketService({ db, requestTtlMs = BASKET_REQUEST_TTL_MS }: BasketServiceDeps) {
  async function stockOf(tx: Prisma.TransactionClient, ids: number[]) {
    const products = await tx.product.findMany({
      where: { id: { in: ids } },
      select: { id: true, isActive: true, stockCount: true },
    });
    return new Map(products.map((product) => [product.id, product]));
  }

  async function currentLines(tx: Prisma.TransactionClient, userId: string) {
    const lines = await tx.basketLine.findMany({ where: { userId }, select: { productId: true, quantity: true } });
    return new Map(lines.map((line) => [line.productId, line.quantity]));
  }

  /** False when this id was applied before: the caller then only answers the basket. */
  async function recordRequest(
    tx: Prisma.TransactionClient,
    userId: string,
    requestId: string,
    kind: 'FLUSH' | 'MERGE',
  ): Promise<boolean> {
    const { count } = await tx.basketRequest.createMany({
      data: [{ userId, requestId, kind }],
      skipDuplicates: true,
    });
    return count === 1;
  }

  /**
   * Locks the basket, records the id and, unless it was seen before, runs `apply`, which answers
   * the lines it capped; answers the basket. Without an id there is nothing to recognise a retry
   * by, so `apply` always runs.
   */
  function writeBasket(
    userId: string,
    requestId: string | undefined,
    kind: 'FLUSH' | 'MERGE',
    apply: (tx: Prisma.TransactionClient) => Promise<CappedLine[]>,
  ): Promise<BasketContents> {
    return db.$transaction(async (tx) => {
      await lockBasket(tx, userId);
      const capped = await removeUnavailableLines(tx, userId);
      if (requestId === undefined) {
        capped.push(...(await apply(tx)));
      } else if (await recordRequest(tx, userId, requestId, kind)) {
        capped.push(...(await apply(tx)));
        await pruneBasketRequests(tx, requestTtlMs);
      }
      return toResponse(await readBasketRows(tx, userId), capped);
    }, TX_OPTIONS);
  }

  return {
    async getBasket(userId: string): Promise<BasketContents> {
      const capped = await removeUnavailableLines(db, userId);
      return toResponse(await readBasketRows(db, userId), capped);
    },

    /**
     * PATCH /basket: increases and decreases, in the order given, once per `flush_id` (each time
     * when there is none). Unknown products, and increases
     * of products no longer sold, refuse the whole flush with a 422 on `products.<index>.id`; a
     * decrease of a product no longer sold is taken as given, since its line is leaving anyway.
     */
    applyChanges(userId: string, { flush_id, products }: BasketPatchBody): Promise<BasketContents> {
      return writeBasket(userId, flush_id, 'FLUSH', async (tx) => {
        const stock = await stockOf(
          tx,
          products.map((change) => change.id),
        );
        const errors: Record<string, string[]> = {};
        products.forEach((change, index) => {
          const product = stock.get(change.id);
          if (!product || (change.type === 'increase' && !product.isActive)) {
            errors[`products.${index}.id`] = [ErrorKeys.invalidValue];
          }
        });
        if (Object.keys(errors).length > 0) {
          throw new ValidationError(errors, 'Some of these products are unknown or no longer sold.');
        }

        const draft = new BasketDraft(await currentLines(tx, userId));
        for (const change of products) {
          const { stockCount } = stock.get(change.id) as { stockCount: number };
          const current = draft.lines.get(change.id) ?? 0;
          draft.set(
            change.id,
            change.type === 'increase' ? current + change.count : current - change.count,
            stockCount,
          );
        }
        await writeBasketLines(tx, userId, draft.lines, draft.changed);
        return draft.capped;
      });
    },

    /**
     * POST /basket/merge: the guest basket added to the customer's, quantities summed and capped.
     * A guest line of a product that is gone is reported as `unavailable`, not refused: the guest
     * basket may be weeks old, and the rest of it must still arrive.
     */
    mergeBasket(userId: string, { merge_id, products }: BasketMergeBody): Promise<BasketContents> {
      return writeBasket(userId, merge_id, 'MERGE', async (tx) => {
        const stock = await stockOf(
          tx,
          products.map((line) => line.id),
        );
        const draft = new BasketDraft(await currentLines(tx, userId));
        for (const line of products) {
          const product = stock.get(line.id);
          if (!product?.isActive) {
            draft.capped.push({ id: line.id, requested: line.quantity, quantity: 0, reason: 'unavailable' });
            continue;
          }
          draft.set(line.id, (draft.lines.get(line.id) ?? 0) + line.quantity, product.stockCount);
        }
        await writeBasketLines(tx, userId, draft.lines, draft.changed);
        return draft.capped;
      });
    },
  };
}

export type BasketService = ReturnType<typeof createBasketService>;
