import { type Country, PRICE_FILTER_MAX_DIGITS, PRICE_SLIDER_STEP, USER_SORTS } from '@store/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render.tsx';
import { parseListingFilters } from '../api/listing-filters.ts';
import { normaliseBounds, priceDigits, sliderMax } from './price-range-filter.tsx';
import { ProductFilters, type ProductFiltersProps } from './product-filters.tsx';

const countries: Country[] = [
  { id: 1, name: 'Brazil', code: 'BR', icon: '/static/countries/BR.svg' },
  { id: 2, name: 'United States', code: 'US', icon: '/static/countries/US.svg' },
  { id: 3, name: null, code: 'EU', icon: null },
];

function setup(props: Partial<ProductFiltersProps> = {}) {
  const onChange = vi.fn();
  renderWithApp(
    <ProductFilters
      value={{}}
      onChange={onChange}
      priceRange={{ min: 21, max: 647 }}
      currency="BRL"
      countries={countries}
      {...props}
    />,
  );
  return { onChange };
}

async function choose(trigger: HTMLElement, option: string) {
  trigger.focus();
  await userEvent.keyboard('{Enter}');
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('price bounds', () => {
  it('keeps digits only, at most six of them', () => {
    expect(priceDigits('1a2-3 4')).toBe('1234');
    expect(priceDigits('12345678')).toBe('123456');
    expect(priceDigits('12345678')).toHaveLength(PRICE_FILTER_MAX_DIGITS);
  });

  it('rounds the slider top up to a whole step', () => {
    expect(sliderMax(647)).toBe(650);
    expect(sliderMax(650)).toBe(650);
    expect(sliderMax(0)).toBe(PRICE_SLIDER_STEP);
  });

  it('drops bounds at the ends and puts a reversed pair in order', () => {
    expect(normaliseBounds(0, 650, 650)).toEqual({ minPrice: undefined, maxPrice: undefined });
    expect(normaliseBounds(300, 100, 650)).toEqual({ minPrice: 100, maxPrice: 300 });
  });
});

describe('filters in the URL', () => {
  it('reads what a shared link carries and ignores what is broken', () => {
    const filters = parseListingFilters(
      new URLSearchParams('page=2&sort=increase&minPrice=100&maxPrice=abc&country=us,br&bogus=1'),
    );
    expect(filters).toEqual({ page: 2, sort: 'increase', minPrice: 100, country: ['US', 'BR'] });
  });

  it('ignores a price of more than six digits and an unknown sort', () => {
    expect(parseListingFilters(new URLSearchParams('minPrice=1234567&sort=cheapest'))).toEqual({});
  });
});

describe('ProductFilters', () => {
  it('commits typed prices on Enter, digits only, and starts again from page one', async () => {
    const { onChange } = setup({ value: { page: 3 } });
    const min = screen.getByRole('textbox', { name: 'Minimum price' });
    expect(min).toHaveAttribute('maxLength', String(PRICE_FILTER_MAX_DIGITS));
    await userEvent.type(min, '1x0e0{Enter}');
    expect(min).toHaveValue('100');
    expect(onChange).toHaveBeenLastCalledWith({ minPrice: 100, maxPrice: undefined });
  });

  it('moves the slider in steps of 50', async () => {
    const { onChange } = setup();
    const [low] = screen.getAllByRole('slider');
    expect(low).toHaveAttribute('aria-valuemax', '650');
    low?.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(low).toHaveAttribute('aria-valuenow', String(PRICE_SLIDER_STEP));
    expect(onChange).toHaveBeenLastCalledWith({ minPrice: PRICE_SLIDER_STEP, maxPrice: undefined });
  });

  it('offers the five user-facing sorts and sends the sort mode of the chosen one', async () => {
    const { onChange } = setup();
    const trigger = screen.getByRole('combobox', { name: 'Sort' });
    trigger.focus();
    await userEvent.keyboard('{Enter}');
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Popular', 'In stock', 'New', 'Price: low to high', 'Price: high to low']);
    await userEvent.click(within(listbox).getByRole('option', { name: 'Price: low to high' }));
    expect(onChange).toHaveBeenLastCalledWith({ sort: USER_SORTS.priceLowToHigh });
  });

  it('filters by country, with regions named too', async () => {
    const { onChange } = setup();
    await choose(screen.getByRole('combobox', { name: 'Country' }), 'United States');
    expect(onChange).toHaveBeenLastCalledWith({ country: ['US'] });
    expect(screen.queryByRole('option', { name: 'European Union' })).not.toBeInTheDocument();
  });

  it('moves to another category from the category select', async () => {
    const onCategoryChange = vi.fn();
    setup({
      categories: [
        { id: 'steam', name: 'Steam', formatted_name: 'Steam', svg_path: null, products_count: 3 },
        { id: 'xbox', name: 'Xbox', formatted_name: 'Xbox', svg_path: null, products_count: 2 },
      ],
      category: 'steam',
      onCategoryChange,
    });
    await choose(screen.getByRole('combobox', { name: 'Category' }), 'Xbox');
    expect(onCategoryChange).toHaveBeenCalledWith('xbox');
  });

  it('resets everything at once', async () => {
    const { onChange } = setup({ value: { minPrice: 100, country: ['BR'], sort: 'increase' } });
    await userEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    expect(onChange).toHaveBeenLastCalledWith({});
  });
});
