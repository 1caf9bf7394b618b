import type { PromoResult } from '@store/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { productFixture, userFixture } from '../../test/fixtures.ts';

// The applied code lives in the module and in this tab's session storage: each test loads the
// modules afresh, as a reload of the page does.

async function freshModules() {
  vi.resetModules();
  const session = await import('../../lib/session-store.ts');
  const basket = await import('./basket-store.ts');
  const promo = await import('./promo-store.ts');
  return { session, basket, promo };
}

const WELCOME: PromoResult = {
  code: 'WELCOME10',
  price: 29.9,
  priceWithDiscount: 26.91,
  discount: 10,
  price_minor: 2_990,
  price_with_discount_minor: 2_691,
  discount_minor: 299,
  currency: 'BRL',
  applies_to: [1],
};

afterEach(() => {
  sessionStorage.clear();
});

describe('the applied promo code', () => {
  it('outlives a reload of the page, for the customer who applied it', async () => {
    const before = await freshModules();
    before.session.setSession('tok', userFixture({ id: 'u1' }));
    before.basket.addToBasket(productFixture({ id: 1, price_minor: 2_990 }));
    before.promo.setPromo(WELCOME);
    expect(before.promo.getPromo()?.code).toBe('WELCOME10');

    const after = await freshModules();
    expect(after.promo.getPromo()).toMatchObject({ owner: 'u1', code: 'WELCOME10', discount: 10, appliesTo: [1] });
    expect(after.promo.basketTotals(after.basket.getBasket(), after.promo.getPromo()).discountMinor).toBe(299);

    // Someone else signed in on this tab does not see it.
    after.session.setSession('tok2', userFixture({ id: 'u2' }));
    expect(after.promo.getPromo()).toBeNull();
  });

  it('goes with the basket it was applied to, so it does not come back on the next one', async () => {
    const { session, basket, promo } = await freshModules();
    session.setSession('tok', userFixture({ id: 'u1' }));
    basket.addToBasket(productFixture({ id: 1, price_minor: 2_990 }));
    promo.setPromo(WELCOME);
    basket.clearBasket();
    expect(promo.getPromo()).toBeNull();
    basket.addToBasket(productFixture({ id: 1, price_minor: 2_990 }));
    expect(promo.getPromo()).toBeNull();
    expect((await freshModules()).promo.getPromo()).toBeNull();
  });

  it('ignores what storage holds that is not an applied code', async () => {
    sessionStorage.setItem('applied-promo', JSON.stringify({ owner: 'u1', code: 5 }));
    const { session, promo } = await freshModules();
    session.setSession('tok', userFixture({ id: 'u1' }));
    expect(promo.getPromo()).toBeNull();
  });
});
