import { STORE_DISPLAY_RATE } from '@store/contract';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberDisplayRate } from '../../../lib/display-rate.ts';
import { productFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
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

  it('says nothing more where prices are shown in BRL', () => {
    renderWithApp(<BasketTotal lines={[line(6_195, 2)]} promo={null} />, { language: 'pt-BR' });
    expect(screen.getByTestId('basket-total')).toHaveTextContent(/^BRL\s123,90$/);
    expect(screen.queryByTestId('basket-total-approx')).not.toBeInTheDocument();
  });
});
