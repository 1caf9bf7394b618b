import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleRoutes } from '../app/routes.tsx';
import { I18nProvider } from '../lib/i18n.tsx';
import { createQueryClient } from '../lib/query.ts';
import { signIn, signOut } from '../lib/session.ts';
import en from '../locales/en.json';

const manager = {
  id: '6f1c0b6e-4c39-4a5e-9b1e-0d6c3f1b2a91',
  email: 'manager@example.com',
  role: 'manager' as const,
  totp_confirmed: true,
  disabled_at: null,
  created_at: '2026-11-01T00:00:00.000Z',
  last_sign_in_at: null,
};

const product = {
  id: 7,
  name: 'Steam Gift Card 10 USD',
  category: 'steam',
  category_name: 'Steam',
  country: 'US',
  price_minor: 5500,
  old_price_minor: null,
  nominal_minor: 1000,
  nominal_currency: 'USD',
  cover_path: '/covers/steam.webp',
  cover_text: null,
  is_active: true,
  stock: 3,
  low_stock_threshold: 5,
  created_at: '2026-11-01T00:00:00.000Z',
};
const texts = { 'pt-BR': '', en: 'A Steam card.', ru: 'Карта Steam.', hi: '' };
const options = {
  categories: [{ slug: 'steam', name: 'Steam' }],
  countries: [{ code: 'US', name: 'United States' }],
  currencies: [{ code: 'USD', minor_units: 2 }],
};

function renderConsole(path: string) {
  signIn({ token: 'staff-token', expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(), staff: manager });
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

afterEach(() => {
  signOut();
  vi.unstubAllGlobals();
});

describe('the products page', () => {
  it('lists products for a manager, sends the filters, and says when none match', async () => {
    const fetchMock = vi.fn(async (url: string) => {
      if (url.startsWith('/api/admin/products/options')) return Response.json(options);
      if (url.includes('q=nothing')) return Response.json({ items: [], page: 1, page_size: 25, total: 0 });
      return Response.json({ items: [product], page: 1, page_size: 25, total: 1 });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderConsole('/products');
    expect(await screen.findByRole('link', { name: product.name }, { timeout: 15_000 })).toHaveAttribute(
      'href',
      '/products/7',
    );
    expect(screen.getByRole('navigation', { name: 'Console sections' })).toHaveTextContent('Products');

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name or id'), 'nothing');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No products match these filters.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('q=nothing'))).toBe(true);
  });

  it('edits a product in the four languages and sends prices in minor units', async () => {
    const sent: unknown[] = [];
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url.startsWith('/api/admin/products/options')) return Response.json(options);
      if (init?.method === 'PATCH') {
        sent.push(JSON.parse(String(init.body)));
        return Response.json({
          product: { ...product, price_minor: 6000, descriptions: texts, activation_instructions: texts },
        });
      }
      return Response.json({ product: { ...product, descriptions: texts, activation_instructions: texts } });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderConsole('/products/7');
    const price = await screen.findByLabelText('Price, BRL', {}, { timeout: 15_000 });
    expect(price).toHaveValue('55.00');
    for (const language of ['Portuguese (Brazil)', 'English', 'Russian', 'Hindi']) {
      expect(screen.getByRole('group', { name: language })).toBeInTheDocument();
    }
    const russian = within(screen.getByRole('group', { name: 'Russian' }));
    expect(russian.getByLabelText('Description')).toHaveValue('Карта Steam.');

    const user = userEvent.setup();
    await user.clear(price);
    await user.type(price, '60');
    await user.type(within(screen.getByRole('group', { name: 'Hindi' })).getByLabelText('Description'), 'स्टीम');
    await user.type(
      within(screen.getByRole('group', { name: 'Hindi' })).getByLabelText('Activation instructions'),
      'भुनाएँ',
    );
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Saved.');
    expect(sent[0]).toMatchObject({
      price_minor: 6000,
      old_price_minor: null,
      nominal_minor: 1000,
      descriptions: { hi: 'स्टीम', ru: 'Карта Steam.' },
      activation_instructions: { hi: 'भुनाएँ' },
    });
  });

  it('shows a field error from the API beside its field', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url.startsWith('/api/admin/products/options')) return Response.json(options);
        if (init?.method === 'PATCH') {
          return Response.json(
            { message: 'invalid', errors: { old_price_minor: ['validation.tooSmall'] } },
            { status: 422 },
          );
        }
        return Response.json({ product: { ...product, descriptions: texts, activation_instructions: texts } });
      }),
    );
    renderConsole('/products/7');
    const oldPrice = await screen.findByLabelText('Old price, BRL (blank without a discount)', {}, { timeout: 15_000 });
    const user = userEvent.setup();
    await user.type(oldPrice, '1');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findAllByText('This value is too small.')).not.toHaveLength(0);
  });
});
