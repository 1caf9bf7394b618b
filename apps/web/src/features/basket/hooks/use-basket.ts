import { useSyncExternalStore } from 'react';
import { getBasket, subscribeBasket } from '../basket-store.ts';

export const useBasket = () => useSyncExternalStore(subscribeBasket, getBasket, () => getBasket());
