import type { AdminSessionResponse } from '@vault/contracts';
import { useCallback } from 'react';
import { isApiError } from '../../../lib/api-client';
import { useQueryCache, type QueryCache } from '../../../lib/query';
import { adminStatsQuery, getAdminSession, useAdminQuery, type AdminApiClient } from '../api/admin-api';

export type AdminGateState =
  | { kind: 'loading' }
  /** 401: no admin session (or it ended). */
  | { kind: 'signed-out' }
  /** 403: signed in, but not allowed the console (not an admin, or no stats:read). */
  | { kind: 'forbidden' }
  | { kind: 'error'; error: unknown }
  | { kind: 'ready'; session: AdminSessionResponse; readAt: number };

export function gateStateFor(error: unknown): AdminGateState {
  if (isApiError(error, 401)) return { kind: 'signed-out' };
  if (isApiError(error, 403)) return { kind: 'forbidden' };
  return { kind: 'error', error };
}

/** Who is signed in, then the stats call every admin must pass; the stats stay cached for the Overview. */
async function checkAdmin(api: AdminApiClient, cache: QueryCache) {
  const session = await getAdminSession(api);
  const readAt = Date.now();
  await cache.fetch(adminStatsQuery.queryKey, () => adminStatsQuery.get(api));
  const stats = cache.getState(adminStatsQuery.queryKey);
  if (stats.status === 'error') throw stats.error;
  return { session, readAt };
}

/** The /admin gate (spec sections 2 and 6), through the console's query cache. */
export function useAdminGate() {
  const cache = useQueryCache();
  const check = useCallback((api: AdminApiClient) => checkAdmin(api, cache), [cache]);
  const gate = useAdminQuery('admin:gate', check);
  // A refetch keeps the console up (its data stays while it runs); only a failure replaces it.
  const state: AdminGateState = gate.data
    ? { kind: 'ready', ...gate.data }
    : gate.status === 'error'
      ? gateStateFor(gate.error)
      : { kind: 'loading' };
  const { refetch } = gate;
  const reload = useCallback(() => void refetch(), [refetch]);
  return { state, reload };
}
