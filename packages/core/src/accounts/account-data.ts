import { ACCOUNT_EXPORT_FORMAT, type AccountExport } from '@store/contract';
import { int8ToNumber, type Prisma, type PrismaClient, prismaQueryable, qb, type User as UserRow } from '@store/db';
import { openPayments } from '../payments/payment-deciding.ts';
import { ConflictError } from '../shared/errors.ts';

/**
 * What the store holds about a customer, and its erasure (docs/privacy.md). Both go by the same
 * rules for what is theirs: rows that name the account, and rows that name an address of theirs (the
 * outbox, back-in-stock requests), which are the account's current address and the earlier ones its
 * links were mailed to, unless another account has that address now.
 */

/** The address a deleted account keeps: unique, and in `.invalid` (RFC 2606), which no mail reaches. */
export const deletedAddress = (userId: string) => `deleted-${userId}@deleted.invalid`;

/** True for the placeholder address of a deleted account: nothing is ever sent to it. */
export const isDeletedAddress = (address: string) => address.endsWith('@deleted.invalid');

/** What a deleted account's name becomes: the books still need the row, not who it was. */
export const DELETED_NAME = 'deleted';

/** Never a hash argon2 can parse, so no password verifies against it. */
const NO_PASSWORD = '!';

/** Conflict codes of DELETE /profile (docs/api.md): what must end before an account can go. */
export const ACCOUNT_DELETE_CONFLICTS = {
  paymentDeciding: 'payment_deciding',
  owes: 'balance_owed',
} as const;

type Tx = Prisma.TransactionClient | PrismaClient;

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/** The addresses whose mail and requests are the customer's (see the top of this file). */
async function addressesOf(tx: Tx, user: UserRow): Promise<string[]> {
  const tokens = await tx.emailToken.findMany({ where: { userId: user.id }, select: { payload: true } });
  const earlier = new Set<string>();
  for (const { payload } of tokens) {
    if (payload && typeof payload === 'object' && !Array.isArray(payload) && typeof payload.email === 'string') {
      earlier.add(payload.email);
    }
  }
  earlier.delete(user.email);
  const heldByOthers = await tx.user.findMany({ where: { email: { in: [...earlier] } }, select: { email: true } });
  for (const { email } of heldByOthers) earlier.delete(email);
  return [user.email, ...earlier];
}

/** Every link in an email's data is left out: one not sent yet still works. */
function withoutLinks(data: Prisma.JsonValue): Record<string, unknown> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
  return Object.fromEntries(Object.entries(data).filter(([key]) => key !== 'link'));
}

