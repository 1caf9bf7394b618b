import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccountButton } from '../../components/layout/account-button.tsx';
import { clearSession, getSession, setSession } from '../../lib/session-store.ts';
import { mockApi, userFixture } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { closeAccountUi, getAccountUi } from './account-ui-store.ts';
import { getUser } from './api/get-user.ts';
import { AccountHost } from './components/account-host.tsx';

afterEach(() => {
  act(() => closeAccountUi());
});

describe('session', () => {
  it('keeps the token and user in local storage and sends the bearer token', async () => {
    setSession('tok', userFixture());
    const fresh = userFixture({ name: 'Fresh2026', verified: true });
    const api = mockApi({ 'GET /api/user': { body: { user: fresh } } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));

    await expect(getUser()).resolves.toEqual(fresh);
    expect(api.calls[0]?.headers).toMatchObject({ Authorization: 'Bearer tok', 'X-Requested-With': 'XMLHttpRequest' });
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ name: 'Fresh2026' });
  });

  it('ends the session when GET /user answers 401, not when the server is down', async () => {
    setSession('tok', userFixture());
    vi.stubGlobal('fetch', vi.fn(mockApi({ 'GET /api/user': { status: 503, body: { message: 'Down' } } }).fetchMock));
    await expect(getUser()).rejects.toThrow();
    expect(getSession().token).toBe('tok');

    vi.stubGlobal('fetch', vi.fn(mockApi({ 'GET /api/user': { status: 401, body: { message: 'No' } } }).fetchMock));
    await expect(getUser()).rejects.toThrow();
    expect(getSession()).toEqual({ token: null, user: null });
    expect(localStorage.getItem('auth-token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });
});

describe('top bar account button', () => {
  it('opens the auth modal for a guest', async () => {
    const user = userEvent.setup();
    renderWithApp(<AccountButton />);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(getAccountUi().auth).toEqual({ tab: 'login', stay: false });
  });

  it('links a customer to the profile, and is disabled on it', () => {
    setSession('tok', userFixture());
    const { unmount } = renderWithApp(<AccountButton />);
    expect(screen.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    unmount();
    renderWithApp(<AccountButton />, { route: '/profile' });
    expect(screen.getByRole('button', { name: 'Profile' })).toBeDisabled();
  });

  it('follows logins and logouts', () => {
    renderWithApp(<AccountButton />);
    expect(screen.getByRole('button', { name: 'Log in' })).toBeVisible();
    act(() => setSession('tok', userFixture()));
    expect(screen.getByRole('link', { name: 'Profile' })).toBeVisible();
  });
});

describe('a private route', () => {
  it('opened signed out goes to Index with the login dialog, whose login leads back to the profile', async () => {
    renderWithApp(<AccountHost />, { route: '/profile' });
    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(getAccountUi().auth).toEqual({ tab: 'login', stay: false });
  });

  it('left by a session that ends there goes to Index without asking to log in again', async () => {
    setSession('tok', userFixture());
    renderWithApp(<AccountHost />, { route: '/profile' });
    expect(screen.getByTestId('location')).toHaveTextContent('/profile');
    act(() => clearSession());
    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(getAccountUi().auth).toBeNull();
  });
});
