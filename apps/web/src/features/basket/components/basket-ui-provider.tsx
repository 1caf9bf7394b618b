import type { ProductSummary } from '@store/contract';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ensureTexts } from '../../../lib/i18n.ts';
import { useSession } from '../../auth/hooks/use-session.ts';
import { type BasketUi, BasketUiContext, cartButtonRef } from '../basket-ui-context.ts';

// Neither is needed to show a page: they load, with the basket's texts, on the first Buy or basket click.
const AddedNotification = lazy(() =>
  Promise.all([import('./added-notification.tsx'), ensureTexts('basket')]).then(([module]) => module),
);
const BasketPanel = lazy(() =>
  Promise.all([import('./basket-panel.tsx'), ensureTexts('basket')]).then(([module]) => module),
);

/**
 * The basket's notification and panel, and for a signed-in customer the sync of their basket with
 * the server (basket-sync.ts), which loads only once somebody is signed in.
 */
export function BasketUiProvider({ children }: { children: ReactNode }) {
  const [added, setAdded] = useState<{ product: ProductSummary; key: number } | null>(null);
  const [panelOpen, setPanelOpen] = useState(false);
  const [panelMounted, setPanelMounted] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const { token } = useSession();

  useEffect(() => {
    if (!token) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import('../basket-sync.ts').then((sync) => {
      if (!cancelled) stop = sync.startBasketSync();
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [token]);

  const notifyAdded = useCallback((product: ProductSummary) => {
    setAdded((previous) => ({ product, key: (previous?.key ?? 0) + 1 }));
  }, []);
  const openBasket = useCallback(() => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // The notification has done its job, and must not cover the panel's checkout button.
    setAdded(null);
    setPanelMounted(true);
    setPanelOpen(true);
  }, []);
  const returnFocus = useCallback(() => {
    const target = opener.current?.isConnected ? opener.current : cartButtonRef.current;
    target?.focus();
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
        {panelMounted && <BasketPanel open={panelOpen} onOpenChange={setPanelOpen} returnFocus={returnFocus} />}
      </Suspense>
    </BasketUiContext.Provider>
  );
}
