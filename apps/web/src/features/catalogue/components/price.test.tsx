import { STORE_DISPLAY_RATE } from '@store/contract';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberDisplayRate } from '../../../lib/display-rate.ts';
import { productFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { ProductCard } from './product-card.tsx';

const RUB = { currency: 'RUB', rate: '0.057', set_at: '2026-11-23T10:00:00.000Z' };
const INR = { currency: 'INR', rate: '0.064', set_at: '2026-11-23T10:00:00.000Z' };

afterEach(() => {
  for (const lang of ['ru', 'hi']) rememberDisplayRate(lang, { display: STORE_DISPLAY_RATE });
});

describe("a product card's price in the shopper's currency", () => {
  it("shows Russian shoppers roubles at the store's rate, rounded up and marked as approximate", () => {
    rememberDisplayRate('ru', { display: RUB });
    renderWithApp(<ProductCard product={productFixture()} onBuy={() => {}} />, { language: 'ru' });
    // BRL 1 234.50 at 0.057 BRL per rouble: 21 657.89 roubles.
    expect(screen.getByTestId('price')).toHaveTextContent(/^≈\s21\s658\s₽$/);
  });

  it('shows Hindi shoppers rupees, the old price of a discount converted too', () => {
    rememberDisplayRate('hi', { display: INR });
    renderWithApp(
      <ProductCard
        product={productFixture({
          price: 100,
          price_minor: 10_000,
          old_price: 125,
          old_price_minor: 12_500,
          discount: 20,
        })}
        onBuy={() => {}}
      />,
      { language: 'hi' },
    );
    expect(screen.getByTestId('price')).toHaveTextContent(/≈\s₹1\s563$/);
    expect(screen.getByText(/≈\s₹1\s954/).closest('s')).toBeInTheDocument();
  });

  it('keeps BRL for English and for a language whose rate fell back to BRL', () => {
    rememberDisplayRate('ru', { display: STORE_DISPLAY_RATE });
    renderWithApp(<ProductCard product={productFixture()} onBuy={() => {}} />, { language: 'ru' });
    expect(screen.getByTestId('price')).toHaveTextContent(/^1\s234,50\sBRL$/);
  });
});
