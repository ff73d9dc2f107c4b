import { useMemo } from 'react';
import type { ApiClient } from '../api-client';
import { useApiClient } from '../api-context';
import { useQuery } from '../query';
import { useSession, useSessionStore } from './session-context';
import type { SessionStore } from './session-store';

/**
 * What lives while the vault is unlocked (a feature's store, the upload queue): `make` (a module
 * function) with `deps` (stable: a context value, or memoized) asked again when the user or the
 * vault key changes (a new key, or none, means a new one); null while the vault is locked.
 */
export function useUnlockedValue<D, T>(
  make: (session: SessionStore, api: ApiClient, deps: D) => T | null,
  deps: D,
): T | null {
  const session = useSessionStore();
  const { user, vaultKey } = useSession();
  const userId = user?.id ?? null;
  const api = useApiClient();
  return useMemo(
    () => (userId && vaultKey ? make(session, api, deps) : null),
    [session, api, make, deps, userId, vaultKey],
  );
}

/** A query that needs the vault key (decrypting what it loads); not run while the vault is locked. */
export function useUnlockedQuery<T>(
  queryKey: string,
  load: (api: ApiClient, vaultKey: CryptoKey) => Promise<T>,
) {
  const api = useApiClient();
  const { vaultKey } = useSession();
  return useQuery({
    queryKey,
    queryFn: () => (vaultKey ? load(api, vaultKey) : Promise.reject(new Error('The vault is locked'))),
    enabled: vaultKey !== null,
  });
}
