import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { closeAccountUi, openResetRequest } from '../account-ui-store.ts';
import AccountDialogs from './account-dialogs.tsx';

afterEach(() => {
  act(() => closeAccountUi());
});

describe('password reset request modal', () => {
  it('keeps submit disabled while the email is empty or invalid, then shows the sent modal', async () => {
    const api = mockApi({ 'POST /api/password-reset': { body: { ok: true, message: 'On its way.' } } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    act(() => openResetRequest());
    renderWithApp(<AccountDialogs />);
    const modal = screen.getByTestId('reset-request-modal');
    const submit = within(modal).getByRole('button', { name: 'Send link' });
    const email = within(modal).getByLabelText('Email');
    expect(submit).toBeDisabled();

    await user.type(email, 'ana@');
    expect(submit).toBeDisabled();
    await user.tab();
    expect(await within(modal).findByText('Invalid Email entered')).toBeVisible();
    expect(email).toHaveAttribute('maxLength', '128');

    await user.type(email, 'example.com');
    expect(submit).toBeEnabled();
    expect(within(modal).queryByText('Invalid Email entered')).toBeNull();
    await user.click(submit);

    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeVisible();
    expect(api.calls[0]?.body).toEqual({ email: 'ana@example.com' });
  });

  it('says "Email not found" under the field for an address without an account, and stays open', async () => {
    const api = mockApi({
      'POST /api/password-reset': {
        status: 422,
        body: { message: 'Email not found.', errors: { email: ['validation.emailNotFound'] } },
      },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    act(() => openResetRequest());
    renderWithApp(<AccountDialogs />);
    const modal = screen.getByTestId('reset-request-modal');
    const email = within(modal).getByLabelText('Email');
    await user.type(email, 'nobody@example.com');
    await user.click(within(modal).getByRole('button', { name: 'Send link' }));

    expect(await within(modal).findByText('Email not found')).toBeVisible();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('heading', { name: 'Check your email' })).toBeNull();
    // Another address clears it.
    await user.type(email, 'x');
    expect(within(modal).queryByText('Email not found')).toBeNull();
  });
});
