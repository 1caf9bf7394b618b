import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { closeAccountUi } from '../account-ui-store.ts';
import AccountDialogs from './account-dialogs.tsx';

const TOKEN = 'a'.repeat(43);

function open(reply: { status?: number; body?: unknown }) {
  const api = mockApi({ [`GET /api/password-reset/${TOKEN}`]: reply });
  vi.stubGlobal('fetch', vi.fn(api.fetchMock));
  // The account dialogs open the reset form themselves on /password-reset/{token}.
  renderWithApp(<AccountDialogs />, { route: `/password-reset/${TOKEN}` });
  return api;
}

afterEach(() => {
  act(() => closeAccountUi());
  vi.unstubAllGlobals();
});

describe('the password reset page (PasswordResetDialog)', () => {
  it('shows the form for a link that can still set a password, after checking it', async () => {
    const api = open({ body: { ok: true, message: 'This link can set a new password.' } });
    expect(await screen.findByTestId('password-reset-modal')).toBeVisible();
    expect(api.calls).toEqual([expect.objectContaining({ method: 'GET', path: `/api/password-reset/${TOKEN}` })]);
  });

  it('says a used or expired link is dead instead of showing the form', async () => {
    open({ status: 422, body: { message: 'Invalid', errors: { token: ['validation.tokenInvalid'] } } });
    expect(await screen.findByRole('heading', { name: 'This link was used or expired' })).toBeVisible();
    expect(screen.queryByTestId('password-reset-modal')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('still shows the form when the check is only rate limited', async () => {
    open({ status: 429, body: { message: 'Too many requests' } });
    expect(await screen.findByTestId('password-reset-modal')).toBeVisible();
  });
});