/** GET /profile/export: every row the store holds about the customer, in the contract's shape. */
export async function exportAccountData(db: PrismaClient, user: UserRow, now: Date): Promise<AccountExport> {
  const userId = user.id;
  const addresses = await addressesOf(db, user);
  const [orders, payments, ledger, reviews, sessions, emails, stockNotifications, promoUses, codeViews] =
    await Promise.all([
      db.order.findMany({
        where: { userId },
        orderBy: { createdAt: 'asc' },
        include: {
          promoCode: { select: { code: true } },
          lines: { include: { _count: { select: { codes: { where: { status: 'SOLD' } } } } } },
        },
      }),
      db.payment.findMany({ where: { order: { userId } }, orderBy: { createdAt: 'asc' } }),
      db.ledgerEntry.findMany({
        where: { userId },
        orderBy: { createdAt: 'asc' },
        include: { transfer: { select: { kind: true, orderId: true } } },
      }),
      db.review.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } }),
      db.session.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } }),
      db.outboundEmail.findMany({ where: { toAddress: { in: addresses } }, orderBy: { createdAt: 'asc' } }),
      db.stockNotification.findMany({ where: { email: { in: addresses } }, orderBy: { createdAt: 'asc' } }),
      db.promoRedemption.findMany({
        where: { userId },
        orderBy: { createdAt: 'asc' },
        include: { promoCode: { select: { code: true } } },
      }),
      db.codeReveal.findMany({
        where: { userId },
        orderBy: { createdAt: 'asc' },
        include: { code: { select: { productId: true } } },
      }),
    ]);
  return {
    format: ACCOUNT_EXPORT_FORMAT,
    exported_at: now.toISOString(),
    profile: {
      id: user.id,
      email: user.email,
      name: user.name,
      locale: user.locale,
      email_verified_at: iso(user.emailVerifiedAt),
      activated_at: iso(user.activatedAt),
      created_at: user.createdAt.toISOString(),
      balance_minor: int8ToNumber(user.balanceMinor),
      owed_minor: int8ToNumber(user.owedMinor),
    },
    orders: orders.map((order) => ({
      id: order.id,
      type: order.type.toLowerCase(),
      status: order.status.toLowerCase(),
      currency: order.currency,
      subtotal_minor: int8ToNumber(order.subtotalMinor),
      discount_minor: int8ToNumber(order.discountMinor),
      total_minor: int8ToNumber(order.totalMinor),
      refunded_minor: int8ToNumber(order.refundedMinor),
      promo_code: order.promoCode?.code ?? null,
      created_at: order.createdAt.toISOString(),
      paid_at: iso(order.paidAt),
      fulfilled_at: iso(order.fulfilledAt),
      lines: order.lines.map((line) => ({
        product_id: line.productId,
        product_name: line.productName,
        quantity: line.quantity,
        unit_price_minor: line.unitPriceMinor,
        discount_minor: line.discountMinor,
        codes_delivered: line._count.codes,
      })),
    })),
    payments: payments.map((payment) => ({
      id: payment.id,
      order_id: payment.orderId,
      provider: payment.provider,
      method: payment.method.toLowerCase(),
      status: payment.status.toLowerCase(),
      amount_minor: int8ToNumber(payment.amountMinor),
      currency: payment.currency,
      refunded_minor: int8ToNumber(payment.refundedMinor),
      charged_back_minor: int8ToNumber(payment.chargedBackMinor),
      card_brand: payment.cardBrand,
      card_last4: payment.cardLast4,
      failure_reason: payment.failureReason,
      created_at: payment.createdAt.toISOString(),
    })),
    ledger: ledger.map((entry) => ({
      transfer_id: entry.transferId,
      kind: entry.transfer.kind.toLowerCase(),
      account: entry.account.toLowerCase(),
      amount_minor: int8ToNumber(entry.amountMinor),
      order_id: entry.transfer.orderId,
      created_at: entry.createdAt.toISOString(),
    })),
    reviews: reviews.map((review) => ({
      id: review.id,
      product_id: review.productId,
      rating: review.rating,
      text: review.text,
      created_at: review.createdAt.toISOString(),
      edited_at: iso(review.editedAt),
    })),
    sessions: sessions.map((session) => ({
      id: session.id,
      user_agent: session.userAgent,
      ip: session.ip,
      created_at: session.createdAt.toISOString(),
      last_seen_at: session.lastSeenAt.toISOString(),
      expires_at: session.expiresAt.toISOString(),
      revoked_at: iso(session.revokedAt),
    })),
    emails: emails.map((email) => ({
      id: email.id,
      to: email.toAddress,
      template: email.template,
      locale: email.locale,
      status: email.status.toLowerCase(),
      created_at: email.createdAt.toISOString(),
      sent_at: iso(email.sentAt),
      data: withoutLinks(email.data),
    })),
    stock_notifications: stockNotifications.map((request) => ({
      product_id: request.productId,
      email: request.email,
      locale: request.locale,
      created_at: request.createdAt.toISOString(),
      confirmed_at: iso(request.confirmedAt),
      notified_at: iso(request.notifiedAt),
    })),
    promo_uses: promoUses.map((use) => ({
      code: use.promoCode.code,
      order_id: use.orderId,
      created_at: use.createdAt.toISOString(),
    })),
    code_views: codeViews.map((view) => ({
      product_id: view.code.productId,
      route: view.route,
      ip: view.ip,
      created_at: view.createdAt.toISOString(),
    })),
  };
}

/** What an erasure did, for its audit record: counts only, nothing personal. */
export interface ErasureCounts {
  orders_kept: number;
  ledger_entries_kept: number;
  balance_minor_kept: number;
  reviews_deleted: number;
  sessions_ended: number;
  emails_erased: number;
  stock_notifications_deleted: number;
}

