import type { ProductSummary } from '@store/contract';
import { lazy, type ReactNode, Suspense, useCallback, useMemo, useState } from 'react';
import { type BasketUi, BasketUiContext } from '../basket-ui-context.ts';

// Neither is needed to show a page: they load on the first Buy or basket click.
const AddedNotification = lazy(() => import('./added-notification.tsx'));
const BasketPanel = lazy(() => import('./basket-panel.tsx'));

export function BasketUiProvider({ children }: { children: ReactNode }) {
  const [added, setAdded] = useState<{ product: ProductSummary; key: number } | null>(null);
  const [panelOpen, setPanelOpen] = useState(false);
  const [panelMounted, setPanelMounted] = useState(false);

  const notifyAdded = useCallback((product: ProductSummary) => {
    setAdded((previous) => ({ product, key: (previous?.key ?? 0) + 1 }));
  }, []);
  const openBasket = useCallback(() => {
    setPanelMounted(true);
    setPanelOpen(true);
  }, []);
  const value = useMemo<BasketUi>(() => ({ notifyAdded, openBasket }), [notifyAdded, openBasket]);

  return (
    <BasketUiContext.Provider value={value}>
      {children}
      <Suspense fallback={null}>
        {added && (
          <AddedNotification
            key={added.key}
            product={added.product}
            onOpenBasket={openBasket}
            onClosed={() => setAdded(null)}
          />
        )}
        {panelMounted && <BasketPanel open={panelOpen} onOpenChange={setPanelOpen} />}
      </Suspense>
    </BasketUiContext.Provider>
  );
}
