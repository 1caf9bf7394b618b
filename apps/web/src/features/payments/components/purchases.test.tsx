import type { PurchasedProduct } from '@store/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaymentConfirmPage } from '../../../app/routes/payment-confirm.tsx';
import { setSession } from '../../../lib/session-store.ts';
import { userFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { Purchases } from './purchases.tsx';

const ORDER_ID = '0b6f3c2e-8a57-4c1e-9d5e-2f7f3a1b9c44';

const product = (overrides: Partial<PurchasedProduct> = {}): PurchasedProduct => ({
  line_id: 'l1',
  order_id: ORDER_ID,
  product_id: 1,
  name: 'Steam 50',
  category: 'steam',
  cover_path: null,
  cover_text: null,
  country_icon: null,
  quantity: 1,
  delivered: 1,
  unit_price: 50,
  unit_price_minor: 5_000,
  currency: 'BRL',
  activation_instructions: '1. Open Steam\n2. Redeem the code',
  codes: [{ id: 'c1', code: 'STEAM-AAAA-BBBB' }],
  purchased_at: '2025-01-02T10:00:00Z',
  ...overrides,
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let calls: string[];

beforeEach(() => {
  calls = [];
  setSession('tok', userFixture({ id: 'u1' }));
});

afterEach(() => vi.useRealTimers());

describe('purchases in the profile', () => {
  it('hides each code until revealed, copies it with a visible confirmation, and shows the activation steps', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        calls.push(String(input));
        return json({ products: [product()], page: 1, pages: 1, total: 1 });
      }),
    );
    const user = userEvent.setup();
    // After setup, which installs a clipboard stub of its own.
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithApp(<Purchases />, { route: '/profile' });

    const item = await screen.findByTestId('purchased-product');
    expect(within(item).getByTestId('code-value')).not.toHaveTextContent('STEAM-AAAA-BBBB');
    await user.click(within(item).getByRole('button', { name: 'Show code' }));
    expect(within(item).getByTestId('code-value')).toHaveTextContent('STEAM-AAAA-BBBB');
    expect(within(item).getByRole('button', { name: 'Hide code' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(within(item).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('STEAM-AAAA-BBBB');
    expect(within(item).getByTestId('copy-status')).toHaveTextContent('Copied');

    const steps = within(item).getByTestId('activation-steps');
    expect(steps).not.toBeVisible();
    const scroll = vi.spyOn(Element.prototype, 'scrollIntoView');
    await user.click(within(item).getByRole('button', { name: 'How to activate' }));
    expect(steps).toBeVisible();
    expect(
      within(steps)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Open Steam', 'Redeem the code']);
    await waitFor(() => expect(scroll).toHaveBeenCalledWith({ behavior: 'smooth', block: 'start' }));
  });

  it('searches after the typing stops, once, from the first page', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        calls.push(String(input));
        const search = new URL(String(input), 'http://localhost').searchParams.get('search_string');
        return json({ products: search ? [] : [product()], page: 1, pages: 1, total: search ? 0 : 1 });
      }),
    );
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderWithApp(<Purchases />, { route: '/profile' });
    await screen.findByTestId('purchased-product');
    await user.type(screen.getByRole('searchbox', { name: 'Search purchases' }), 'xbox');
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(await screen.findByTestId('purchases-empty')).toHaveTextContent('No purchases match your search.');
    expect(calls).toEqual([
      '/api/profile/products/purchased/search?page=1',
      '/api/profile/products/purchased/search?page=1&search_string=xbox',
    ]);
  });
});

describe('the payment confirmation page', () => {
  it('polls the status every second while it is init, then shows the codes and reports the purchase once', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    window.dataLayer = [];
    const statuses = ['init', 'init', 'success'];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const path = new URL(String(input), 'http://localhost').pathname;
        calls.push(path);
        if (path === '/api/payment/status') {
          const status = statuses.shift() ?? 'success';
          return json({ status, order_id: ORDER_ID, order_status: 'fulfilled', type: 'purchase', refunded_minor: 0 });
        }
        return json({
          ok: true,
          order: {
            id: ORDER_ID,
            type: 'purchase',
            status: 'fulfilled',
            total: 50,
            total_minor: 5_000,
            refunded: 0,
            refunded_minor: 0,
            currency: 'BRL',
            created_at: '2025-01-02T10:00:00Z',
            paid_at: '2025-01-02T10:00:05Z',
          },
          products: [product()],
        });
      }),
    );
    const view = renderWithApp(<PaymentConfirmPage />, { route: `/payment-confirm/${ORDER_ID}` });
    await waitFor(() => expect(calls).toEqual(['/api/payment/status']));
    expect(screen.getByText(/Waiting for the payment/)).toBeVisible();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await waitFor(() => expect(calls.filter((path) => path === '/api/payment/status')).toHaveLength(2));
    expect(calls).not.toContain(`/api/payment-confirm/${ORDER_ID}`);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(await screen.findByTestId('purchased-product')).toHaveTextContent('Steam 50');
    // Settled: no more polling.
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(calls.filter((path) => path === '/api/payment/status')).toHaveLength(3);
    expect(window.dataLayer.filter((event) => event.event === 'purchase')).toHaveLength(1);

    view.unmount();
    renderWithApp(<PaymentConfirmPage />, { route: `/payment-confirm/${ORDER_ID}` });
    expect(await screen.findByTestId('purchased-product')).toBeVisible();
    expect(window.dataLayer.filter((event) => event.event === 'purchase')).toHaveLength(1);
  });
});
