import { ErrorKeys, REVIEW_PAGE_SIZE, type Review, type ReviewSort, type ReviewsResponse } from '@store/contract';
import type { DB } from '@store/db';
import { type ExpressionBuilder, Prisma, type PrismaClient, qb, type SqlClient } from '@store/db';
import { ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { ratingSummary } from '../shared/rating.ts';

export interface ReviewServiceDeps {
  db: PrismaClient;
  sql: SqlClient;
}

export interface CreateReviewInput {
  productId: number;
  rating: number;
  text: string;
}

type ReviewScope = ExpressionBuilder<DB & { r: DB['reviews'] }, 'r'>;

/**
 * Whether the review's author bought its product: an order of theirs that was paid and not refunded
 * in full (PAID, on its way to delivery; FULFILLED; PARTIALLY_REFUNDED) holds a line of the product
 * that delivered at least one code (a line whose every unit fell short was refunded whole). Worked
 * out when reviews are read rather than stored with them: a refund, a chargeback or a late
 * fulfilment changes it at once, with nothing to keep in step. It costs one indexed probe per review
 * shown (the author's orders, their lines, a line's codes), and for the verified-first order one per
 * review of the product, which has tens, not millions.
 */
function verifiedBuyer(eb: ReviewScope) {
  return eb.exists(
    eb
      .selectFrom('orders as o')
      .innerJoin('order_lines as ol', 'ol.order_id', 'o.id')
      .select(eb.lit(1).as('one'))
      .whereRef('o.user_id', '=', 'r.user_id')
      .whereRef('ol.product_id', '=', 'r.product_id')
      .where('o.status', 'in', ['PAID', 'FULFILLED', 'PARTIALLY_REFUNDED'])
      .where((inner) =>
        inner.or([
          inner('o.status', '=', 'PAID'),
          inner.exists(
            inner
              .selectFrom('product_codes as pc')
              .select(inner.lit(1).as('one'))
              .whereRef('pc.order_line_id', '=', 'ol.id')
              .where('pc.status', '=', 'SOLD'),
          ),
        ]),
      ),
  );
}

/** Reviews (`r`) with their authors' names and whether each author bought the product. */
const reviewRows = qb
  .selectFrom('reviews as r')
  .innerJoin('users as u', 'u.id', 'r.user_id')
  .select((eb) => [
    'r.id',
    'r.user_id',
    'r.product_id',
    'r.rating',
    'r.text',
    'r.created_at',
    'r.edited_at',
    'u.name as author',
    verifiedBuyer(eb).as('verified_buyer'),
  ]);

type ReviewRow = Awaited<ReturnType<typeof reviewRows.execute>>[number];

function toReview(row: ReviewRow): Review {
  return {
    id: row.id,
    rating: row.rating,
    text: row.text,
    author: row.author,
    created_at: new Date(row.created_at).toISOString(),
    verified_buyer: Boolean(row.verified_buyer),
    edited_at: row.edited_at === null ? null : new Date(row.edited_at).toISOString(),
  };
}

/**
 * Product reviews by signed-in customers, one per customer and product (a unique constraint). The
 * catalogue reads reviews and ratings straight from the table, never from its caches, so a new,
 * changed or deleted review shows at once without invalidating anything (the catalogue index hears
 * of it from the table's trigger).
 */
export function createReviewService({ db, sql }: ReviewServiceDeps) {
  async function requireActiveProduct(productId: number) {
    const product = await db.product.findFirst({ where: { id: productId, isActive: true }, select: { id: true } });
    if (!product) throw new NotFoundError('Product');
    return product;
  }

  async function readReview(id: string): Promise<ReviewRow | undefined> {
    const [row] = await sql.query(reviewRows.where('r.id', '=', id));
    return row;
  }

  /** The review `id`, if `userId` wrote it: 404 when there is no such review, 403 when another customer wrote it. */
  async function requireOwnReview(userId: string, id: string) {
    const review = await db.review.findUnique({ where: { id }, select: { userId: true } });
    if (!review) throw new NotFoundError('Review');
    if (review.userId !== userId) throw new ForbiddenError('This review is another customer’s.');
  }

  return {
    /** A product's reviews, a page at a time: newest first, or verified buyers' first. */
    async listReviews(
      productId: number,
      query: { offset?: number | undefined; limit?: number | undefined; sort?: ReviewSort | undefined },
    ): Promise<ReviewsResponse> {
      await requireActiveProduct(productId);
      const offset = query.offset ?? 0;
      const limit = query.limit ?? REVIEW_PAGE_SIZE;
      const page = reviewRows
        .where('r.product_id', '=', productId)
        .$if(query.sort === 'verified', (q) => q.orderBy('verified_buyer', 'desc'))
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id', 'asc')
        .offset(offset)
        .limit(limit);
      const [rows, [stats]] = await Promise.all([
        sql.query(page),
        sql.query(
          qb
            .selectFrom('reviews')
            .select((eb) => [
              eb.cast<number>(eb.fn.countAll(), 'integer').as('count'),
              eb.cast<number>(eb.fn.coalesce(eb.fn.sum('rating'), eb.lit(0)), 'integer').as('sum'),
            ])
            .where('product_id', '=', productId),
        ),
      ]);
      const count = stats?.count ?? 0;
      return {
        total: count,
        offset,
        limit,
        page: Math.floor(offset / limit) + 1,
        pages: Math.ceil(count / limit),
        // Rounded as the product's cards and page round it.
        average: ratingSummary(count, stats?.sum ?? 0).average,
        feedbacks: rows.map(toReview),
      };
    },

    /** The customer's own review of a product, or null: the product page offers to edit it or to write one. */
    async getOwnReview(userId: string, productId: number): Promise<Review | null> {
      await requireActiveProduct(productId);
      const [row] = await sql.query(reviewRows.where('r.product_id', '=', productId).where('r.user_id', '=', userId));
      return row ? toReview(row) : null;
    },

    /**
     * A second review of the same product is a 422 on `productId` (validation.reviewExists) rather
     * than a 409: the form shows it under the field like every other refusal of its input.
     */
    async createReview(userId: string, input: CreateReviewInput): Promise<Review> {
      const product = await requireActiveProduct(input.productId);
      try {
        const review = await db.review.create({
          data: { productId: product.id, userId, rating: input.rating, text: input.text },
          select: { id: true },
        });
        const row = await readReview(review.id);
        if (!row) throw new NotFoundError('Review');
        return toReview(row);
      } catch (error) {
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
          throw ValidationError.field('productId', ErrorKeys.reviewExists, 'You have already reviewed this product.');
        }
        throw error;
      }
    },

    /** The author changes the rating, the text or both; the review keeps its place and date, and says it was edited. */
    async updateReview(
      userId: string,
      id: string,
      input: { rating?: number | undefined; text?: string | undefined },
    ): Promise<Review> {
      if (input.rating === undefined && input.text === undefined) {
        throw ValidationError.field('text', ErrorKeys.requiredField, 'Send a new rating, a new text, or both.');
      }
      await requireOwnReview(userId, id);
      await db.review.updateMany({
        where: { id, userId },
        data: {
          ...(input.rating === undefined ? {} : { rating: input.rating }),
          ...(input.text === undefined ? {} : { text: input.text }),
          editedAt: new Date(),
        },
      });
      const row = await readReview(id);
      if (!row) throw new NotFoundError('Review');
      return toReview(row);
    },

    /** The author takes the review down; the product's rating leaves it out from then on. */
    async deleteReview(userId: string, id: string): Promise<void> {
      await requireOwnReview(userId, id);
      await db.review.deleteMany({ where: { id, userId } });
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
