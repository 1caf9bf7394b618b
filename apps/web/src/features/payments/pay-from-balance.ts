import { ErrorKeys, USER_REFRESH_AFTER_SPEND_MS } from '@store/contract';
import { ApiError } from '../../lib/api-client.ts';
import { getSession } from '../../lib/session-store.ts';
import { refreshSession } from '../auth/api/get-user.ts';
import { getBasket } from '../basket/basket-store.ts';
import { flushBasket, refreshBasket } from '../basket/basket-sync.ts';
import { basketTotals, clearPromo, getPromo } from '../basket/promo-store.ts';
import { createOrder } from './api/create-order.ts';
import { spendBalance } from './api/spend-balance.ts';
import { openPaymentDialog } from './payment-ui-store.ts';
import { reportPurchaseOnce } from './purchase-analytics.ts';

const balanceRefused = (error: unknown, key: string) =>
  error instanceof ApiError && (error.fieldErrors.balance ?? []).includes(key);

/**
 * Paying from the balance (docs/orders.md, "Paying from the balance"): a balance below the basket's
 * total opens the insufficient-funds modal; otherwise the order is made (`?type=spending`, with the
 * applied promo code) and paid from the balance, the basket reloaded, the user refreshed a little later
 * (the balance shown in the header and profile), and the success modal shown. The server checks the
 * balance again, so a balance spent in another tab meanwhile also ends in the insufficient-funds modal.
 * An account that owes the store (`owed_minor`: a top-up given back after it was spent) is refused any
 * spend until a top-up has paid the debt: the same modal, saying so, whose top-up covers the debt and
 * the order. Anything else ends in the payment error modal.
 */
export async function payFromBalance(): Promise<void> {
  const lines = getBasket();
  const promo = getPromo();
  const { payMinor } = basketTotals(lines, promo);
  const user = getSession().user;
  const balanceMinor = user?.balance_minor ?? 0;
  const owedMinor = user?.owed_minor ?? 0;
  const shortMinor = Math.max(payMinor - balanceMinor, 0);
  // As the server decides: an order with nothing to pay is made even while the account owes.
  if (owedMinor > 0 && payMinor > 0) {
    openPaymentDialog({ kind: 'insufficient', shortMinor, owedMinor });
    return;
  }
  if (shortMinor > 0) {
    openPaymentDialog({ kind: 'insufficient', shortMinor });
    return;
  }
  openPaymentDialog({ kind: 'processing' });
  try {
    // The order is made from the server basket: what this device still has queued goes first.
    if (!(await flushBasket())) throw new Error('The basket could not be saved');
    const order = await createOrder({ type: 'spending', code: promo?.code }, { spending: true });
    // A promo code that leaves nothing to pay completes the order when it is made.
    if (order.status !== 'fulfilled') await spendBalance(order.order_id);
    reportPurchaseOnce(
      { id: order.order_id, value: order.total_minor / 100, currency: order.currency, coupon: promo?.code },
      lines.map((line) => ({
        id: line.id,
        name: line.name,
        category: line.category,
        price: line.price,
        quantity: line.pivot.quantity,
      })),
    );
    clearPromo();
    await refreshBasket();
    setTimeout(() => void refreshSession(), USER_REFRESH_AFTER_SPEND_MS);
    openPaymentDialog({ kind: 'success', orderId: order.order_id });
  } catch (error) {
    if (balanceRefused(error, ErrorKeys.balanceOwed)) {
      // The refusal does not say how much is owed: the user, read again, does (0 if it cannot be read).
      await refreshSession();
      const fresh = getSession().user;
      openPaymentDialog({
        kind: 'insufficient',
        shortMinor: Math.max(payMinor - (fresh?.balance_minor ?? balanceMinor), 0),
        owedMinor: fresh?.owed_minor ?? 0,
      });
      return;
    }
    if (balanceRefused(error, ErrorKeys.insufficientFunds)) {
      void refreshSession();
      openPaymentDialog({ kind: 'insufficient', shortMinor });
      return;
    }
    openPaymentDialog({ kind: 'error' });
  }
}
