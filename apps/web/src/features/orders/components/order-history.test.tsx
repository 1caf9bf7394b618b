import type { OrderDelivery, OrderHistoryItem } from '@store/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Component as ProfileRoute } from '../../../app/routes/profile.tsx';
import { setSession } from '../../../lib/session-store.ts';
import { userFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { OrderHistory } from './order-history.tsx';
import { OrderView } from './order-view.tsx';

const PAID = '3f2a1b9c-8a57-4c1e-9d5e-2f7f3a1b9c44';
const FAILED = 'a1b2c3d4-1111-4c1e-9d5e-2f7f3a1b9c44';

const order = (overrides: Partial<OrderHistoryItem> = {}): OrderHistoryItem => ({
  id: PAID,
  number: '3F2A1B9C',
  type: 'purchase',
  status: 'fulfilled',
  created_at: '2026-11-20T10:00:00.000Z',
  paid_at: '2026-11-20T10:01:00.000Z',
  currency: 'BRL',
  subtotal_minor: 10_000,
  discount_minor: 1_000,
  total_minor: 9_000,
  paid_minor: 9_000,
  paid_currency: 'BRL',
  refunded_minor: 0,
  method: 'card',
  promo_code: 'SUMMER10',
  receipt: true,
  lines: [
    { product_id: 7, name: 'Steam 50', quantity: 2, unit_price_minor: 5_000, discount_minor: 1_000, delivered: 2 },
  ],
  ...overrides,
});

const failed = order({
  id: FAILED,
  number: 'A1B2C3D4',
  status: 'failed',
  paid_at: null,
  paid_minor: null,
  paid_currency: null,
  receipt: false,
  promo_code: null,
  discount_minor: 0,
  subtotal_minor: 5_000,
  total_minor: 5_000,
  lines: [{ product_id: 7, name: 'Steam 50', quantity: 1, unit_price_minor: 5_000, discount_minor: 0, delivered: 0 }],
});

const delivery: OrderDelivery = {
  ok: true,
  order: {
    id: PAID,
    type: 'purchase',
    status: 'fulfilled',
    total: 90,
    total_minor: 9_000,
    refunded: 0,
    refunded_minor: 0,
    currency: 'BRL',
    created_at: '2026-11-20T10:00:00.000Z',
    paid_at: '2026-11-20T10:01:00.000Z',
  },
  products: [
    {
      line_id: 'l1',
      order_id: PAID,
      product_id: 7,
      name: 'Steam 50',
      category: 'steam',
      cover_path: null,
      cover_text: null,
      country_icon: null,
      quantity: 2,
      delivered: 2,
      unit_price: 50,
      unit_price_minor: 5_000,
      currency: 'BRL',
      activation_instructions: '1. Open Steam',
      codes: [
        { id: 'c1', code: 'STEAM-AAAA-1111' },
        { id: 'c2', code: 'STEAM-BBBB-2222' },
      ],
      purchased_at: '2026-11-20T10:01:00.000Z',
    },
  ],
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let calls: string[];

/** The API as the order screens call it; `pdf` answers the receipt. */
function stubApi(pages: Record<number, { orders: OrderHistoryItem[]; page: number; pages: number; total: number }>) {
  const byId = new Map([...Object.values(pages).flatMap((page) => page.orders)].map((item) => [item.id, item]));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push(`${url.pathname}${url.search}`);
      expect(new Headers(init?.headers).get('authorization')).toBe('Bearer tok');
      if (url.pathname === '/api/profile/orders') return json(pages[Number(url.searchParams.get('page'))]);
      const receipt = /^\/api\/profile\/orders\/([^/]+)\/receipt$/.exec(url.pathname);
      if (receipt) {
        return new Response(new Blob(['%PDF-1.3 receipt'], { type: 'application/pdf' }), {
          status: 200,
          headers: { 'content-disposition': 'attachment; filename="receipt-3F2A1B9C.pdf"' },
        });
      }
      const one = /^\/api\/profile\/orders\/([^/]+)$/.exec(url.pathname);
      if (one) {
        const item = byId.get(one[1] ?? '');
        return item ? json({ order: item }) : json({ message: 'Order not found' }, 404);
      }
      if (url.pathname === `/api/payment-products/${PAID}`) return json(delivery);
      return json({ message: 'Not found' }, 404);
    }),
  );
}

beforeEach(() => {
  calls = [];
  setSession('tok', userFixture({ id: 'u1' }));
});
afterEach(() => vi.unstubAllGlobals());

