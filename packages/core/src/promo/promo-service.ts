import { ErrorKeys, type PromoRefusal, type PromoResult, promoDiscountMinor, STORE_CURRENCY } from '@store/contract';
import { isUniqueViolation, Prisma, type PrismaClient, type Queryable, qb, type SqlClient } from '@store/db';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { minorToDisplay } from '../shared/money.ts';
import { type PromoRule, readPromoRule } from './promo-sql.ts';

const REFUSAL_MESSAGES: Record<PromoRefusal, string> = {
  unknown: 'There is no such promo code.',
  inactive: 'This promo code is no longer active.',
  not_yet_valid: 'This promo code is not valid yet.',
  expired: 'This promo code has expired.',
  used_up: 'This promo code has been used up.',
  already_used: 'You have already used this promo code.',
  held: 'This promo code is on an order of yours still waiting for its payment: pay that order, or it comes back when the order expires.',
  out_of_scope: 'This promo code does not apply to anything in your basket.',
  empty_basket: 'Your basket is empty.',
};

/** A promo code the rules refused: a 422 on `code` with validation.invalidPromoCode and the reason. */
export class PromoCodeRefusedError extends ValidationError {
  constructor(readonly reason: PromoRefusal) {
    super({ code: [ErrorKeys.invalidPromoCode] }, REFUSAL_MESSAGES[reason], { reason });
  }
}

/** Case and surrounding spaces do not matter; codes are stored upper-cased. */
export function normalizePromoCode(code: string): string {
  return code.trim().toUpperCase();
}

/** A line the discount is computed on: the product, its unit price in minor units, the units. */
export interface PromoLine {
  id: number;
  price_minor: number;
  quantity: number;
}

export interface PromoDiscount {
  promoCodeId: number;
  code: string;
  percent: number;
  subtotalMinor: number;
  discountMinor: number;
  /** Product ids of the lines the discount applies to. */
  appliesTo: number[];
}

export interface RedeemPromoCodeInput {
  code: string;
  userId: string;
  /** The order that uses the code; a redemption belongs to exactly one order. */
  orderId: string;
  /** The order's lines, at the prices the order charges. */
  lines: PromoLine[];
}

export interface NewPromoCode {
  code: string;
  percent: number;
  validFrom?: Date | undefined;
  validUntil?: Date | undefined;
  maxUses?: number | undefined;
  /** Category slugs; with `productIds`, the scope. Neither: the whole basket. */
  categories?: string[] | undefined;
  productIds?: number[] | undefined;
}

export interface PromoCodeView {
  code: string;
  percent: number;
  validFrom: Date | null;
  validUntil: Date | null;
  maxUses: number | null;
  usedCount: number;
  isActive: boolean;
  /** What a customer trying it now would meet: `usable`, or the rule that refuses it. */
  status: 'usable' | 'inactive' | 'not_yet_valid' | 'expired' | 'used_up';
  categories: string[];
  productIds: number[];
  createdAt: Date;
}

export interface PromoServiceDeps {
  db: PrismaClient;
  sql: SqlClient;
  clock?: () => Date;
}

const PROMO_INCLUDE = {
  categories: { select: { categoryId: true, category: { select: { slug: true } } } },
  products: { select: { productId: true } },
} satisfies Prisma.PromoCodeInclude;

type PromoWithScope = Prisma.PromoCodeGetPayload<{ include: typeof PROMO_INCLUDE }>;

/** The rule a code breaks at `now` on its own, before the customer and the basket are looked at. */
export function codeStatus(
  promo: Pick<PromoRule, 'isActive' | 'validFrom' | 'validUntil' | 'maxUses' | 'usedCount'>,
  now: Date,
): PromoCodeView['status'] {
  if (!promo.isActive) return 'inactive';
  if (promo.validFrom && now < promo.validFrom) return 'not_yet_valid';
  if (promo.validUntil && now >= promo.validUntil) return 'expired';
  if (promo.maxUses !== null && promo.usedCount >= promo.maxUses) return 'used_up';
  return 'usable';
}

/**
 * Promo codes: a percent off the lines in the code's scope, within a validity window, a total
 * number of uses and one use per customer. The answer to a shopper (`quoteBasket`) is computed from
 * the server basket; the order (`redeemPromoCode`, called in the order's transaction) recomputes it
 * from the order's lines with the code's row locked, so that the last use of a limited code goes to
 * exactly one order.
 */
