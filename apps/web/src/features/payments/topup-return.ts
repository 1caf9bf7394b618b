import { ORDER_TTL_MINUTES } from '@store/contract';

/**
 * Where a top-up's success takes the shopper: back to the checkout (its balance method chosen) when
 * the top-up was started from the insufficient-funds dialog, back to the profile when started there.
 * Kept for the tab in session storage, because the hosted page, 3-D Secure and UPI leave the store's
 * page and come back to Index; it lasts as long as an unpaid order does.
 */
const KEY = 'top-up return';

/** The navigation state the checkout opens with after a top-up for its order: the balance chosen. */
export const CHECKOUT_WITH_BALANCE = { method: 'balance' } as const;

/** Whether the checkout was opened with the state above. */
export const opensWithBalance = (state: unknown) =>
  typeof state === 'object' && state !== null && (state as { method?: unknown }).method === 'balance';
const TTL_MS = ORDER_TTL_MINUTES * 60_000;

/** Notes where the top-up about to be chosen returns to. */
export function rememberTopUpReturn(path: string) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ path, at: Date.now() }));
  } catch {
    // Storage refused (a private window's quota): the top-up ends on Index, as before.
  }
}

/** Where the current top-up returns to, if it was noted and is not stale. */
export function topUpReturn(): string | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as { path?: unknown; at?: unknown } | null;
    const fresh = typeof saved?.at === 'number' && Date.now() - saved.at < TTL_MS;
    return fresh && typeof saved?.path === 'string' && saved.path.startsWith('/') ? saved.path : null;
  } catch {
    return null;
  }
}

/** The same, forgotten once read: a top-up's success returns there once. */
export function takeTopUpReturn(): string | null {
  const path = topUpReturn();
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
  return path;
}
