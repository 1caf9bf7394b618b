import { useSyncExternalStore } from 'react';

/**
 * Which account dialog is open. Anything on the page (the top bar, a review prompt, an emailed link)
 * asks for a dialog here; the dialogs themselves are a separate chunk that loads on the first request.
 */
export type AuthTab = 'login' | 'register';

/** The one-button success and failure dialogs. */
export type AccountNotice =
  | 'registered'
  | 'resetSent'
  | 'passwordCreated'
  | 'accountActivated'
  | 'emailChanged'
  | 'emailRestored'
  | 'passwordChanged'
  | 'emailVerified'
  | 'linkInvalid'
  | 'linkUsed'
  | 'accountDeleted';

export interface AccountUiState {
  /** The auth modal; `stay` keeps the visitor where they are after login instead of opening the profile. */
  auth: { tab: AuthTab; stay: boolean } | null;
  resetRequest: boolean;
  notice: AccountNotice | null;
}

const closed: AccountUiState = { auth: null, resetRequest: false, notice: null };
let state = closed;
const listeners = new Set<() => void>();

function set(next: AccountUiState) {
  state = next;
  for (const listener of listeners) listener();
}

export const getAccountUi = () => state;

export function subscribeAccountUi(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export const useAccountUi = () => useSyncExternalStore(subscribeAccountUi, getAccountUi, () => closed);

export const openAuth = (tab: AuthTab = 'login', options: { stay?: boolean } = {}) =>
  set({ ...closed, auth: { tab, stay: options.stay ?? false } });
export const openResetRequest = () => set({ ...closed, resetRequest: true });
export const showNotice = (notice: AccountNotice) => set({ ...closed, notice });
export const closeAccountUi = () => set(closed);
/**
 * Closes the auth modal once its login is done, and only it: by then an emailed link waiting for the
 * login may already have put up its notice ("Email confirmed"), which must stay.
 */
export const closeAuth = () => {
  if (state.auth) set(closed);
};
