import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { EmailForm } from './email-form.tsx';

async function openForm() {
  const user = userEvent.setup();
  renderWithApp(<EmailForm email="ana@example.com" />);
  await user.click(screen.getByRole('button', { name: 'Change email' }));
  const form = screen.getByRole('form', { name: 'Change email' });
  return { user, form, submit: within(form).getByRole('button', { name: 'Send confirmation' }) };
}

describe('email change form', () => {
  it('sends the new address with the current password and says where the message went', async () => {
    const api = mockApi({ 'PATCH /api/profile/email-update': { body: { ok: true, message: 'On its way.' } } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const { user, form, submit } = await openForm();

    await user.type(within(form).getByLabelText('New email'), 'New@Example.com');
    await user.click(submit);
    expect(await within(form).findByText('This field is required.')).toBeVisible();
    expect(api.calls).toEqual([]);

    await user.type(within(form).getByLabelText('Current password'), 'Secret123');
    await user.click(submit);
    expect(await screen.findByText('We have sent a message to new@example.com.', { exact: false })).toBeVisible();
    expect(api.calls.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'PATCH', path: '/api/profile/email-update', body: { email: 'new@example.com', password: 'Secret123' } },
    ]);
  });

  it('refuses an address outside the grammar before asking the server', async () => {
    const api = mockApi({});
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const { user, form, submit } = await openForm();
    await user.type(within(form).getByLabelText('New email'), 'new@example.com(x)');
    await user.type(within(form).getByLabelText('Current password'), 'Secret123');
    await user.click(submit);
    expect(await within(form).findByText('Invalid email format')).toBeVisible();
    expect(api.calls).toEqual([]);
  });

  it("shows the server's wrong-password answer under the password", async () => {
    const api = mockApi({
      'PATCH /api/profile/email-update': {
        status: 422,
        body: {
          message: 'The current password is not correct.',
          errors: { password: ['validation.wrongPassword'] },
        },
      },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const { user, form, submit } = await openForm();
    await user.type(within(form).getByLabelText('New email'), 'new@example.com');
    await user.type(within(form).getByLabelText('Current password'), 'Wrong12345');
    await user.click(submit);
    const password = within(form).getByLabelText('Current password');
    expect(await within(form).findByText('The current password is not correct.')).toBeVisible();
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('We have sent a message', { exact: false })).toBeNull();
  });
});
