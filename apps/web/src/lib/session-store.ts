import type { User } from '@store/contract';
import { BASKET_QUEUE_STORAGE_KEY, BASKET_STORAGE_KEY } from './storage-keys.ts';

/**
 * The bearer token and the signed-in user live in local storage under these keys. This module is part
 * of the first page load, so it holds only the storage and its listeners; the calls that fill it load
 * with the account screens.
 */
export const TOKEN_STORAGE_KEY = 'auth-token';
export const USER_STORAGE_KEY = 'user';

/** What the top bar needs to know before any account code has loaded. */
export interface Session {
  token: string | null;
  /** The stored user, trusted only as far as the top bar needs; screens refetch it. */
  user: User | null;
}

const listeners = new Set<() => void>();
let cache: { token: string | null; rawUser: string | null; session: Session } | null = null;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Blocked storage: the session lasts as long as the page.
  }
}

function parseUser(raw: string | null): User | null {
  if (!raw) return null;
  try {
    const user: unknown = JSON.parse(raw);
    // A user counts only with a name and an email.
    if (user && typeof user === 'object' && 'name' in user && 'email' in user && user.name && user.email) {
      return user as User;
    }
  } catch {
    // A damaged entry reads as signed out.
  }
  return null;
}

/** The current session; the same object until storage changes, as useSyncExternalStore needs. */
export function getSession(): Session {
  const token = read(TOKEN_STORAGE_KEY);
  const rawUser = read(USER_STORAGE_KEY);
  if (cache && cache.token === token && cache.rawUser === rawUser) return cache.session;
  const session: Session = { token, user: token ? parseUser(rawUser) : null };
  cache = { token, rawUser, session };
  return session;
}

export const getToken = () => getSession().token;

const notify = () => {
  for (const listener of listeners) listener();
};

/** Login and registration: keep the token and the user. */
export function setSession(token: string, user: User) {
  write(TOKEN_STORAGE_KEY, token);
  write(USER_STORAGE_KEY, JSON.stringify(user));
  notify();
}

/** A fresh copy of the user (after a refetch or a profile change); ignored when signed out. */
export function setSessionUser(user: User) {
  if (!getToken()) return;
  write(USER_STORAGE_KEY, JSON.stringify(user));
  notify();
}

/**
 * Logout, a failed login or a rejected token: forget both. Setting the user to empty clears the stored
 * basket too (the customer's copy and their unsent changes); a guest whose login failed keeps theirs.
 */
export function clearSession() {
  const hadSession = read(TOKEN_STORAGE_KEY) !== null || read(USER_STORAGE_KEY) !== null;
  write(TOKEN_STORAGE_KEY, null);
  write(USER_STORAGE_KEY, null);
  if (hadSession) {
    write(BASKET_STORAGE_KEY, null);
    write(BASKET_QUEUE_STORAGE_KEY, null);
  }
  notify();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    // Signing in or out in another tab.
    if (event.key === null || event.key === TOKEN_STORAGE_KEY || event.key === USER_STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
