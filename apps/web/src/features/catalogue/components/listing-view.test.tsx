import type { ProductPage } from '@store/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderWithApp } from '../../../test/render.tsx';
import type { ListingFilters } from '../api/listing-filters.ts';
import { ListingView } from './listing-view.tsx';

const emptyPage = (total: number, page: number, pages: number): ProductPage => ({
  total,
  page,
  pages,
  offset: (page - 1) * 12,
  limit: 12,
  products: [],
});

function setup(
  result: ProductPage,
  filters: ListingFilters,
  route = '/category/steam',
  nothing?: { title: string; text: string },
) {
  const onFiltersChange = vi.fn();
  renderWithApp(
    <ListingView
      title="Steam"
      result={result}
      priceRange={{ min: 0, max: 100 }}
      currency="BRL"
      filters={filters}
      onFiltersChange={onFiltersChange}
      category="steam"
      nothing={nothing}
    />,
    { route },
  );
  return { onFiltersChange };
}

beforeEach(() => {
  vi.stubGlobal('fetch', vi.fn(mockFetch({ '/api/countries': [] }).fetchMock));
});
afterEach(() => vi.unstubAllGlobals());

describe('an empty listing page', () => {
  it('past the end says so and links to the last page, keeping the filters, never "No products yet"', async () => {
    setup(emptyPage(21, 99, 2), { page: 99, sort: 'increase' }, '/category/steam?sort=increase&page=99');
    expect(screen.getByTestId('page-subtitle')).toHaveTextContent('21 products found');
    expect(screen.getByText('Page 99 is past the end of this list')).toBeInTheDocument();
    expect(screen.queryByText('No products yet')).toBeNull();
    const link = screen.getByTestId('last-page-link');
    expect(link).toHaveAttribute('href', '/category/steam?sort=increase&page=2');
    await userEvent.click(link);
    expect(screen.getByTestId('location')).toHaveTextContent('/category/steam?sort=increase&page=2');
  });

  it('with filters that leave nothing offers to clear them, keeping the sort', async () => {
    const { onFiltersChange } = setup(emptyPage(0, 1, 0), { minPrice: 9000, country: ['US'], sort: 'decreasing' });
    expect(screen.getByText('No products match these filters')).toBeInTheDocument();
    expect(screen.queryByText('No products yet')).toBeNull();
    await userEvent.click(screen.getByTestId('clear-filters'));
    expect(onFiltersChange).toHaveBeenCalledWith({ sort: 'decreasing' });
  });

  it('of a list with nothing in it says "No products yet"', () => {
    setup(emptyPage(0, 1, 0), { sort: 'popular' });
    expect(screen.getByText('No products yet')).toBeInTheDocument();
    expect(screen.queryByTestId('clear-filters')).toBeNull();
  });

  it('of a search that found nothing says what it was given to say, not "No products yet"', () => {
    setup(emptyPage(0, 1, 0), {}, '/search/xyzzy', { title: 'Nothing found', text: 'Check the spelling.' });
    expect(screen.getByText('Nothing found')).toBeInTheDocument();
    expect(screen.getByTestId('page-subtitle')).toHaveTextContent('0 products found');
    expect(screen.getByText('Check the spelling.')).toBeInTheDocument();
    expect(screen.queryByText('No products yet')).toBeNull();
  });
});
