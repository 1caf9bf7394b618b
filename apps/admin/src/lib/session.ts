import type { Staff } from '@store/contract';

/**
 * The staff member's short-lived token lives in this tab's sessionStorage under its own key, never
 * the storefront's `auth-token`: closing the tab signs out, and a shopper's session on the same
 * machine is never read or touched. The token is dropped when it expires or the API refuses it, and
 * the reason is kept for the sign-in page to say.
 */
export const SESSION_STORAGE_KEY = 'admin-session';

export interface StaffSession {
  token: string;
  /** ISO time after which the API refuses the token. */
  expiresAt: string;
  staff: Staff;
}

export type SignOutReason = 'expired' | 'signed-out';

interface State {
  session: StaffSession | null;
  reason: SignOutReason | null;
}

const listeners = new Set<() => void>();
let state: State = { session: readStored(), reason: null };
let expiryTimer: ReturnType<typeof setTimeout> | undefined;

function readStored(): StaffSession | null {
  try {
    const raw = sessionStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const session = JSON.parse(raw) as StaffSession;
    if (typeof session?.token !== 'string' || typeof session.expiresAt !== 'string' || !session.staff) return null;
    return session;
  } catch {
    return null;
  }
}

function set(next: State) {
  state = next;
  try {
    if (next.session) sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(next.session));
    else sessionStorage.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // Blocked storage: the session lasts as long as the page.
  }
  scheduleExpiry();
  for (const listener of listeners) listener();
}

/** Whether the session is past its expiry at `now`. */
export const isExpired = (session: StaffSession, now = Date.now()) => Date.parse(session.expiresAt) <= now;

function scheduleExpiry() {
  clearTimeout(expiryTimer);
  const session = state.session;
  if (!session) return;
  // setTimeout holds at most about 24.8 days; a staff token lives minutes to hours.
  const wait = Math.min(Date.parse(session.expiresAt) - Date.now(), 2 ** 31 - 1);
  expiryTimer = setTimeout(() => expire(), Math.max(wait, 0));
}

export function getSessionState(): State {
  // A token stored by an earlier page load may have expired while the tab slept.
  if (state.session && isExpired(state.session)) set({ session: null, reason: 'expired' });
  return state;
}

export const getToken = () => getSessionState().session?.token ?? null;

export function signIn(session: StaffSession) {
  set({ session, reason: null });
}

export function signOut() {
  set({ session: null, reason: 'signed-out' });
}

/** The API refused the token, or its time ran out: back to sign-in, saying why. */
export function expire() {
  if (state.session) set({ session: null, reason: 'expired' });
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Re-reads storage: for tests that write it directly. */
export function reloadSession() {
  set({ session: readStored(), reason: null });
}

scheduleExpiry();
