import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleRoutes } from '../app/routes.tsx';
import { I18nProvider } from '../lib/i18n.tsx';
import { createQueryClient } from '../lib/query.ts';
import { expire, getSessionState, signOut } from '../lib/session.ts';
import en from '../locales/en.json';

const staff = {
  id: '6f1c0b6e-4c39-4a5e-9b1e-0d6c3f1b2a90',
  email: 'support@example.com',
  role: 'support',
  totp_confirmed: true,
  disabled_at: null,
  created_at: '2026-11-01T00:00:00.000Z',
  last_sign_in_at: null,
};

function renderConsole(path = '/orders') {
  return render(
    <I18nProvider initial={{ language: 'en', catalogue: en }}>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <ConsoleRoutes />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

async function fillSignIn(code: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), 'support@example.com');
  await user.type(screen.getByLabelText('Password'), 'a long staff password');
  await user.type(screen.getByLabelText('Six-digit code from the app'), code);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

afterEach(() => {
  signOut();
  vi.unstubAllGlobals();
});

describe('signing in to the console', () => {
  it('says a wrong code is wrong, and a rate limit how long to wait', async () => {
    const answers = [
      Response.json({ message: 'Wrong email, password or code.', code: 'admin.invalidCredentials' }, { status: 401 }),
      Response.json({ message: 'Too many requests.' }, { status: 429, headers: { 'retry-after': '60' } }),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answers.shift()),
    );
    renderConsole();
    const user = await fillSignIn('123456');
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong email, password or code.');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Try again in 60 s.');
    expect(getSessionState().session).toBeNull();
  });

  it('sends the code as `totp`, shows a support user only their sections, and returns to sign-in on expiry', async () => {
    const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
      if (url === '/api/admin/session') {
        return Response.json({
          token: 'staff-token',
          expires_at: new Date(Date.now() + 30 * 60_000).toISOString(),
          staff,
          recovery_codes_left: 10,
        });
      }
      return Response.json({ items: [], page: 1, page_size: 25, total: 0 });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderConsole();
    await fillSignIn('654321');

    // The orders page loads as its own chunk.
    expect(await screen.findByText('No orders match these filters.', {}, { timeout: 15_000 })).toBeInTheDocument();
    const body = JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body));
    expect(body).toEqual({ email: 'support@example.com', password: 'a long staff password', totp: '654321' });
    const nav = screen.getByRole('navigation', { name: 'Console sections' });
    expect(nav).toHaveTextContent('Orders');
    expect(nav).toHaveTextContent('Customers');
    expect(nav).not.toHaveTextContent('Code stock');
    expect(nav).not.toHaveTextContent('Staff');
    expect(screen.getByTestId('signed-in-as')).toHaveTextContent('support@example.comSupport');

    expire();
    expect(await screen.findByText('Your session has ended. Sign in again to continue.')).toBeInTheDocument();
  });
});
