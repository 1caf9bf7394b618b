import type { ProductSummary } from '@store/contract';
import { createContext, useContext } from 'react';

export interface BasketUi {
  /** Shows the "added to basket" notification for a product. */
  notifyAdded: (product: ProductSummary) => void;
  openBasket: () => void;
}

const noop = () => {};

export const BasketUiContext = createContext<BasketUi>({ notifyAdded: noop, openBasket: noop });

export const useBasketUi = () => useContext(BasketUiContext);
