import { useSyncExternalStore } from 'react';
import { getBasket, getBasketState, subscribeBasket } from '../basket-store.ts';

export const useBasket = () => useSyncExternalStore(subscribeBasket, getBasket, getBasket);

/** The lines and the notes of lines the server capped. */
export const useBasketState = () => useSyncExternalStore(subscribeBasket, getBasketState, getBasketState);
