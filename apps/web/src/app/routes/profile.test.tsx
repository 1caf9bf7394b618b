import type { BalanceResponse } from '@store/contract';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import PaymentDialogs from '../../features/payments/components/payment-dialogs.tsx';
import { closePaymentDialog } from '../../features/payments/payment-ui-store.ts';
import { setSession } from '../../lib/session-store.ts';
import { userFixture } from '../../test/fixtures.ts';
import { mockFetch, renderWithApp } from '../../test/render.tsx';
import { Component as ProfilePage } from './profile.tsx';

afterEach(() => {
  act(() => closePaymentDialog());
  vi.unstubAllGlobals();
});

/** The profile of a customer whose GET /user/balance answers `balance`. */
function renderProfile(balance: BalanceResponse) {
  const user = userFixture({ id: 'u1', balance: balance.balance, balance_minor: balance.balance_minor });
  setSession('tok', user);
  const { fetchMock } = mockFetch({
    '/api/user': { user },
    '/api/user/balance': balance,
    '/api/profile/products/purchased/search': { products: [], page: 1, pages: 1, total: 0 },
  });
  vi.stubGlobal('fetch', vi.fn(fetchMock));
  return renderWithApp(
    <>
      <ProfilePage />
      <PaymentDialogs />
    </>,
    { route: '/profile' },
  );
}

describe('the balance in the profile', () => {
  it('says what the account owes and why, and its top-up starts at what settles it', async () => {
    renderProfile({ balance: 0, balance_minor: 0, owed_minor: 25_040 });
    const owed = await screen.findByTestId('profile-owed');
    expect(owed).toHaveTextContent(/^Your account owes BRL\s250\.40/);
    expect(owed).toHaveTextContent('A top-up was returned to you after its money was spent.');
    expect(screen.getByTestId('profile-balance')).toHaveTextContent(/^BRL\s0\.00$/);
    // The top-up button is the way to settle it, and says so to a screen reader.
    const topUp = screen.getByRole('button', { name: 'Top up balance' });
    expect(topUp).toHaveAccessibleDescription(/^Your account owes BRL\s250\.40/);
    await userEvent.click(topUp);
    const methods = await screen.findByTestId('payment-methods-modal');
    expect(within(methods).getByLabelText('Top-up amount')).toHaveValue('251');
  });

  it.each([
    ['absent', { balance: 12.5, balance_minor: 1_250 }],
    ['0', { balance: 12.5, balance_minor: 1_250, owed_minor: 0 }],
  ])('says nothing of a debt when owed_minor is %s, and the top-up starts empty', async (_name, balance) => {
    renderProfile(balance);
    expect(await screen.findByTestId('profile-balance')).toHaveTextContent(/^BRL\s12\.50$/);
    expect(screen.queryByTestId('profile-owed')).toBeNull();
    const topUp = screen.getByRole('button', { name: 'Top up balance' });
    expect(topUp).not.toHaveAttribute('aria-describedby');
    await userEvent.click(topUp);
    const methods = await screen.findByTestId('payment-methods-modal');
    expect(within(methods).getByLabelText('Top-up amount')).toHaveValue('');
  });
});
