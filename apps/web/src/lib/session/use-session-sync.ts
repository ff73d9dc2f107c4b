import { useEffect } from 'react';
import { useQueryCache } from '../query';
import { STORAGE_KEYS } from '../storage';
import { useSessionStore } from './session-context';

/** Keeps this tab's session in step with the others (sign-out, refreshed tokens, sign-in). */
export function useSessionSync(): void {
  const session = useSessionStore();
  const cache = useQueryCache();
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== null && event.key !== STORAGE_KEYS.savedUser) return;
      const before = session.getState().user?.id;
      void session.syncFromStorage().then(() => {
        if (session.getState().user?.id !== before) cache.clear();
      });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [session, cache]);
}
