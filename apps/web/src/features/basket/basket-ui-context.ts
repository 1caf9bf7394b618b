import type { ProductSummary } from '@store/contract';
import { createContext, createRef, useContext } from 'react';

export interface BasketUi {
  /** Shows the "added to basket" notification for a product. */
  notifyAdded: (product: ProductSummary) => void;
  /** Opens the panel; focus returns to the element that had it when the panel closes. */
  openBasket: () => void;
}

const noop = () => {};

export const BasketUiContext = createContext<BasketUi>({ notifyAdded: noop, openBasket: noop });

export const useBasketUi = () => useContext(BasketUiContext);

/** The top bar's basket button: where focus goes back to when the element that opened the panel is gone. */
export const cartButtonRef = createRef<HTMLButtonElement>();
