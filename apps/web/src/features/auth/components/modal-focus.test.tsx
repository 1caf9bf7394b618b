import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { closeAccountUi, openResetRequest } from '../account-ui-store.ts';
import AccountDialogs from './account-dialogs.tsx';

afterEach(() => {
  act(() => closeAccountUi());
  document.body.replaceChildren();
});

describe('a dialog replaced by another in one render', () => {
  it('hands its opener over: closing the notice puts the focus back on what opened the first dialog', async () => {
    const api = mockApi({ 'POST /api/password-reset': { body: { ok: true, message: 'On its way.' } } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    const opener = document.createElement('button');
    opener.textContent = 'Forgot password?';
    document.body.append(opener);
    opener.focus();
    renderWithApp(<AccountDialogs />);
    act(() => openResetRequest());

    const modal = await screen.findByTestId('reset-request-modal');
    await user.type(within(modal).getByLabelText('Email'), 'ana@example.com');
    await user.keyboard('{Enter}');
    // The request modal is gone and the notice has taken its place in the same render.
    const notice = await screen.findByTestId('notice-modal');
    expect(screen.queryByTestId('reset-request-modal')).toBeNull();
    await waitFor(() => expect(notice.contains(document.activeElement)).toBe(true));

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('notice-modal')).toBeNull());
    await waitFor(() => expect(opener).toHaveFocus());
  });
});
