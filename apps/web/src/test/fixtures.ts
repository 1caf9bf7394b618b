import type { ProductSummary, User } from '@store/contract';
import { within } from '@testing-library/react';

export function productFixture(overrides: Partial<ProductSummary> = {}): ProductSummary {
  return {
    id: 12,
    article: '12',
    name: 'Steam Gift Card 50 USD',
    price: 1234.5,
    price_minor: 123_450,
    old_price: null,
    old_price_minor: null,
    discount: 0,
    currency: 'BRL',
    cover_path: '/static/covers/steam.svg',
    cover_text: '50 USD',
    country_icon: '/static/countries/US.svg',
    country: { code: 'US', name: 'United States' },
    nominal: { amount: 50, currency: 'USD' },
    category: 'steam',
    in_stock: true,
    created_at: '2026-11-01T10:00:00.000Z',
    rating: { average: 4.6, count: 23 },
    ...overrides,
  };
}

export function userFixture(overrides: Partial<User> = {}): User {
  return {
    id: 'u1',
    email: 'ana@example.com',
    name: 'Ana2026',
    verified: false,
    activated: false,
    balance: 0,
    balance_minor: 0,
    locale: 'en',
    created_at: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

export type Reply = { status?: number; body?: unknown; headers?: Record<string, string> };

/**
 * A fetch stand-in for calls that send data: `METHOD /path` to a reply (or a function of the request
 * body); the calls are recorded with their bodies and headers.
 */
export function mockApi(routes: Record<string, Reply | ((body: unknown) => Reply)>) {
  const calls: { method: string; path: string; body: unknown; headers: Record<string, string> }[] = [];
  const fetchMock = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init.method ?? 'GET';
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname, body, headers: (init.headers ?? {}) as Record<string, string> });
    const route = routes[`${method} ${url.pathname}`];
    const reply = typeof route === 'function' ? route(body) : route;
    if (!reply) return new Response(JSON.stringify({ message: 'Not found' }), { status: 404 });
    const status = reply.status ?? 200;
    return new Response(status === 204 ? null : JSON.stringify(reply.body ?? {}), {
      status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  };
  return { fetchMock, calls };
}

/** Both consents, ticked in the method choice `scope` (English texts). */
export async function giveConsents(user: { click: (element: Element) => Promise<void> }, scope: HTMLElement) {
  await user.click(within(scope).getByRole('checkbox', { name: /privacy policy/ }));
  await user.click(within(scope).getByRole('checkbox', { name: /cannot be refunded/ }));
}
