import type { ProductSummary } from '@store/contract';

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
    ...overrides,
  };
}
