import { type PromoResult, promoDiscountMinor } from '@store/contract';
import { useSyncExternalStore } from 'react';
import { subscribeSession } from '../../lib/session-store.ts';
import type { BasketLine } from './basket-store.ts';
import { basketTotalMinor, currentOwner } from './basket-store.ts';

/**
 * The promo code the customer applied (SPEC.md section 4): kept for this page view, in the panel and
 * on the checkout page alike, and only for the customer who applied it. The discount shown is
 * recomputed from the current lines with the contract's rounding, on the lines the server said the
 * code applies to (a product added afterwards shows undiscounted until the code is applied again);
 * the server recomputes it from the server basket when the order is made.
 */
export interface AppliedPromo {
  owner: string;
  code: string;
  /** Percent off the lines in scope. */
  discount: number;
  appliesTo: readonly number[];
}

let applied: AppliedPromo | null = null;
const listeners = new Set<() => void>();

function set(next: AppliedPromo | null) {
  applied = next;
  for (const listener of listeners) listener();
}

/** The applied code, if the customer who applied it is still the one signed in. */
export const getPromo = (): AppliedPromo | null => (applied && applied.owner === currentOwner() ? applied : null);

export function setPromo(result: PromoResult) {
  const owner = currentOwner();
  if (owner === null) return;
  set({ owner, code: result.code, discount: result.discount, appliesTo: result.applies_to });
}

/** Undo: SPEC.md section 4, clears the code and the discount. */
export const clearPromo = () => set(null);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  // Logging out (or in as someone else) hides the code.
  const unsubscribeSession = subscribeSession(listener);
  return () => {
    listeners.delete(listener);
    unsubscribeSession();
  };
};

export const usePromo = () => useSyncExternalStore(subscribe, getPromo, getPromo);

export interface BasketTotals {
  totalMinor: number;
  discountMinor: number;
  payMinor: number;
}

export function basketTotals(lines: readonly BasketLine[], promo: AppliedPromo | null): BasketTotals {
  const totalMinor = basketTotalMinor(lines);
  const discountMinor = promo
    ? promoDiscountMinor(
        lines.map((line) => ({ id: line.id, price_minor: line.price_minor, quantity: line.pivot.quantity })),
        promo.discount,
        promo.appliesTo,
      )
    : 0;
  return { totalMinor, discountMinor, payMinor: totalMinor - discountMinor };
}
