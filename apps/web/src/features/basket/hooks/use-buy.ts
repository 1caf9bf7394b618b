import type { ProductSummary } from '@store/contract';
import { useCallback } from 'react';
import { addToBasket } from '../basket-store.ts';
import { useBasketUi } from '../basket-ui-context.ts';

/** The Buy button: one more unit in the basket (or the quantity the product page chose), then the notification. */
export function useBuy() {
  const { notifyAdded } = useBasketUi();
  return useCallback(
    (product: ProductSummary, quantity?: number) => {
      addToBasket(product, quantity);
      notifyAdded(product);
    },
    [notifyAdded],
  );
}
