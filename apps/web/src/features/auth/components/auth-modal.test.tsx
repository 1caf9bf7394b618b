import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_STORAGE_KEY, USER_STORAGE_KEY } from '../../../lib/session-store.ts';
import { mockApi, userFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { closeAccountUi, openAuth } from '../account-ui-store.ts';
import AccountDialogs from './account-dialogs.tsx';

afterEach(() => {
  act(() => closeAccountUi());
  delete window.dataLayer;
});

function openModal(tab: 'login' | 'register' = 'login') {
  act(() => openAuth(tab));
  renderWithApp(<AccountDialogs />);
  return screen.getByTestId('auth-modal');
}

const alerts = (container: HTMLElement) => within(container).queryAllByRole('alert');

describe('auth modal: login', () => {
  it('validates only after the first submit, then live', async () => {
    const user = userEvent.setup();
    const modal = openModal();
    const email = within(modal).getByLabelText('Email');
    await user.type(email, 'not-an-email');
    expect(alerts(modal)).toEqual([]);

    const submit = within(modal).getByRole('button', { name: 'Log in' });
    await user.click(submit);
    expect(await within(modal).findByText('Invalid email format')).toBeVisible();
    expect(within(modal).getByText('The password cannot be empty')).toBeVisible();
    expect(submit).toBeDisabled();

    await user.clear(email);
    await user.type(email, 'ana@example.com');
    expect(within(modal).queryByText('Invalid email format')).toBeNull();
    await user.type(within(modal).getByLabelText('Password'), 'secret123');
    expect(alerts(modal)).toEqual([]);
    expect(submit).toBeEnabled();
  });

  it('shows the server error under its field, keeps submit disabled until edited, and drops the token', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'stale');
    const api = mockApi({
      'POST /api/login': { status: 422, body: { message: 'Invalid', errors: { password: ['invalidCredentials'] } } },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    const modal = openModal();
    await user.type(within(modal).getByLabelText('Email'), 'ana@example.com');
    await user.type(within(modal).getByLabelText('Password'), 'wrongpass');
    const submit = within(modal).getByRole('button', { name: 'Log in' });
    await user.click(submit);

    const error = await within(modal).findByText('Incorrect username or password');
    expect(error.id).toBe(within(modal).getByLabelText('Password').getAttribute('aria-describedby'));
    expect(submit).toBeDisabled();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(api.calls[0]?.headers['X-Requested-With']).toBe('XMLHttpRequest');

    await user.type(within(modal).getByLabelText('Password'), 'x');
    expect(within(modal).queryByText('Incorrect username or password')).toBeNull();
    expect(submit).toBeEnabled();
  });

  it('stores the token and the user and opens the profile', async () => {
    const account = userFixture();
    const api = mockApi({ 'POST /api/login': { body: { token: 'tok', user: account } } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    const modal = openModal();
    await user.type(within(modal).getByLabelText('Email'), 'Ana@Example.com');
    await user.type(within(modal).getByLabelText('Password'), 'secret123');
    await user.click(within(modal).getByRole('button', { name: 'Log in' }));

    expect(await screen.findByTestId('location')).toHaveTextContent('/profile');
    expect(api.calls[0]?.body).toEqual({ email: 'ana@example.com', password: 'secret123' });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('tok');
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? '{}')).toMatchObject({ name: 'Ana2026' });
    expect(screen.queryByTestId('auth-modal')).toBeNull();
  });

  it('shows a rate limit as a dismissible notification in the interface language, with the wait', async () => {
    const api = mockApi({
      'POST /api/login': {
        status: 429,
        body: { message: 'Slow down, try in a minute.' },
        headers: { 'retry-after': '42' },
      },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    const modal = openModal();
    await user.type(within(modal).getByLabelText('Email'), 'ana@example.com');
    await user.type(within(modal).getByLabelText('Password'), 'secret123');
    await user.click(within(modal).getByRole('button', { name: 'Log in' }));

    const banner = await within(modal).findByTestId('form-banner');
    expect(banner).toHaveTextContent('Too many requests. Try again in 42 s.');
    expect(banner).not.toHaveTextContent('Slow down');
    await user.click(within(banner).getByRole('button', { name: 'Close' }));
    expect(within(modal).queryByTestId('form-banner')).toBeNull();
  });

  it('opens the password reset request from "Forgot password?"', async () => {
    const user = userEvent.setup();
    const modal = openModal();
    await user.click(within(modal).getByRole('button', { name: 'Forgot password?' }));
    expect(await screen.findByTestId('reset-request-modal')).toBeVisible();
    expect(screen.queryByTestId('auth-modal')).toBeNull();
  });
});

describe('auth modal: register', () => {
  it('toggles the password visibility and grades its strength', async () => {
    const user = userEvent.setup();
    const modal = openModal('register');
    const password = within(modal).getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    const [toggle] = within(modal).getAllByRole('button', { name: 'Show password' });
    await user.click(toggle as HTMLElement);
    expect(password).toHaveAttribute('type', 'text');
    expect(within(modal).getAllByRole('button', { name: 'Hide password' })).toHaveLength(1);

    expect(within(modal).queryByTestId('password-strength')).toBeNull();
    await user.type(password, 'abc');
    expect(within(modal).getByTestId('password-strength')).toHaveTextContent('Too short');
    await user.type(password, 'defgh');
    expect(within(modal).getByTestId('password-strength')).toHaveTextContent('Weak');
    await user.type(password, 'A1');
    expect(within(modal).getByTestId('password-strength')).toHaveTextContent('Strong');
    await user.type(password, 'x'.repeat(25));
    expect(within(modal).getByTestId('password-strength')).toHaveTextContent('Too long');
  });

  it('asks for the agreement and a matching repeat, after the first submit', async () => {
    const user = userEvent.setup();
    const modal = openModal('register');
    await user.type(within(modal).getByLabelText('Name'), 'Ana2026');
    await user.type(within(modal).getByLabelText('Email'), 'ana@example.com');
    await user.type(within(modal).getByLabelText('Password'), 'secret123');
    await user.type(within(modal).getByLabelText('Repeat password'), 'secret124');
    expect(alerts(modal)).toEqual([]);
    await user.click(within(modal).getByRole('button', { name: 'Sign up' }));
    expect(await within(modal).findByText('Accept the privacy policy and the public offer to continue.')).toBeVisible();

    await user.click(within(modal).getByRole('checkbox'));
    expect(await within(modal).findByText('Passwords do not match')).toBeVisible();
    expect(within(modal).getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy');
    expect(within(modal).getByRole('link', { name: 'public offer' })).toHaveAttribute('href', '/contract-offer');
  });

  it('puts a taken email under the email field', async () => {
    const api = mockApi({
      'POST /api/register': { status: 422, body: { message: 'Taken', errors: { email: ['validation.emailTaken'] } } },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    const modal = openModal('register');
    await user.type(within(modal).getByLabelText('Name'), 'Ana2026');
    await user.type(within(modal).getByLabelText('Email'), 'ana@example.com');
    await user.type(within(modal).getByLabelText('Password'), 'secret123');
    await user.type(within(modal).getByLabelText('Repeat password'), 'secret123');
    await user.click(within(modal).getByRole('checkbox'));
    await user.click(within(modal).getByRole('button', { name: 'Sign up' }));

    const error = await within(modal).findByText('This email is already registered');
    expect(error.id).toBe(within(modal).getByLabelText('Email').getAttribute('aria-describedby'));
    expect(within(modal).getByRole('button', { name: 'Sign up' })).toBeDisabled();
  });

  it('registers, logs in, reports the sign-up and shows the success modal', async () => {
    const api = mockApi({ 'POST /api/register': { status: 201, body: { token: 'tok', user: userFixture() } } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    const modal = openModal('register');
    await user.type(within(modal).getByLabelText('Name'), 'Ana2026');
    await user.type(within(modal).getByLabelText('Email'), 'ana@example.com');
    await user.type(within(modal).getByLabelText('Password'), 'secret123');
    await user.type(within(modal).getByLabelText('Repeat password'), 'secret123');
    await user.click(within(modal).getByRole('checkbox'));
    await user.click(within(modal).getByRole('button', { name: 'Sign up' }));

    expect(await screen.findByRole('heading', { name: 'Registration complete' })).toBeVisible();
    expect(screen.queryByTestId('auth-modal')).toBeNull();
    expect(api.calls[0]?.body).toEqual({
      name: 'Ana2026',
      email: 'ana@example.com',
      password: 'secret123',
      password_confirmation: 'secret123',
      locale: 'en',
    });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('tok');
    expect(window.dataLayer).toEqual([{ event: 'sign_up', method: 'email' }]);
  });
});
