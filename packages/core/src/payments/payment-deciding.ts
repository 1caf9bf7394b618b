import { Prisma } from '@store/db';

/**
 * The one rule for where an order's payments stand, in SQL over a `payments` row alias: every path
 * that asks "is a payment of this order still deciding?" asks here. Two questions, one inside the
 * other:
 *
 * - settling: the provider has said it succeeded, or is deciding it now (3-D Secure, a card request
 *   still on its way). No new attempt of the order starts while one is: it would be a second charge.
 * - open: settling, or waiting at the provider for the payer (a QR or UPI payment shown, a hosted
 *   page opened). It may still bring money for the order, so the order keeps its promo code and is not
 *   failed by another payment failing; a new attempt may start (the customer changed method), and
 *   should both be paid, the second goes back to its card.
 */

/**
 * A card attempt waits this long for the provider's answer before it is taken for lost: a callback
 * may arrive before that answer and is matched to the one attempt in flight.
 */
export const CARD_ATTEMPT_WINDOW_MS = 60_000;

/** `now`: the time the window is measured from (the caller's clock, or the database's). */
const inFlight = (p: Prisma.Sql, now: Prisma.Sql) => Prisma.sql`(${p}.status = 'INIT' AND ${p}.method = 'CARD'
  AND ${p}.provider_payment_id IS NULL
  AND ${p}.created_at > ${now} - make_interval(secs => ${CARD_ATTEMPT_WINDOW_MS / 1000}))`;

const DATABASE_NOW = Prisma.sql`now()`;

/** Succeeded, or being decided by the provider now: a new attempt of the order waits. */
export function paymentSettling(p: Prisma.Sql, now = DATABASE_NOW): Prisma.Sql {
  return Prisma.sql`(${p}.status IN ('PENDING', 'SUCCEEDED') OR ${inFlight(p, now)})`;
}

/** Settling, or waiting at the provider for the payer: it may still bring money for the order. */
export function paymentOpen(p: Prisma.Sql, now = DATABASE_NOW): Prisma.Sql {
  return Prisma.sql`(${paymentSettling(p, now)} OR (${p}.status = 'INIT' AND ${p}.provider_payment_id IS NOT NULL))`;
}

/** True of an order none of whose payments (but `except`) is open; `orderId`: an SQL expression of its id. */
export function noPaymentOpen(orderId: Prisma.Sql, except: Prisma.Sql = Prisma.sql`NULL::uuid`): Prisma.Sql {
  return Prisma.sql`NOT EXISTS (
    SELECT 1 FROM payments p
    WHERE p.order_id = ${orderId} AND p.id IS DISTINCT FROM ${except} AND ${paymentOpen(Prisma.sql`p`)})`;
}

/** True of an order one of whose payments is settling. */
export function anyPaymentSettling(orderId: Prisma.Sql, now = DATABASE_NOW): Prisma.Sql {
  return Prisma.sql`EXISTS (
    SELECT 1 FROM payments p WHERE p.order_id = ${orderId} AND ${paymentSettling(Prisma.sql`p`, now)})`;
}
