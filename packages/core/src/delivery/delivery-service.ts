import {
  type OrderDelivery,
  PURCHASED_PAGE_SIZE,
  type PurchasedProduct,
  type PurchasedSearchResponse,
} from '@store/contract';
import type { CodeCipher, OrderStatus, Prisma, PrismaClient } from '@store/db';
import { COMPLETED_STATUSES, statusName, typeName } from '../orders/order-state.ts';
import { NotFoundError } from '../shared/errors.ts';
import { minorToDisplay } from '../shared/money.ts';

/** Who is being shown codes, from where, through which call: kept with every reveal. */
export interface RevealContext {
  ip?: string | undefined;
  route: string;
}

const LINE_SELECT = {
  id: true,
  orderId: true,
  productId: true,
  productName: true,
  quantity: true,
  unitPriceMinor: true,
  order: { select: { paidAt: true, currency: true } },
  product: {
    select: {
      activationInstructions: true,
      coverPath: true,
      coverText: true,
      category: { select: { slug: true } },
      country: { select: { icon: true } },
    },
  },
  codes: { select: { id: true, ciphertext: true }, orderBy: [{ soldAt: 'asc' }, { id: 'asc' }] },
} satisfies Prisma.OrderLineSelect;

type LineRow = Prisma.OrderLineGetPayload<{ select: typeof LINE_SELECT }>;

const DELIVERED = [...COMPLETED_STATUSES] as OrderStatus[];

export interface DeliveryServiceDeps {
  db: PrismaClient;
  cipher: CodeCipher;
}

/**
 * Delivery of bought codes to their owner (SPEC.md section 7: payment-confirm, payment-products and
 * the profile's purchased products). Every query is scoped to the customer, so another customer's
 * order is not found (404) rather than forbidden. Codes are decrypted only here, only for their
 * owner, and each one shown is recorded in `code_reveals` with the customer, the address and the call.
 */
export function createDeliveryService({ db, cipher }: DeliveryServiceDeps) {
  /** The products' activation instructions in the customer's language, where the product has them. */
  async function instructionsInLocale(userId: string, lines: LineRow[]): Promise<Map<number, string>> {
    if (lines.length === 0) return new Map();
    const user = await db.user.findUnique({ where: { id: userId }, select: { locale: true } });
    if (!user) return new Map();
    const rows = await db.productTranslation.findMany({
      where: { locale: user.locale, productId: { in: [...new Set(lines.map((line) => line.productId))] } },
      select: { productId: true, activationInstructions: true },
    });
    return new Map(rows.map((row) => [row.productId, row.activationInstructions]));
  }

  async function reveal(userId: string, lines: LineRow[], context: RevealContext): Promise<PurchasedProduct[]> {
    const shown = lines.flatMap((line) => line.codes.map((code) => code.id));
    if (shown.length > 0) {
      await db.codeReveal.createMany({
        data: shown.map((codeId) => ({ userId, codeId, ip: context.ip?.slice(0, 64) ?? null, route: context.route })),
      });
    }
    const instructions = await instructionsInLocale(userId, lines);
    return lines.map((line) => ({
      line_id: line.id,
      order_id: line.orderId,
      product_id: line.productId,
      name: line.productName,
      category: line.product.category.slug,
      cover_path: line.product.coverPath,
      cover_text: line.product.coverText,
      country_icon: line.product.country.icon,
      quantity: line.quantity,
      delivered: line.codes.length,
      unit_price: minorToDisplay(line.unitPriceMinor),
      unit_price_minor: line.unitPriceMinor,
      currency: line.order.currency,
      activation_instructions: instructions.get(line.productId) ?? line.product.activationInstructions,
      codes: line.codes.map((code) => ({ id: code.id, code: cipher.decrypt(code.ciphertext) })),
      purchased_at: line.order.paidAt?.toISOString() ?? null,
    }));
  }

  return {
    /**
     * GET /payment-confirm/{orderId} and GET /payment-products/{id}: the order with its products,
     * and their codes once it is fulfilled.
     */
    async getOrderDelivery(userId: string, orderId: string, context: RevealContext): Promise<OrderDelivery> {
      const order = await db.order.findFirst({
        where: { id: orderId, userId },
        select: {
          id: true,
          type: true,
          status: true,
          totalMinor: true,
          refundedMinor: true,
          currency: true,
          createdAt: true,
          paidAt: true,
        },
      });
      if (!order) throw new NotFoundError('Order');
      const lines = await db.orderLine.findMany({
        where: { orderId },
        select: LINE_SELECT,
        orderBy: [{ productId: 'asc' }, { id: 'asc' }],
      });
      return {
        ok: true,
        order: {
          id: order.id,
          type: typeName(order.type),
          status: statusName(order.status),
          total: minorToDisplay(order.totalMinor),
          total_minor: order.totalMinor,
          refunded: minorToDisplay(order.refundedMinor),
          refunded_minor: order.refundedMinor,
          currency: order.currency,
          created_at: order.createdAt.toISOString(),
          paid_at: order.paidAt?.toISOString() ?? null,
        },
        products: await reveal(userId, lines, context),
      };
    },

    /**
     * GET /profile/products/purchased/search: the products the customer has codes of, newest
     * purchase first, PURCHASED_PAGE_SIZE a page, searched by name as it was bought.
     */
    async searchPurchased(
      userId: string,
      { page = 1, search }: { page?: number | undefined; search?: string | undefined },
      context: RevealContext,
    ): Promise<PurchasedSearchResponse> {
      const where: Prisma.OrderLineWhereInput = {
        order: { userId, status: { in: DELIVERED } },
        codes: { some: {} },
        ...(search ? { productName: { contains: search, mode: 'insensitive' } } : {}),
      };
      const [total, lines] = await Promise.all([
        db.orderLine.count({ where }),
        db.orderLine.findMany({
          where,
          select: LINE_SELECT,
          orderBy: [{ order: { paidAt: 'desc' } }, { id: 'asc' }],
          skip: (page - 1) * PURCHASED_PAGE_SIZE,
          take: PURCHASED_PAGE_SIZE,
        }),
      ]);
      return {
        products: await reveal(userId, lines, context),
        page,
        pages: Math.ceil(total / PURCHASED_PAGE_SIZE),
        total,
      };
    },
  };
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;