/**
 * Refuses while the account cannot go: a payment of one of its orders may still bring money or is
 * being decided (the order would be paid for an account that no longer exists), an order is paid
 * and on its way to delivery, or the customer owes the store. Run in the erasure's transaction,
 * with the customer's row locked.
 */
async function assertErasable(tx: Prisma.TransactionClient, user: UserRow): Promise<void> {
  if (int8ToNumber(user.owedMinor) > 0) {
    throw new ConflictError(
      'You owe the store for a refunded top-up you had spent: pay it with a top-up before deleting the account.',
      ACCOUNT_DELETE_CONFLICTS.owes,
    );
  }
  const [deciding] = await prismaQueryable(tx).query(
    qb
      .selectFrom('orders as o')
      .select('o.id')
      .where('o.user_id', '=', user.id)
      .where('o.status', 'in', ['CREATED', 'PENDING', 'PAID'])
      .where((eb) => eb.or([eb('o.status', '=', 'PAID'), eb.exists(openPayments(eb.ref('o.id')))]))
      .limit(1),
  );
  if (deciding) {
    throw new ConflictError(
      'A payment of one of your orders is still being decided: wait until it succeeds or fails, then delete the account.',
      ACCOUNT_DELETE_CONFLICTS.paymentDeciding,
    );
  }
}

/**
 * Erases the customer's personal data in the caller's transaction and records that it happened
 * (docs/privacy.md, "Deleting an account"). The row stays, anonymised, because orders, payments and
 * the ledger name it and the books must not change: its address becomes a placeholder no mail
 * reaches and no login matches, its password one that verifies nothing, its name a placeholder.
 * Their reviews are deleted (their words, under their name); their sessions, links, basket and
 * back-in-stock requests too; the outbox keeps that an email was sent, not to whom nor what it said;
 * the codes they were shown keep when and through which call, not from where.
 */
export async function eraseAccount(tx: Prisma.TransactionClient, userId: string, now: Date): Promise<ErasureCounts> {
  await prismaQueryable(tx).query(qb.selectFrom('users').select('id').where('id', '=', userId).forUpdate());
  const user = await tx.user.findUniqueOrThrow({ where: { id: userId } });
  await assertErasable(tx, user);
  const addresses = await addressesOf(tx, user);
  const placeholder = deletedAddress(userId);

  const emails = await tx.outboundEmail.updateMany({
    where: { toAddress: { in: addresses } },
    data: { toAddress: placeholder, data: {} },
  });
  // What was still waiting is never sent: the address it named is gone.
  await tx.outboundEmail.updateMany({
    where: { toAddress: placeholder, status: 'PENDING' },
    data: { status: 'FAILED', lastError: 'the account was deleted', lockedUntil: null },
  });
  const stock = await tx.stockNotification.deleteMany({ where: { email: { in: addresses } } });
  const reviews = await tx.review.deleteMany({ where: { userId } });
  // Deleting a session tells every instance at once (the sessions table's trigger).
  const sessions = await tx.session.deleteMany({ where: { userId } });
  await tx.emailToken.deleteMany({ where: { userId } });
  await tx.basketLine.deleteMany({ where: { userId } });
  await tx.basketRequest.deleteMany({ where: { userId } });
  await tx.codeReveal.updateMany({ where: { userId }, data: { ip: null } });
  await tx.user.update({
    where: { id: userId },
    data: {
      email: placeholder,
      name: DELETED_NAME,
      passwordHash: NO_PASSWORD,
      emailVerifiedAt: null,
      activatedAt: null,
      deletedAt: now,
    },
  });
  const counts: ErasureCounts = {
    orders_kept: await tx.order.count({ where: { userId } }),
    ledger_entries_kept: await tx.ledgerEntry.count({ where: { userId } }),
    balance_minor_kept: int8ToNumber(user.balanceMinor),
    reviews_deleted: reviews.count,
    sessions_ended: sessions.count,
    emails_erased: emails.count,
    stock_notifications_deleted: stock.count,
  };
  await tx.accountEvent.create({
    data: { userId, actor: 'customer', kind: 'deleted', detail: { ...counts }, createdAt: now },
  });
  return counts;
}
