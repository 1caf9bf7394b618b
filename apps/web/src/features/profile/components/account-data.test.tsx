import { ACCOUNT_EXPORT_FORMAT, type AccountExport } from '@store/contract';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getToken, setSession } from '../../../lib/session-store.ts';
import { mockApi, userFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { closeAccountUi, getAccountUi } from '../../auth/account-ui-store.ts';
import { AccountData } from './account-data.tsx';

const exported: AccountExport = {
  format: ACCOUNT_EXPORT_FORMAT,
  exported_at: '2026-11-27T12:00:00.000Z',
  profile: {
    id: 'u1',
    email: 'ana@example.com',
    name: 'Ana2026',
    locale: 'en',
    email_verified_at: null,
    activated_at: null,
    created_at: '2026-11-01T10:00:00.000Z',
    balance_minor: 1_250,
    owed_minor: 0,
  },
  orders: [],
  payments: [],
  ledger: [],
  reviews: [],
  sessions: [],
  emails: [],
  stock_notifications: [],
  promo_uses: [],
  code_views: [],
};

beforeEach(() => {
  setSession('tok', userFixture({ balance: 12.5, balance_minor: 1_250 }));
});
afterEach(() => {
  act(() => closeAccountUi());
  vi.restoreAllMocks();
});

describe('the profile’s data section', () => {
  it('downloads everything the store holds as a dated JSON file', async () => {
    const api = mockApi({ 'GET /api/profile/export': { body: exported } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const files: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      files.push(blob);
      return 'blob:export';
    });
    URL.revokeObjectURL = vi.fn();
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const user = userEvent.setup();
    renderWithApp(<AccountData balance={12.5} />);
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText('Your data is downloaded.')).toBeVisible();
    expect(names).toEqual(['account-data-2026-11-27.json']);
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(files[0] as Blob);
    });
    expect(JSON.parse(text)).toEqual(exported);
    expect(api.calls[0]?.headers.Authorization).toBe('Bearer tok');
  });

  it('asks for the password, says what is kept and what balance is lost, and shows a wrong password under the field', async () => {
    const api = mockApi({
      'DELETE /api/profile': {
        status: 422,
        body: { message: 'Wrong', errors: { password: ['validation.wrongPassword'] } },
      },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    renderWithApp(<AccountData balance={12.5} />);
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    expect(within(dialog).getByText(/stay in the store’s books/)).toBeVisible();
    expect(within(dialog).getByText(/^Your balance of \D*12\.50 can no longer be spent\.$/)).toBeVisible();

    const submit = within(dialog).getByRole('button', { name: 'Delete my account for good' });
    await user.click(submit);
    expect(await within(dialog).findByText('This field is required.')).toBeVisible();
    expect(api.calls).toEqual([]);

    await user.type(within(dialog).getByLabelText('Your password'), 'Wrong1234');
    await user.click(submit);
    expect(await within(dialog).findByText('The current password is not correct.')).toBeVisible();
    expect(api.calls[0]).toMatchObject({ method: 'DELETE', path: '/api/profile', body: { password: 'Wrong1234' } });
    expect(getToken()).toBe('tok');
  });

  it('says why the store refuses while a payment is being decided', async () => {
    const api = mockApi({
      'DELETE /api/profile': { status: 409, body: { message: 'Deciding', code: 'payment_deciding' } },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    renderWithApp(<AccountData balance={0} />);
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    expect(within(dialog).queryByText(/can no longer be spent/)).toBeNull();
    await user.type(within(dialog).getByLabelText('Your password'), 'Secret123');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account for good' }));
    expect(await within(dialog).findByTestId('form-banner')).toHaveTextContent(
      'A payment of one of your orders is still being decided.',
    );
    expect(getToken()).toBe('tok');
  });

  it('signs out, goes home and says the account is gone once deleted', async () => {
    const api = mockApi({ 'DELETE /api/profile': { body: { ok: true, message: 'Deleted.' } } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    renderWithApp(<AccountData balance={0} />, { route: '/profile' });
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await user.type(within(dialog).getByLabelText('Your password'), 'Secret123');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account for good' }));
    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(getToken()).toBeNull();
    expect(getAccountUi().notice).toBe('accountDeleted');
  });
});
