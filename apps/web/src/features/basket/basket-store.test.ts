import { describe, expect, it } from 'vitest';
import { productFixture } from '../../test/fixtures.ts';
import { addToBasket, BASKET_STORAGE_KEY, basketCount, basketTotalMinor, getBasket } from './basket-store.ts';

describe('basket store', () => {
  it('adds one unit per Buy and keeps the basket in localStorage under "basket"', () => {
    addToBasket(productFixture({ id: 1, price_minor: 2990 }));
    addToBasket(productFixture({ id: 1, price_minor: 2990 }));
    addToBasket(productFixture({ id: 2, price_minor: 1000 }));
    const stored = JSON.parse(localStorage.getItem(BASKET_STORAGE_KEY) ?? '[]');
    expect(stored.map((line: { id: number; pivot: { quantity: number } }) => [line.id, line.pivot.quantity])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(basketCount(getBasket())).toBe(3);
    expect(basketTotalMinor(getBasket())).toBe(6980);
  });

  it('drops damaged entries instead of failing', () => {
    localStorage.setItem(BASKET_STORAGE_KEY, JSON.stringify([{ id: 'x' }, 42]));
    expect(getBasket()).toEqual([]);
    localStorage.setItem(BASKET_STORAGE_KEY, '{not json');
    expect(getBasket()).toEqual([]);
  });
});
