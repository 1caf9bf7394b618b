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
});
