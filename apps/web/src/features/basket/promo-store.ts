import { type PromoResult, promoDiscountMinor } from '@store/contract';
import { useSyncExternalStore } from 'react';
import { subscribeSession } from '../../lib/session-store.ts';
import type { BasketLine } from './basket-store.ts';
import { basketTotalMinor, currentOwner, getBasket, subscribeBasket } from './basket-store.ts';

/**
 * The promo code the customer applied: kept for this tab's visit (a reload of the checkout keeps it),
 * in the panel and on the checkout page alike, and only for the customer who applied it. The discount
 * shown is recomputed from the current lines with the contract's rounding, on the lines the server said
 * the code applies to (a product added afterwards shows undiscounted until the code is applied again);
 * the server recomputes it from the server basket when the order is made.
 */
export interface AppliedPromo {
  owner: string;
  code: string;
  /** Percent off the lines in scope. */
  discount: number;
  appliesTo: readonly number[];
}

/** Where the applied code outlives a reload: this tab's session storage, gone with the tab. */
export const PROMO_STORAGE_KEY = 'applied-promo';

function isAppliedPromo(value: unknown): value is AppliedPromo {
  const promo = value as AppliedPromo | null;
  return (
    typeof promo?.owner === 'string' &&
    typeof promo.code === 'string' &&
    typeof promo.discount === 'number' &&
    Array.isArray(promo.appliesTo) &&
    promo.appliesTo.every((id) => Number.isInteger(id))
  );
}

function restore(): AppliedPromo | null {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(PROMO_STORAGE_KEY) ?? 'null');
    return isAppliedPromo(stored) ? stored : null;
  } catch {
    // Storage blocked, or not ours to read: the code is applied again by hand.
    return null;
  }
}

let applied: AppliedPromo | null = restore();
const listeners = new Set<() => void>();

function set(next: AppliedPromo | null) {
  applied = next;
  try {
    if (next) sessionStorage.setItem(PROMO_STORAGE_KEY, JSON.stringify(next));
    else sessionStorage.removeItem(PROMO_STORAGE_KEY);
  } catch {
    // Blocked storage: the code stays for this page view only.
  }
  for (const listener of listeners) listener();
}

/** The applied code, if the customer who applied it is still the one signed in. */
export const getPromo = (): AppliedPromo | null => (applied && applied.owner === currentOwner() ? applied : null);

/**
 * A code on the customer's basket once it is empty (emptied by hand, or by the order the code went
 * to) applies to nothing: it goes, so it does not come back on the next basket.
 */
function dropIfEmpty() {
  if (applied && applied.owner === currentOwner() && getBasket().length === 0) set(null);
}
subscribeBasket(dropIfEmpty);
dropIfEmpty();

export function setPromo(result: PromoResult) {
  const owner = currentOwner();
  if (owner === null) return;
  set({ owner, code: result.code, discount: result.discount, appliesTo: result.applies_to });
}

/** Undo: clears the code and the discount. */
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