export function createPromoService({ db, sql, clock = () => new Date() }: PromoServiceDeps) {
  async function findPromo(tx: Prisma.TransactionClient, code: string): Promise<PromoWithScope | null> {
    return tx.promoCode.findUnique({ where: { code: normalizePromoCode(code) }, include: PROMO_INCLUDE });
  }

  /** Applies every rule to the code as read for `userId`; answers the discount on `lines` or throws the refusal. */
  async function evaluate(tx: Queryable, promo: PromoRule | undefined, lines: PromoLine[]): Promise<PromoDiscount> {
    if (!promo) throw new PromoCodeRefusedError('unknown');
    const status = codeStatus(promo, clock());
    if (status !== 'usable') throw new PromoCodeRefusedError(status);
    // A use held by an order given up (no payment deciding on it) goes to the customer's next order:
    // the order service cancels that one before it redeems the code again.
    if (promo.customerUse === 'held') throw new PromoCodeRefusedError('held');
    if (promo.customerUse === 'used') throw new PromoCodeRefusedError('already_used');
    if (lines.length === 0) throw new PromoCodeRefusedError('empty_basket');

    const appliesTo = await linesInScope(tx, promo, lines);
    if (appliesTo.length === 0) throw new PromoCodeRefusedError('out_of_scope');
    return {
      promoCodeId: promo.id,
      code: promo.code,
      percent: promo.discountPercent,
      subtotalMinor: lines.reduce((sum, line) => sum + line.price_minor * line.quantity, 0),
      discountMinor: promoDiscountMinor(lines, promo.discountPercent, appliesTo),
      appliesTo,
    };
  }

  async function linesInScope(tx: Queryable, promo: PromoRule, lines: PromoLine[]) {
    const ids = lines.map((line) => line.id);
    if (promo.categoryIds.length === 0 && promo.productIds.length === 0) return ids;
    const products = new Set(promo.productIds);
    const categories = new Set(promo.categoryIds);
    const categoryOf = new Map(
      (
        await tx.query(
          qb
            .selectFrom('products')
            .select(['id', 'category_id as categoryId'])
            .where((eb) => eb('id', '=', eb.fn.any(eb.val(ids)))),
        )
      ).map((product) => [product.id, product.categoryId]),
    );
    return ids.filter((id) => products.has(id) || categories.has(categoryOf.get(id) ?? -1));
  }

  function toView(promo: PromoWithScope): PromoCodeView {
    return {
      code: promo.code,
      percent: promo.discountPercent,
      validFrom: promo.validFrom,
      validUntil: promo.validUntil,
      maxUses: promo.maxUses,
      usedCount: promo.usedCount,
      isActive: promo.isActive,
      status: codeStatus(promo, clock()),
      categories: promo.categories.map((scope) => scope.category.slug).sort(),
      productIds: promo.products.map((scope) => scope.productId).sort((a, b) => a - b),
      createdAt: promo.createdAt,
    };
  }

  return {
    /**
     * POST /promocode: what the code takes off the customer's server basket now. Nothing is
     * reserved: the order redeems the code and computes the discount again.
     */
    async quoteBasket(userId: string, code: string): Promise<PromoResult> {
      const basket = await db.basketLine.findMany({
        where: { userId, product: { isActive: true } },
        select: { quantity: true, product: { select: { id: true, priceMinor: true } } },
        orderBy: [{ position: 'asc' }, { productId: 'asc' }],
      });
      const lines = basket.map(({ quantity, product }) => ({
        id: product.id,
        price_minor: product.priceMinor,
        quantity,
      }));
      const discount = await evaluate(sql, await readPromoRule(sql, normalizePromoCode(code), userId), lines);
      const withDiscount = discount.subtotalMinor - discount.discountMinor;
      return {
        code: discount.code,
        price: minorToDisplay(discount.subtotalMinor),
        priceWithDiscount: minorToDisplay(withDiscount),
        discount: discount.percent,
        price_minor: discount.subtotalMinor,
        price_with_discount_minor: withDiscount,
        discount_minor: discount.discountMinor,
        currency: STORE_CURRENCY,
        applies_to: discount.appliesTo,
      };
    },

    /**
     * Uses the code for an order, inside the order's transaction `tx`: locks the code's row, checks
     * every rule again, records the redemption and counts the use. Concurrent orders using the
     * last use of a code queue on the lock; the ones after the first find it used up. Throws
     * PromoCodeRefusedError, which rolls the order back with it.
     */
    async redeemPromoCode(tx: Queryable, input: RedeemPromoCodeInput): Promise<PromoDiscount> {
      const promo = await readPromoRule(tx, normalizePromoCode(input.code), input.userId, { lock: true });
      const discount = await evaluate(tx, promo, input.lines);
      try {
        await tx.execute(
          qb
            .with('used', (db) =>
              db
                .insertInto('promo_redemptions')
                .values((eb) => ({
                  id: eb.fn<string>('gen_random_uuid'),
                  promo_code_id: discount.promoCodeId,
                  user_id: input.userId,
                  order_id: input.orderId,
                }))
                .returning('promo_code_id'),
            )
            .updateTable('promo_codes')
            .set((eb) => ({ used_count: eb('used_count', '+', eb.lit(1)) }))
            .where((eb) => eb('id', '=', eb.selectFrom('used').select('promo_code_id'))),
        );
      } catch (error) {
        // The customer's other order redeemed it while this one waited for the code's lock (the
        // rule was read before that order committed): one use per customer, by the unique index.
        // That order was made a moment ago, so it is still waiting for its payment.
        if (isUniqueViolation(error)) throw new PromoCodeRefusedError('held');
        throw error;
      }
      return discount;
    },

    /** For the operator: a new code. Unknown categories or products, or a taken code, are a 422. */
    async createPromoCode(input: NewPromoCode): Promise<PromoCodeView> {
      const code = normalizePromoCode(input.code);
      const slugs = [...new Set(input.categories ?? [])];
      const productIds = [...new Set(input.productIds ?? [])];
      const [categories, products, existing] = await Promise.all([
        db.category.findMany({ where: { slug: { in: slugs } }, select: { id: true, slug: true } }),
        db.product.findMany({ where: { id: { in: productIds } }, select: { id: true } }),
        db.promoCode.findUnique({ where: { code }, select: { id: true } }),
      ]);
      const problems: string[] = [];
      const errors: Record<string, string[]> = {};
      const unknownSlugs = slugs.filter((slug) => !categories.some((category) => category.slug === slug));
      if (unknownSlugs.length > 0) {
        errors.categories = [ErrorKeys.invalidValue];
        problems.push(`no category ${unknownSlugs.join(', ')}`);
      }
      const unknownIds = productIds.filter((id) => !products.some((product) => product.id === id));
      if (unknownIds.length > 0) {
        errors.products = [ErrorKeys.invalidValue];
        problems.push(`no product ${unknownIds.join(', ')}`);
      }
      if (existing) {
        errors.code = [ErrorKeys.duplicateValue];
        problems.push(`the code ${code} exists already`);
      }
      if (problems.length > 0) throw new ValidationError(errors, `${problems.join('; ')}.`);

      try {
        const created = await db.promoCode.create({
          data: {
            code,
            discountPercent: input.percent,
            validFrom: input.validFrom ?? null,
            validUntil: input.validUntil ?? null,
            maxUses: input.maxUses ?? null,
            categories: { create: categories.map((category) => ({ categoryId: category.id })) },
            products: { create: products.map((product) => ({ productId: product.id })) },
          },
          include: PROMO_INCLUDE,
        });
        return toView(created);
      } catch (error) {
        // Another operator created the same code between the check and the insert.
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
          throw new ValidationError({ code: [ErrorKeys.duplicateValue] }, `the code ${code} exists already.`);
        }
        throw error;
      }
    },

    async listPromoCodes(): Promise<PromoCodeView[]> {
      const codes = await db.promoCode.findMany({ include: PROMO_INCLUDE, orderBy: { code: 'asc' } });
      return codes.map(toView);
    },

    /** Stops a code from being used from now on; redemptions already made stay. */
    async deactivatePromoCode(code: string): Promise<PromoCodeView> {
      const promo = await findPromo(db, code);
      if (!promo) throw new NotFoundError('Promo code');
      if (!promo.isActive) return toView(promo);
      return toView(
        await db.promoCode.update({ where: { id: promo.id }, data: { isActive: false }, include: PROMO_INCLUDE }),
      );
    },
  };
}

export type PromoService = ReturnType<typeof createPromoService>;
