import { useEffect, useRef } from 'react';
import { getAccountUi, openAuth, useAccountUi } from '../account-ui-store.ts';
import { useSession } from './use-session.ts';

/**
 * For emailed links that act on the signed-in customer: while signed out, opens the auth modal once
 * (staying on the page after login) and calls `onGiveUp` if the visitor closes the account dialogs
 * without logging in. Returns whether the session is there to go on with.
 */
export function useLoginFirst(enabled: boolean, onGiveUp: () => void): boolean {
  const { token } = useSession();
  const ui = useAccountUi();
  const dialogOpen = Boolean(ui.auth || ui.resetRequest);
  const asked = useRef(false);
  const giveUp = useRef(onGiveUp);
  giveUp.current = onGiveUp;

  useEffect(() => {
    if (!enabled || token || dialogOpen) return;
    if (!asked.current) {
      asked.current = true;
      openAuth('login', { stay: true });
      return;
    }
    // Read the store, not the render's copy: the modal may have opened since this render.
    const current = getAccountUi();
    if (!current.auth && !current.resetRequest) {
      asked.current = false;
      giveUp.current();
    }
  }, [enabled, token, dialogOpen]);

  return Boolean(token);
}
