import { useSyncExternalStore } from 'react';
import { getSession, type Session, subscribeSession } from '../../../lib/session-store.ts';

const signedOut: Session = { token: null, user: null };

export const useSession = (): Session => useSyncExternalStore(subscribeSession, getSession, () => signedOut);
