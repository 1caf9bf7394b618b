import { useSyncExternalStore } from 'react';
import { getSessionState, subscribe } from '../lib/session.ts';

export const useSession = () => useSyncExternalStore(subscribe, getSessionState);
