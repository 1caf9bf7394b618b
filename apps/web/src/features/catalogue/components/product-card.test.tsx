import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { productFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { ProductCard } from './product-card.tsx';

describe('ProductCard', () => {
  it('shows the cover with fixed dimensions, loaded lazily', () => {
    const { container } = renderWithApp(<ProductCard product={productFixture()} onBuy={() => {}} />);
    const cover = container.querySelector('img[src="/static/covers/steam.svg"]');
    expect(cover).toHaveAttribute('width', '320');
    expect(cover).toHaveAttribute('height', '200');
    expect(cover).toHaveAttribute('loading', 'lazy');
  });

  it('shows a placeholder when the product has no cover', () => {
    renderWithApp(<ProductCard product={productFixture({ cover_path: null })} onBuy={() => {}} />);
    expect(screen.getByTestId('cover-placeholder')).toBeInTheDocument();
  });

  it('splits the cover text into the first word and the rest, a face value grouped by spaces being one word', () => {
    // Split at the first space, "1 300 RP" would show a large 1 and read as 1 RP.
    renderWithApp(<ProductCard product={productFixture({ cover_text: '1 300 RP' })} onBuy={() => {}} />);
    const text = screen.getByTestId('cover-text');
    expect(text.children[0]).toHaveTextContent(/^1 300$/);
    expect(text.children[1]).toHaveTextContent(/^RP$/);
  });

  it('shows the country icon and name, the name, and the price with its currency', () => {
    const { container } = renderWithApp(<ProductCard product={productFixture()} onBuy={() => {}} />);
    expect(container.querySelector('img[src="/static/countries/US.svg"]')).toBeInTheDocument();
    expect(screen.getByTestId('card-country')).toHaveTextContent('United States');
    expect(screen.getByRole('heading', { name: 'Steam Gift Card 50 USD' })).toBeInTheDocument();
    // Thousands are separated by a space in every language (docs/currency.md, "Numbers in every language").
    expect(screen.getByTestId('price')).toHaveTextContent(/^BRL\s1\s234\.50$/);
  });

  it('strikes through the old price of a discounted product', () => {
    renderWithApp(
      <ProductCard
        product={productFixture({ price: 90, old_price: 100, discount: 10, price_minor: 9000, old_price_minor: 10000 })}
        onBuy={() => {}}
      />,
    );
    const old = screen.getByText(/100\.00/);
    expect(old.closest('s')).not.toBeNull();
    const badge = screen.getByText('−10%');
    // Beside the price, never over the cover and its text.
    expect(badge.closest('a')).toBeNull();
    expect(badge.parentElement).toContainElement(screen.getByTestId('price'));
  });

  it("shows the product's rating: a star, the average and the number of reviews, named in words", () => {
    renderWithApp(<ProductCard product={productFixture({ rating: { average: 4.6, count: 23 } })} onBuy={() => {}} />);
    const card = screen.getByRole('article', { name: 'Steam Gift Card 50 USD' });
    const rating = screen.getByRole('img', { name: 'Rated 4.6 out of 5, 23 reviews' });
    expect(card).toContainElement(rating);
    expect(rating).toHaveTextContent('4.6(23)');
  });

  it('shows no rating, not zero stars, for a product without reviews', () => {
    renderWithApp(<ProductCard product={productFixture({ rating: { average: null, count: 0 } })} onBuy={() => {}} />);
    expect(screen.getByRole('article', { name: 'Steam Gift Card 50 USD' })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /Rated/ })).toBeNull();
    expect(screen.queryByText(/\(0\)/)).toBeNull();
  });

  it('links More details to the product page', () => {
    renderWithApp(<ProductCard product={productFixture()} onBuy={() => {}} />);
    expect(screen.getByRole('link', { name: 'More details' })).toHaveAttribute('href', '/product/12');
  });

  it('hands the product to onBuy when Buy is pressed', async () => {
    const onBuy = vi.fn();
    const product = productFixture();
    renderWithApp(<ProductCard product={product} onBuy={onBuy} />);
    await userEvent.click(screen.getByRole('button', { name: 'Buy Steam Gift Card 50 USD' }));
    expect(onBuy).toHaveBeenCalledWith(product);
  });

  it('disables Buy and says so when the product is out of stock', () => {
    renderWithApp(<ProductCard product={productFixture({ in_stock: false })} onBuy={() => {}} />);
    expect(screen.getByRole('button', { name: /Buy/ })).toBeDisabled();
    expect(screen.getByText('Out of stock')).toBeInTheDocument();
  });
});
