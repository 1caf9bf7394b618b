import { afterEach, describe, expect, it } from 'vitest';
import { closeAccountUi, closeAuth, getAccountUi, openAuth, showNotice } from './account-ui-store.ts';

afterEach(() => {
  closeAccountUi();
});

describe('account dialogs', () => {
  it('closing the auth modal after its login closes it', () => {
    openAuth('login', { stay: true });
    closeAuth();
    expect(getAccountUi()).toEqual({ auth: null, resetRequest: false, notice: null });
  });

  it('keeps a notice that an emailed link put up while the login was still finishing', () => {
    openAuth('login', { stay: true });
    // The link's step runs as soon as the session exists, before the login's own last steps end.
    showNotice('emailVerified');
    closeAuth();
    expect(getAccountUi().notice).toBe('emailVerified');
  });
});
