import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleRoutes } from '../app/routes.tsx';
import { I18nProvider } from '../lib/i18n.tsx';
import { createQueryClient } from '../lib/query.ts';
import { signIn, signOut } from '../lib/session.ts';
import en from '../locales/en.json';

const manager = {
  id: '6f1c0b6e-4c39-4a5e-9b1e-0d6c3f1b2a92',
  email: 'manager@example.com',
  role: 'manager' as const,
  totp_confirmed: true,
  disabled_at: null,
  created_at: '2026-11-01T00:00:00.000Z',
  last_sign_in_at: null,
};
const promo = {
  id: 3,
  code: 'WINTER10',
  percent: 10,
  valid_from: null,
  valid_until: null,
  max_uses: 100,
  used_count: 4,
  is_active: true,
  status: 'usable',
  categories: ['steam'],
  product_ids: [],
  created_at: '2026-11-01T00:00:00.000Z',
};

afterEach(() => {
  signOut();
  vi.unstubAllGlobals();
});

describe('the promo codes page', () => {
  it('lists codes and deactivates one with a reason', async () => {
    const sent: Array<{ url: string; body: unknown }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (init?.method === 'POST') {
          sent.push({ url, body: JSON.parse(String(init.body)) });
          return Response.json({ promo: { ...promo, is_active: false, status: 'inactive' } });
        }
        return Response.json({ items: [promo], page: 1, page_size: 25, total: 1 });
      }),
    );
    signIn({ token: 'staff-token', expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(), staff: manager });
    render(
      <I18nProvider initial={{ language: 'en', catalogue: en }}>
        <QueryClientProvider client={createQueryClient()}>
          <MemoryRouter initialEntries={['/promo-codes']}>
            <ConsoleRoutes />
          </MemoryRouter>
        </QueryClientProvider>
      </I18nProvider>,
    );
    expect(await screen.findByText('WINTER10', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByText('4 / 100')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate WINTER10' });
    await user.type(screen.getByLabelText('Reason (kept in the audit log)'), 'campaign over');
    await user.click(dialog.querySelector('button[type="submit"]') as HTMLButtonElement);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ url: '/api/admin/promo-codes/3/deactivate', body: { reason: 'campaign over' } });
  });
});
