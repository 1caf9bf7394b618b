import { STORE_DISPLAY_RATE } from '@store/contract';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberDisplayRate } from '../../../lib/display-rate.ts';
import { productFixture } from '../../../test/fixtures.ts';
import { mockFetch, renderWithApp } from '../../../test/render.tsx';
import type { BasketLine } from '../basket-store.ts';
import { BasketTotal } from './basket-total.tsx';

const line = (priceMinor: number, quantity: number): BasketLine => {
  const { id, article, name, currency, category, cover_path, cover_text, country_icon, in_stock } = productFixture();
  return {
    id,
    article,
    name,
    currency,
    category,
    cover_path,
    cover_text,
    country_icon,
    in_stock,
    price: priceMinor / 100,
    price_minor: priceMinor,
    pivot: { quantity },
  } as BasketLine;
};

afterEach(() => {
  rememberDisplayRate('ru', { display: STORE_DISPLAY_RATE });
  rememberDisplayRate('hi', { display: STORE_DISPLAY_RATE });
  vi.unstubAllGlobals();
});

describe('BasketTotal', () => {
  it('states the BRL amount charged and about how much it is in roubles, with the date of the rate', () => {
    rememberDisplayRate('ru', { display: { currency: 'RUB', rate: '0.057', set_at: '2026-11-23T10:00:00.000Z' } });
    renderWithApp(<BasketTotal lines={[line(6_195, 2)]} promo={null} />, { language: 'ru' });
    expect(screen.getByTestId('basket-total')).toHaveTextContent(/^123,90\sBRL$/);
    const day = new Intl.DateTimeFormat('ru', { day: 'numeric', month: 'short' }).format(new Date('2026-11-23'));
    // BRL 123.90 at 0.057: 2 173.68 roubles, rounded up.
    expect(screen.getByTestId('basket-total-approx').textContent).toMatch(
      new RegExp(`^You pay 123,90\\sBRL, ≈\\s2\\s174\\s₽ at the store's rate of ${day}\\.$`),
    );
  });

  it('the approximate amount follows the discount: it is of what will be charged', () => {
    rememberDisplayRate('ru', { display: { currency: 'RUB', rate: '0.057', set_at: '2026-11-23T10:00:00.000Z' } });
    renderWithApp(
      <BasketTotal
        lines={[line(10_000, 1)]}
        promo={{ owner: 'u1', code: 'WELCOME10', discount: 10, appliesTo: [12] }}
      />,
      { language: 'ru' },
    );
    expect(screen.getByTestId('basket-total')).toHaveTextContent(/^90,00\sBRL$/);
    expect(screen.getByTestId('basket-total-approx')).toHaveTextContent(/≈\s1\s579\s₽/);
  });

  it('after a switch to a language whose rate is not known yet, asks for it and shows the amount', async () => {
    // Nothing with prices has been read in Hindi yet: the basket's lines were read in another language.
    const page = { total: 0, page: 1, pages: 1, offset: 0, limit: 20, products: [] };
    const { fetchMock, calls } = mockFetch({
      '/api/popular-products': {
        result: page,
        display: { currency: 'INR', rate: '0.0625', set_at: '2026-11-23T10:00:00.000Z' },
      },
    });
    vi.stubGlobal('fetch', vi.fn(fetchMock));
    renderWithApp(<BasketTotal lines={[line(1_000, 1)]} promo={null} />, { language: 'hi' });
    expect(screen.queryByTestId('basket-total-approx')).not.toBeInTheDocument();
    // BRL 10.00 at 0.0625: 160 rupees.
    expect(await screen.findByTestId('basket-total-approx')).toHaveTextContent(/≈\s₹160/);
    expect(calls).toEqual(['/api/popular-products?page=1&lang=hi']);
  });

  it('says nothing more where prices are shown in BRL', () => {
    renderWithApp(<BasketTotal lines={[line(6_195, 2)]} promo={null} />, { language: 'pt-BR' });
    expect(screen.getByTestId('basket-total')).toHaveTextContent(/^BRL\s123,90$/);
    expect(screen.queryByTestId('basket-total-approx')).not.toBeInTheDocument();
  });
});
