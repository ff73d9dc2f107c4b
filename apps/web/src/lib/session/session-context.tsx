import { useSyncExternalStore, type ReactNode } from 'react';
import { createRequiredContext } from '../required-context';
import type { SessionState, SessionStore } from './session-store';

const SessionContext = createRequiredContext<SessionStore>('useSessionStore needs a SessionProvider');

export function SessionProvider({ store, children }: { store: SessionStore; children: ReactNode }) {
  return <SessionContext.Provider value={store}>{children}</SessionContext.Provider>;
}

export const useSessionStore = SessionContext.use;

/** The current session state; re-renders on every change. */
export function useSession(): SessionState {
  const store = useSessionStore();
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}
