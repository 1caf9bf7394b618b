import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../../lib/session-store.ts';
import { mockApi, userFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { closeAccountUi } from '../account-ui-store.ts';
import AccountDialogs from './account-dialogs.tsx';

afterEach(() => {
  act(() => closeAccountUi());
});

const token = (seed: string) => seed.padEnd(43, 'x');

describe('emailed links on Index', () => {
  it('activates the account, shows the activated modal and cleans the URL', async () => {
    const api = mockApi({ 'POST /api/account/activate': { body: { user: userFixture({ activated: true }) } } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    renderWithApp(<AccountDialogs />, { route: `/?accountToken=${token('a1')}&sort=popular` });

    expect(await screen.findByRole('heading', { name: 'Account activated' })).toBeVisible();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/\?sort=popular$/);
    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]?.body).toEqual({ token: token('a1') });
  });

  it('says clearly when a link is no longer valid', async () => {
    const api = mockApi({
      'POST /api/account/activate': {
        status: 422,
        body: { message: 'Bad', errors: { token: ['validation.tokenInvalid'] } },
      },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    renderWithApp(<AccountDialogs />, { route: `/?accountToken=${token('a2')}` });
    expect(await screen.findByRole('heading', { name: 'Link not valid' })).toBeVisible();
  });

  it('asks a signed-out visitor to log in before confirming an email change, and gives up on close', async () => {
    const user = userEvent.setup();
    renderWithApp(<AccountDialogs />, { route: `/?emailToken=${token('e1')}` });
    expect(await screen.findByTestId('auth-modal')).toBeVisible();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(screen.queryByTestId('auth-modal')).toBeNull();
  });

  it('confirms a password change for the signed-in customer', async () => {
    setSession('tok', userFixture());
    const api = mockApi({ 'POST /api/profile/password-update-confirmation': { body: { ok: true, message: 'Done' } } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    renderWithApp(<AccountDialogs />, { route: `/?passwordToken=${token('p1')}` });
    expect(await screen.findByRole('heading', { name: 'Password changed' })).toBeVisible();
    expect(api.calls[0]?.headers.Authorization).toBe('Bearer tok');
  });
});
