import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSession, setSession } from '../../../lib/session-store.ts';
import { mockApi, userFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { closeAccountUi } from '../account-ui-store.ts';
import AccountDialogs from './account-dialogs.tsx';

afterEach(() => {
  act(() => closeAccountUi());
});

const token = (seed: string) => seed.padEnd(43, 'x');
const undoPath = (seed: string) => `POST /api/profile/email-update/undo/${token(seed)}`;

describe('the link that undoes a change of email', () => {
  it('asks first, then undoes the change, ends the session here and says to choose a new password', async () => {
    setSession('tok', userFixture());
    const api = mockApi({ [undoPath('u1')]: { body: { ok: true, message: 'Done' } } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    renderWithApp(<AccountDialogs />, { route: `/email-change-undo/${token('u1')}` });

    const dialog = await screen.findByTestId('email-change-undo-modal');
    expect(within(dialog).getByRole('heading', { name: 'Undo the change of email?' })).toBeVisible();
    expect(api.calls).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Undo the change' }));

    expect(await screen.findByRole('heading', { name: 'Email address restored' })).toBeVisible();
    // Leaving the link's page may render after the notice: the router moves in a transition.
    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(api.calls.map((call) => `${call.method} ${call.path}`)).toEqual([undoPath('u1')]);
    expect(getSession()).toEqual({ token: null, user: null });
  });

  it('says a used or expired link is not valid', async () => {
    const api = mockApi({
      [undoPath('u2')]: { status: 422, body: { message: 'Bad', errors: { token: ['validation.tokenInvalid'] } } },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    renderWithApp(<AccountDialogs />, { route: `/email-change-undo/${token('u2')}` });
    await user.click(await screen.findByRole('button', { name: 'Undo the change' }));
    expect(await screen.findByRole('heading', { name: 'Link not valid' })).toBeVisible();
    // Leaving the link's page may render after the notice: the router moves in a transition.
    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('says so when another account took the address, and stays open', async () => {
    const api = mockApi({ [undoPath('u3')]: { status: 409, body: { message: 'Taken' } } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    renderWithApp(<AccountDialogs />, { route: `/email-change-undo/${token('u3')}` });
    await user.click(await screen.findByRole('button', { name: 'Undo the change' }));
    expect(await screen.findByText(/Another account uses this address now/)).toBeVisible();
    expect(screen.getByTestId('email-change-undo-modal')).toBeVisible();
  });

  it('refuses a malformed link without asking the server', async () => {
    const api = mockApi({});
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    renderWithApp(<AccountDialogs />, { route: '/email-change-undo/not-a-token' });
    expect(await screen.findByRole('heading', { name: 'Link not valid' })).toBeVisible();
    expect(api.calls).toHaveLength(0);
  });
});
