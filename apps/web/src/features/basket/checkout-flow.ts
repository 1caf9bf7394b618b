import { STORE_CURRENCY } from '@store/contract';
import { pushAnalytics } from '../../lib/analytics.ts';
import { getToken } from '../../lib/session-store.ts';
import { getAccountUi, openAuth, subscribeAccountUi } from '../auth/account-ui-store.ts';
import { CHECKOUT_PATH } from '../checkout/paths.ts';
import { type BasketLine, getBasket } from './basket-store.ts';
import { flushBasket } from './basket-sync.ts';
import { basketTotals, getPromo } from './promo-store.ts';

/** Checkout is one of the analytics events, in GA4's begin_checkout shape. */
function reportBeginCheckout(lines: readonly BasketLine[]) {
  const promo = getPromo();
  const { payMinor } = basketTotals(lines, promo);
  // GA4's advice: clear the previous ecommerce object so its items do not leak into this event.
  pushAnalytics({ ecommerce: null });
  pushAnalytics({
    event: 'begin_checkout',
    ecommerce: {
      currency: STORE_CURRENCY,
      value: payMinor / 100,
      ...(promo ? { coupon: promo.code } : {}),
      items: lines.map((line) => ({
        item_id: String(line.id),
        item_name: line.name,
        item_category: line.category,
        price: line.price,
        quantity: line.pivot.quantity,
      })),
    },
  });
}

/**
 * After the auth modal opened for checkout: once the account dialogs are closed, a visitor who is
 * now signed in (by login, or by registration with its success notice still showing) goes on to the
 * checkout; one who gave up stays where they were.
 */
function continueAfterLogin(go: (path: string) => void) {
  const unsubscribe = subscribeAccountUi(() => {
    const ui = getAccountUi();
    if (ui.auth || ui.resetRequest) return;
    unsubscribe();
    if (getToken()) void checkoutFromBasket(go);
  });
}

/**
 * Checkout from the basket: a customer's queued changes are sent first, so the checkout reads the
 * basket they see, then the app goes to /checkout; a guest gets the auth modal and, once logged in, the
 * same. Resolves false when the basket could not be sent.
 */
export async function checkoutFromBasket(go: (path: string) => void): Promise<boolean> {
  if (!getToken()) {
    openAuth('login', { stay: true });
    continueAfterLogin(go);
    return true;
  }
  if (!(await flushBasket())) return false;
  reportBeginCheckout(getBasket());
  go(CHECKOUT_PATH);
  return true;
}