describe('the order history in the profile', () => {
  it('lists paid and failed orders with their number, status, method and total, each linking to its page', async () => {
    stubApi({ 1: { orders: [order(), failed], page: 1, pages: 1, total: 2 } });
    renderWithApp(<OrderHistory />, { route: '/profile' });
    const cards = await screen.findAllByTestId('order-card');
    expect(cards).toHaveLength(2);
    const [paid, refused] = cards as [HTMLElement, HTMLElement];
    expect(within(paid).getByRole('link', { name: 'Order 3F2A1B9C' })).toHaveAttribute(
      'href',
      `/profile?order=${PAID}`,
    );
    expect(within(paid).getByTestId('order-status')).toHaveTextContent('Delivered');
    expect(paid).toHaveTextContent('Bank card');
    expect(within(paid).getByTestId('order-total')).toHaveTextContent(/^BRL\s90\.00$/);
    expect(paid).toHaveTextContent('Steam 50 × 2');
    expect(within(refused).getByTestId('order-status')).toHaveTextContent('Payment failed');
    expect(calls).toEqual(['/api/profile/orders?page=1']);
    // No codes on the list: they are on a paid order's page.
    expect(document.body).not.toHaveTextContent('STEAM-AAAA');
  });

  it('pages with its own buttons, leaving the address to the purchases', async () => {
    stubApi({
      1: { orders: [order()], page: 1, pages: 2, total: 2 },
      2: { orders: [failed], page: 2, pages: 2, total: 2 },
    });
    renderWithApp(<OrderHistory />, { route: '/profile' });
    await screen.findByText('Page 1 of 2');
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('Page 2 of 2');
    expect(await screen.findByRole('link', { name: 'Order A1B2C3D4' })).toBeInTheDocument();
    expect(calls).toEqual(['/api/profile/orders?page=1', '/api/profile/orders?page=2']);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/profile$/);
  });
});

describe('an order’s page', () => {
  it('shows a paid order’s lines, discount, totals, its codes hidden until asked, and downloads its receipt', async () => {
    stubApi({ 1: { orders: [order()], page: 1, pages: 1, total: 1 } });
    const createObjectURL = vi.fn(() => 'blob:receipt');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    renderWithApp(<OrderView orderId={PAID} />, { route: `/profile?order=${PAID}` });

    expect(await screen.findByRole('heading', { level: 1, name: 'Order 3F2A1B9C' })).toBeInTheDocument();
    const page = screen.getByTestId('order-page');
    expect(await within(page).findByTestId('order-line')).toHaveTextContent(
      /Steam 50\s*2 × BRL\s50\.00\s*BRL\s100\.00/,
    );
    expect(page).toHaveTextContent('Discount (promo code SUMMER10)');
    expect(within(page).getByTestId('order-page-total')).toHaveTextContent(/^BRL\s90\.00$/);
    expect(page).toHaveTextContent('Bank card');

    const codes = await screen.findAllByTestId('purchased-code');
    expect(codes).toHaveLength(2);
    expect(page).not.toHaveTextContent('STEAM-AAAA-1111');
    await userEvent.click(within(codes[0] as HTMLElement).getByRole('button', { name: 'Show code' }));
    expect(page).toHaveTextContent('STEAM-AAAA-1111');

    await userEvent.click(screen.getByRole('button', { name: 'Download the receipt (PDF)' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(clicked[0]?.download).toBe('receipt-3F2A1B9C.pdf');
    expect(clicked[0]?.href).toBe('blob:receipt');
    expect(calls).toContain(`/api/profile/orders/${PAID}/receipt`);
    click.mockRestore();
  });

  it('has no receipt and reads no codes for a failed order', async () => {
    stubApi({ 1: { orders: [failed], page: 1, pages: 1, total: 1 } });
    renderWithApp(<OrderView orderId={FAILED} />, { route: `/profile?order=${FAILED}` });
    expect(await screen.findByTestId('order-status')).toHaveTextContent('Payment failed');
    expect(screen.getByText('A receipt is issued once the order is paid.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download the receipt (PDF)' })).toBeNull();
    expect(screen.queryByTestId('order-codes')).toBeNull();
    // The card that was refused is the method the order shows.
    expect(screen.getByTestId('order-page')).toHaveTextContent('Bank card');
    expect(calls).toEqual([`/api/profile/orders/${FAILED}`]);
  });

  it('is the 404 page for an order that is not the customer’s', async () => {
    stubApi({ 1: { orders: [], page: 1, pages: 0, total: 0 } });
    renderWithApp(<ProfileRoute />, { route: `/profile?order=${PAID}` });
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
  });

  it('is the 404 page, asking nothing of the API, for an `order` that names no order', async () => {
    stubApi({ 1: { orders: [], page: 1, pages: 0, total: 0 } });
    renderWithApp(<ProfileRoute />, { route: '/profile?order=not-an-id' });
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
