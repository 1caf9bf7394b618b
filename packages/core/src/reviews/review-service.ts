import { ErrorKeys, type Review } from '@store/contract';
import { Prisma, type PrismaClient } from '@store/db';
import { NotFoundError, ValidationError } from '../shared/errors.ts';

export interface ReviewServiceDeps {
  db: PrismaClient;
}

export interface CreateReviewInput {
  productId: number;
  rating: number;
  text: string;
}

/**
 * Product reviews by signed-in customers, one per customer and product (a unique constraint). The
 * catalogue reads reviews and ratings straight from the table, never from its caches, so a new review
 * shows at once without invalidating anything.
 */
export function createReviewService({ db }: ReviewServiceDeps) {
  return {
    /**
     * A second review of the same product is a 422 on `productId` (validation.reviewExists) rather
     * than a 409: the form shows it under the field like every other refusal of its input.
     */
    async createReview(userId: string, input: CreateReviewInput): Promise<Review> {
      const product = await db.product.findFirst({
        where: { id: input.productId, isActive: true },
        select: { id: true },
      });
      if (!product) throw new NotFoundError('Product');
      try {
        const review = await db.review.create({
          data: { productId: product.id, userId, rating: input.rating, text: input.text },
          include: { user: { select: { name: true } } },
        });
        return {
          id: review.id,
          rating: review.rating,
          text: review.text,
          author: review.user.name,
          created_at: review.createdAt.toISOString(),
        };
      } catch (error) {
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
          throw ValidationError.field('productId', ErrorKeys.reviewExists, 'You have already reviewed this product.');
        }
        throw error;
      }
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
