import { qb } from '@store/db';
import type { SqlExpression } from './typed-sql.ts';

/**
 * The one rule for where an order's payments stand: every path that asks "is a payment of this order
 * still deciding?" asks here. Two questions, one inside the other:
 *
 * - settling: the provider has said it succeeded, or is deciding it now (3-D Secure, a card request
 *   still on its way). No new attempt of the order starts while one is: it would be a second charge.
 * - open: settling, or waiting at the provider for the payer (a QR or UPI payment shown, a hosted
 *   page opened). It may still bring money for the order, so the order keeps its promo code and is not
 *   failed by another payment failing; a new attempt may start (the customer changed method), and
 *   should both be paid, the second goes back to its card.
 *
 * Each question is a query of the order's payments in that state, asked with `eb.exists(...)`:
 *
 *     qb.selectFrom('orders as o').select((eb) => eb.not(eb.exists(openPayments(eb.ref('o.id')))).as('idle'))
 */

/**
 * A card attempt waits this long for the provider's answer before it is taken for lost: a callback
 * may arrive before that answer and is matched to the one attempt in flight.
 */
export const CARD_ATTEMPT_WINDOW_MS = 60_000;

/** An order's id: a value, or an expression (the id column of the order a caller's query reads). */
export type OrderIdOperand = string | SqlExpression<string>;

/**
 * The order's payments (but `except`, when given) that are settling, or open: one row (`one`) each.
 * `now`: the time a card attempt's window is measured from (the caller's clock), else the database's.
 */
function paymentsIn(state: 'settling' | 'open', orderId: OrderIdOperand, except?: string, now?: Date) {
  return qb
    .selectFrom('payments as p')
    .select((eb) => eb.lit(1).as('one'))
    .where('p.order_id', '=', orderId)
    .$if(except !== undefined, (query) => query.where('p.id', 'is distinct from', except as string))
    .where((eb) => {
      const from = now === undefined ? eb.fn<Date>('now') : eb.cast<Date>(eb.val(now), 'timestamptz');
      // make_interval(years, months, weeks, days, hours, mins, secs): the window, in seconds. Kysely
      // types both sides of a subtraction alike, so the interval is typed as the time it is taken from.
      const window = eb.fn<Date>('make_interval', [
        ...[0, 0, 0, 0, 0, 0].map((zero) => eb.lit(zero)),
        eb.val(CARD_ATTEMPT_WINDOW_MS / 1000),
      ]);
      const inFlight = eb.and([
        eb('p.status', '=', 'INIT'),
        eb('p.method', '=', 'CARD'),
        eb('p.provider_payment_id', 'is', null),
        eb('p.created_at', '>', eb(from, '-', window)),
      ]);
      const settling = eb.or([eb('p.status', 'in', ['PENDING', 'SUCCEEDED']), inFlight]);
      if (state === 'settling') return settling;
      return eb.or([settling, eb.and([eb('p.status', '=', 'INIT'), eb('p.provider_payment_id', 'is not', null)])]);
    });
}

/**
 * The order's payments that are open (but `except`, when given), a card attempt's window measured by
 * the database's clock: none is `eb.not(eb.exists(openPayments(...)))`.
 */
export function openPayments(orderId: OrderIdOperand, except?: string) {
  return paymentsIn('open', orderId, except);
}

/** The order's payments that are settling, a card attempt's window measured from `now`. */
export function settlingPayments(orderId: OrderIdOperand, now: Date) {
  return paymentsIn('settling', orderId, undefined, now);
}
